import type { RuleDef } from '../types.js';
import { bankRules } from './bank.js';
import { cardRules } from './cards.js';
import { cryptoWalletRules } from './crypto-wallets.js';

export { bankRules } from './bank.js';
export { cardRules } from './cards.js';

/** Financial information: payment cards, then bank identifiers and accounts, then cryptocurrency addresses. */
export const financialRules: readonly RuleDef[] = [...cardRules, ...bankRules, ...cryptoWalletRules];
