/**
 * The Rulesets API's domain (spec area A): rulesets per zone, rules, versions, overrides of the
 * managed Sensitive Data Detection ruleset, validation with Cloudflare's v4 errors, persistence,
 * and the effective configuration the scanner, the proxy and the dashboard share.
 * @example
 * import { RulesetService, FileZoneStore, scannerOptionsFor } from './rulesets/index.js';
 * const rulesets = new RulesetService(new FileZoneStore('.leakscan/rulesets'));
 * const { ruleIds, thresholds } = await rulesets.effectiveRules(zoneId, { request: { url }, response: { status, headers } });
 */
export { RulesetService, kLimits, type WriteOptions } from './service.js';
export { compileZone, enabledByOverrides, thresholdsByOverrides, keepsFinding, lowestThreshold, kSensitivityThreshold, scannerOptionsFor, type EffectiveRules, type CompiledZone } from './effective.js';
export { FileZoneStore, MemoryZoneStore, writeFileAtomic, type ZoneStore, type ZoneState, type RulesetRecord } from './store.js';
export { kApiErrors, RulesetsApiError, invalidValue, type ApiErrorName, type ApiErrorEntry } from './errors.js';
export { managedRulesetView, managedSummary, kManagedRuleIds, kManagedTags, isManagedRulesetId } from './managed.js';
export { kIdPattern } from './validate.js';
export * from './types.js';
export { compileExpression, ExpressionError, kMaxExpressionLength, kFields, TrafficView, type Traffic, type CompiledExpression, type HeaderValues } from './expression/index.js';
