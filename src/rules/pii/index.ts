import type { RuleDef } from '../types.js';

export const piiRules: readonly RuleDef[] = [];
