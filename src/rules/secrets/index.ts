import type { RuleDef } from '../types.js';

export const secretRules: readonly RuleDef[] = [];
