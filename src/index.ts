/**
 * leakscan: sensitive-data detection for HTTP response bodies.
 * @example
 * import { createScanner } from 'leakscan';
 * const scanner = await createScanner();
 * const findings = await scanner.scan(body, { contentType: 'application/json' });
 * await scanner.close();
 */
export { createScanner } from './scanner.js';
export type { Finding, Confidence, ScanMeta, ScanNotice, ScanReport, Scanner, ScannerOptions, BodySource, BodyStream } from './types.js';
export { managedRuleset, selectRules, allRuleDefs, kManagedRulesetId, ruleTags, UnknownRuleSelectorError } from './rules/index.js';
export type { ManagedRuleset, ManagedRuleInfo, RuleDef, Family } from './rules/index.js';
export { LeakscanError, kCodes, type Code } from './errors.js';
export { redact, type RedactionPolicy } from './redact/index.js';
