import type { RuleDef } from '../types.js';

export const financialRules: readonly RuleDef[] = [];
