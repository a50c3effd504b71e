import type { RuleDef } from '../types.js';
import { cloudRules } from './cloud.js';
import { cloudflareRules } from './cloudflare.js';
import { vcsRules } from './vcs.js';
import { saasRules } from './saas.js';
import { aiRules } from './ai.js';
import { cryptoRules } from './crypto.js';
import { genericRules } from './generic.js';
import { moreTokenRules } from './more-tokens.js';

export { cloudRules, cloudflareRules, vcsRules, saasRules, aiRules, cryptoRules, moreTokenRules, genericRules };

/**
 * The `secrets` family, in catalogue order: vendor-specific formats first (prefixes and checksums,
 * the precise ones), then structural formats (JWT, PEM), then the keyword-anchored generic rules.
 */
export const secretRules: readonly RuleDef[] = [
  ...cloudRules,
  ...cloudflareRules,
  ...vcsRules,
  ...saasRules,
  ...aiRules,
  ...cryptoRules,
  ...moreTokenRules,
  ...genericRules,
];
