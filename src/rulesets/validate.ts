import { invalidValue, RulesetsApiError } from './errors.js';
import { compileExpression, ExpressionError } from './expression/index.js';
import { kManagedRuleIds, kManagedTags } from './managed.js';
import { kSensitivityLevels, type CategoryOverride, type ExecuteParameters, type Overrides, type Position, type RuleAction, type RuleOverride, type SensitivityLevel, type SkipParameters } from './types.js';

/** A rule as a request defines it, checked for shape; references are checked against the zone later. */
export interface RuleSpec {
  id?: string;
  action: RuleAction;
  action_parameters?: ExecuteParameters | SkipParameters;
  expression: string;
  description: string;
  enabled: boolean;
  logging?: { enabled: boolean };
  ref?: string;
}

export const kIdPattern = /^[0-9a-f]{32}$/;
const kMaxText = 500;
const kMaxRef = 100;

type Json = Record<string, unknown>;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function wrongType(ptr: string, expected: string, v: unknown): RulesetsApiError {
  return new RulesetsApiError('INVALID_JSON', `invalid JSON: invalid type for ${ptrName(ptr)}: expected ${expected}, got ${typeOf(v)}`, { pointer: ptr });
}

function ptrName(ptr: string): string {
  return ptr === '' ? 'the body' : `"${ptr.slice(1).replaceAll('/', '.')}"`;
}

export function object(v: unknown, ptr: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw wrongType(ptr, 'an object', v);
  return v as Json;
}

/** Refuses any key outside `allowed` (Cloudflare: `invalid JSON: unknown field "kind"`). */
export function onlyKeys(o: Json, allowed: readonly string[], ptr: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new RulesetsApiError('INVALID_JSON', `invalid JSON: unknown field "${k}"`, { pointer: `${ptr}/${k}` });
  }
}

export function optString(o: Json, key: string, ptr: string, max = kMaxText): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw wrongType(`${ptr}/${key}`, 'a string', v);
  if (v.length > max) throw invalidValue('INVALID_VALUE', key, `${v.slice(0, 40)}…`, `it is longer than ${max} characters`, `${ptr}/${key}`);
  return v;
}

export function reqString(o: Json, key: string, ptr: string, max = kMaxText): string {
  const v = optString(o, key, ptr, max);
  if (v === undefined) throw new RulesetsApiError('INVALID_JSON', `invalid JSON: missing field "${key}"`, { pointer: `${ptr}/${key}` });
  return v;
}

export function optBool(o: Json, key: string, ptr: string): boolean | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw wrongType(`${ptr}/${key}`, 'a boolean', v);
  return v;
}

function array(v: unknown, ptr: string, max: number): unknown[] {
  if (!Array.isArray(v)) throw wrongType(ptr, 'an array', v);
  if (v.length > max) throw new RulesetsApiError('LIMIT_EXCEEDED', `${ptrName(ptr)} holds ${v.length} items; the limit is ${max}`, { pointer: ptr });
  return v;
}

export function optArray(o: Json, key: string, ptr: string, max: number): unknown[] | undefined {
  return o[key] === undefined ? undefined : array(o[key], `${ptr}/${key}`, max);
}

/** A 32-hex identifier (rulesets, rules, tokens). */
export function checkId(id: string, what: string, ptr?: string): void {
  if (!kIdPattern.test(id)) throw invalidValue('INVALID_VALUE', what, id, 'it is not a 32-character lower-case hexadecimal identifier', ptr);
}

/** Compiles an expression to validate it, turning parse errors into Cloudflare's wording. */
export function checkExpression(expression: string, ptr: string): void {
  if (expression.trim() === '') throw invalidValue('BLANK_EXPRESSION', 'expression', expression, 'the expression cannot be blank', ptr);
  try {
    compileExpression(expression);
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    throw invalidValue('INVALID_EXPRESSION', 'expression', expression, `the expression is invalid: ${err.message}`, ptr);
  }
}

function overrideAction(o: Json, ptr: string): 'log' | undefined {
  const action = optString(o, 'action', ptr);
  if (action === undefined) return undefined;
  if (action !== 'log') {
    throw invalidValue('OVERRIDE_ACTION', 'action', action, 'Sensitive Data Detection rules always log (they run after the response is sent and cannot block it)', `${ptr}/action`);
  }
  return action;
}

/** `sensitivity_level`: one of the SDK's four values (`default`, `medium`, `low`, `eoff`). */
function sensitivityLevel(o: Json, ptr: string): SensitivityLevel | undefined {
  const level = optString(o, 'sensitivity_level', ptr);
  if (level === undefined) return undefined;
  if (!(kSensitivityLevels as readonly string[]).includes(level)) {
    throw invalidValue('INVALID_VALUE', 'sensitivity_level', level, `it is not one of ${kSensitivityLevels.join(', ')}`, `${ptr}/sensitivity_level`);
  }
  return level as SensitivityLevel;
}

/** The `action`, `enabled` and `sensitivity_level` of one category or rule override; it must set at least one. */
function overrideSettings(o: Json, ptr: string, field: string, name: string): Pick<RuleOverride, 'action' | 'enabled' | 'sensitivity_level'> {
  const out: Pick<RuleOverride, 'action' | 'enabled' | 'sensitivity_level'> = {};
  const action = overrideAction(o, ptr);
  if (action !== undefined) out.action = action;
  const enabled = optBool(o, 'enabled', ptr);
  if (enabled !== undefined) out.enabled = enabled;
  const level = sensitivityLevel(o, ptr);
  if (level !== undefined) out.sensitivity_level = level;
  if (action === undefined && enabled === undefined && level === undefined) {
    throw invalidValue('INVALID_VALUE', field, name, 'an override must set enabled, action or sensitivity_level', ptr);
  }
  return out;
}

function refuseNotApplicable(o: Json, keys: readonly string[], ptr: string): void {
  for (const k of keys) {
    if (o[k] !== undefined) throw invalidValue('INVALID_VALUE', k, o[k], 'it does not apply to the Sensitive Data Detection ruleset', `${ptr}/${k}`);
  }
}

function overrides(v: unknown, ptr: string): Overrides {
  const o = object(v, ptr);
  onlyKeys(o, ['action', 'enabled', 'sensitivity_level', 'categories', 'rules'], ptr);
  const out: Overrides = {};
  const action = overrideAction(o, ptr);
  if (action !== undefined) out.action = action;
  const enabled = optBool(o, 'enabled', ptr);
  if (enabled !== undefined) out.enabled = enabled;
  const level = sensitivityLevel(o, ptr);
  if (level !== undefined) out.sensitivity_level = level;
  const cats = optArray(o, 'categories', ptr, 1000);
  if (cats !== undefined) {
    out.categories = cats.map((c, i): CategoryOverride => {
      const p = `${ptr}/categories/${i}`;
      const co = object(c, p);
      onlyKeys(co, ['category', 'action', 'enabled', 'sensitivity_level'], p);
      const category = reqString(co, 'category', p);
      if (!kManagedTags.has(category)) {
        throw invalidValue('UNKNOWN_MANAGED_RULE', 'category', category, 'no rule of the managed ruleset has this tag (see GET …/rulesets/<managed id>)', `${p}/category`);
      }
      return { category, ...overrideSettings(co, p, 'categories', category) };
    });
  }
  const rules = optArray(o, 'rules', ptr, 1000);
  if (rules !== undefined) {
    const seen = new Set<string>();
    out.rules = rules.map((r, i): RuleOverride => {
      const p = `${ptr}/rules/${i}`;
      const ro = object(r, p);
      onlyKeys(ro, ['id', 'action', 'enabled', 'score_threshold', 'sensitivity_level'], p);
      refuseNotApplicable(ro, ['score_threshold'], p);
      const id = reqString(ro, 'id', p);
      if (!kManagedRuleIds.has(id)) {
        throw invalidValue('UNKNOWN_MANAGED_RULE', 'id', id, 'it is not a rule of the managed ruleset (see GET …/rulesets/<managed id>)', `${p}/id`);
      }
      if (seen.has(id)) throw invalidValue('DUPLICATE', 'id', id, 'the rule is overridden twice', `${p}/id`);
      seen.add(id);
      return { id, ...overrideSettings(ro, p, 'rules', id) };
    });
  }
  return out;
}

function executeParameters(v: unknown, ptr: string): ExecuteParameters {
  const o = object(v, ptr);
  onlyKeys(o, ['id', 'version', 'overrides', 'matched_data'], ptr);
  if (o['matched_data'] !== undefined) {
    throw invalidValue('INVALID_VALUE', 'matched_data', o['matched_data'], 'Sensitive Data Detection does not support matched payload logging', `${ptr}/matched_data`);
  }
  const id = reqString(o, 'id', ptr);
  const version = optString(o, 'version', ptr) ?? 'latest';
  const out: ExecuteParameters = { id, version };
  if (o['overrides'] !== undefined) out.overrides = overrides(o['overrides'], `${ptr}/overrides`);
  return out;
}

function skipParameters(v: unknown, ptr: string): SkipParameters {
  const o = object(v, ptr);
  onlyKeys(o, ['ruleset', 'rulesets', 'rules'], ptr);
  const given = ['ruleset', 'rulesets', 'rules'].filter((k) => o[k] !== undefined);
  if (given.length !== 1) throw invalidValue('INVALID_VALUE', 'action_parameters', o, 'a skip rule needs exactly one of ruleset, rulesets or rules', ptr);
  const ruleset = optString(o, 'ruleset', ptr);
  if (ruleset !== undefined) {
    if (ruleset !== 'current') throw invalidValue('INVALID_VALUE', 'ruleset', ruleset, 'the only value is "current"', `${ptr}/ruleset`);
    return { ruleset };
  }
  const rulesets = optArray(o, 'rulesets', ptr, 100);
  if (rulesets !== undefined) {
    return {
      rulesets: rulesets.map((r, i) => {
        if (typeof r !== 'string') throw wrongType(`${ptr}/rulesets/${i}`, 'a string', r);
        return r;
      }),
    };
  }
  const rules = object(o['rules'], `${ptr}/rules`);
  const out: Record<string, string[]> = {};
  for (const [rs, ids] of Object.entries(rules)) {
    out[rs] = array(ids, `${ptr}/rules/${rs}`, 1000).map((id, i) => {
      if (typeof id !== 'string') throw wrongType(`${ptr}/rules/${rs}/${i}`, 'a string', id);
      return id;
    });
  }
  return { rules: out };
}

const kRuleKeys = ['id', 'action', 'action_parameters', 'expression', 'description', 'enabled', 'logging', 'ref', 'version', 'last_updated'];
const kOtherActions = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'rewrite', 'route', 'score', 'serve_error', 'set_config', 'set_cache_settings', 'compress_response', 'redirect', 'force_connection_close', 'log_custom_field', 'ddos_dynamic']);

/**
 * Checks one rule definition. `version` and `last_updated` are accepted and ignored, so a rule read
 * from the API can be sent back unchanged in a PUT.
 */
export function ruleSpec(v: unknown, ptr: string, extraKeys: readonly string[] = []): RuleSpec {
  const o = object(v, ptr);
  onlyKeys(o, [...kRuleKeys, ...extraKeys], ptr);
  const action = optString(o, 'action', ptr);
  if (action === undefined) {
    if (o['action_parameters'] !== undefined) throw new RulesetsApiError('ACTION_REQUIRED', 'action is required for action parameters', { pointer: `${ptr}/action` });
    throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: missing field "action"', { pointer: `${ptr}/action` });
  }
  if (action !== 'execute' && action !== 'skip' && action !== 'log') {
    const reason = kOtherActions.has(action)
      ? 'it is not allowed in phase http_response_firewall_managed: Sensitive Data Detection runs after the response is sent and only logs'
      : 'it is not a known action (execute, skip or log)';
    throw invalidValue('ACTION_NOT_ALLOWED', 'action', action, reason, `${ptr}/action`);
  }
  const expression = o['expression'];
  if (expression === undefined) throw invalidValue('BLANK_EXPRESSION', 'expression', '', 'the expression cannot be blank', `${ptr}/expression`);
  if (typeof expression !== 'string') throw wrongType(`${ptr}/expression`, 'a string', expression);
  checkExpression(expression, `${ptr}/expression`);
  const spec: RuleSpec = {
    action,
    expression,
    description: optString(o, 'description', ptr) ?? '',
    enabled: optBool(o, 'enabled', ptr) ?? true,
  };
  const id = optString(o, 'id', ptr);
  if (id !== undefined) {
    checkId(id, 'id', `${ptr}/id`);
    spec.id = id;
  }
  const ref = optString(o, 'ref', ptr, kMaxRef);
  if (ref !== undefined) {
    if (!/^[A-Za-z0-9_.:-]+$/.test(ref)) throw invalidValue('INVALID_VALUE', 'ref', ref, 'it may hold only letters, digits and _ . : -', `${ptr}/ref`);
    spec.ref = ref;
  }
  if (o['logging'] !== undefined) {
    const lo = object(o['logging'], `${ptr}/logging`);
    onlyKeys(lo, ['enabled'], `${ptr}/logging`);
    const enabled = optBool(lo, 'enabled', `${ptr}/logging`);
    if (enabled === undefined) throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: missing field "enabled"', { pointer: `${ptr}/logging/enabled` });
    spec.logging = { enabled };
  }
  const params = o['action_parameters'];
  if (action === 'execute') {
    if (params === undefined) throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: an execute rule needs action_parameters.id', { pointer: `${ptr}/action_parameters` });
    spec.action_parameters = executeParameters(params, `${ptr}/action_parameters`);
  } else if (action === 'skip') {
    if (params === undefined) throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: a skip rule needs action_parameters', { pointer: `${ptr}/action_parameters` });
    spec.action_parameters = skipParameters(params, `${ptr}/action_parameters`);
  } else if (params !== undefined) {
    throw invalidValue('INVALID_VALUE', 'action_parameters', params, 'a log rule takes no action parameters', `${ptr}/action_parameters`);
  }
  return spec;
}

/** `position`: exactly one of before, after, index. Range checks need the ruleset and happen later. */
export function position(v: unknown, ptr: string): Position {
  const o = object(v, ptr);
  onlyKeys(o, ['before', 'after', 'index'], ptr);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw invalidValue('POSITION_OUT_OF_RANGE', 'position', o, 'exactly one of before, after or index must be given', ptr);
  if (o['index'] !== undefined) {
    const index = o['index'];
    if (typeof index !== 'number' || !Number.isInteger(index)) throw wrongType(`${ptr}/index`, 'an integer', index);
    return { index };
  }
  if (o['before'] !== undefined) return { before: reqString(o, 'before', ptr) };
  return { after: reqString(o, 'after', ptr) };
}
