import type { RuleDef } from '../types.js';
import { americasRules } from './americas.js';
import { asiaRules } from './asia.js';
import { auRules } from './au.js';
import { euRules } from './eu.js';
import { moreIdRules } from './more-ids.js';
import { morePassportRules } from './more-passports.js';
import { mrzRules } from './mrz.js';
import { networkRules } from './network.js';
import { ukRules } from './uk.js';
import { usRules } from './us.js';

/** National identity, tax, health and travel-document numbers, grouped by region in catalogue order. */
export const piiRules: readonly RuleDef[] = [
  ...usRules,
  ...ukRules,
  ...americasRules,
  ...euRules,
  ...asiaRules,
  ...auRules,
  ...moreIdRules,
  ...morePassportRules,
  ...mrzRules,
  ...networkRules,
];
