/**
 * What the Sensitive Data page shows and writes, as pure functions of the zone's entry point: whether
 * the managed ruleset is deployed (an `execute` rule naming it in the `http_response_firewall_managed`
 * entry point), and the switches of its overrides (every rule, each tag, each rule), with what they
 * turn on. The page never computes which rules run by itself: `thresholdsByOverrides` (behind
 * `enabledByOverrides`) is the same function the scanner's effective configuration uses.
 */
import { allRuleDefs, kManagedRulesetId, managedRuleset, type Family } from '../rules/index.js';
import type { DetectionBatch } from './batches.js';
import type { ZoneMapping } from '../eventlog/index.js';
import type { Confidence } from '../types.js';
import { compileExpression, ExpressionError, isManagedRulesetId, thresholdsByOverrides, type CategoryOverride, type ExecuteParameters, type Overrides, type Rule, type RuleOverride, type Ruleset } from '../rulesets/index.js';

/** One switch of the page: leave the level below in charge (`default`), or force on or off. */
export type Switch = 'default' | 'on' | 'off';

export const kSwitches: readonly Switch[] = ['default', 'on', 'off'];

export function isSwitch(v: string): v is Switch {
  return v === 'default' || v === 'on' || v === 'off';
}

function switchOf(enabled: boolean | undefined): Switch {
  return enabled === undefined ? 'default' : enabled ? 'on' : 'off';
}

function enabledOf(s: Switch): boolean | undefined {
  return s === 'default' ? undefined : s === 'on';
}

export interface Deployment {
  /** The zone's entry point ruleset of the phase; undefined when the zone has none. */
  entrypoint: Ruleset | undefined;
  /** The first rule that executes the managed ruleset: the one the page edits. */
  rule: Rule | undefined;
  /** Every rule of the entry point that executes the managed ruleset, in entry point order. */
  rules: Rule[];
  /** How many rules of the entry point execute the managed ruleset. */
  executeRules: number;
}

export function isManagedExecute(rule: Rule): boolean {
  const id = (rule.action_parameters as ExecuteParameters | undefined)?.id;
  return rule.action === 'execute' && id !== undefined && isManagedRulesetId(id);
}

export function deploymentOf(entrypoint: Ruleset | undefined): Deployment {
  const rules = entrypoint?.rules.filter(isManagedExecute) ?? [];
  return { entrypoint, rule: rules[0], rules, executeRules: rules.length };
}

/** What one execute rule does, for the page's list of them: its scope, state and overrides in words. */
export interface ExecuteRuleView {
  id: string;
  description: string;
  expression: string;
  enabled: boolean;
  /** Managed rules it turns on (its overrides applied). */
  running: number;
  /** Its overrides, one phrase each (`every rule: off`, `tag pii: on`, `rule us-ssn: off`, `sensitivity medium`). */
  overrides: string[];
}

export function executeRuleView(rule: Rule): ExecuteRuleView {
  const o = overridesOf(rule);
  return { id: rule.id, description: rule.description, expression: rule.expression, enabled: rule.enabled, running: thresholdsByOverrides(o).size, overrides: overridesSummary(o) };
}

/** The overrides' switches and levels in the order the API holds them. */
export function overridesSummary(o: Overrides | undefined): string[] {
  if (o === undefined) return [];
  const words = (enabled: boolean | undefined, level: string | undefined): string =>
    [enabled === undefined ? '' : enabled ? 'on' : 'off', level === undefined ? '' : `sensitivity ${level}`].filter((w) => w !== '').join(', ');
  const out: string[] = [];
  if (o.enabled !== undefined || o.sensitivity_level !== undefined) out.push(`every rule: ${words(o.enabled, o.sensitivity_level)}`);
  for (const c of o.categories ?? []) out.push(`tag ${c.category}: ${words(c.enabled, c.sensitivity_level) || 'no switch'}`);
  for (const r of o.rules ?? []) out.push(`rule ${r.id}: ${words(r.enabled, r.sensitivity_level) || 'no switch'}`);
  return out;
}

/** Where a refused filter expression is wrong: the line, and the characters the parser points at. */
export interface ExpressionProblem {
  line: number;
  column: number;
  /** The source line, split at the characters pointed at (`at` is empty at the end of the input). */
  before: string;
  at: string;
  after: string;
  reason: string;
}

/** The parser's own error for `source` (as the API compiles it), or undefined when it compiles. */
export function expressionProblem(source: string): ExpressionProblem | undefined {
  try {
    compileExpression(source);
    return undefined;
  } catch (err) {
    if (!(err instanceof ExpressionError)) return undefined;
    const lineStart = source.lastIndexOf('\n', err.start - 1) + 1;
    const lineEndAt = source.indexOf('\n', err.start);
    const lineEnd = lineEndAt < 0 ? source.length : lineEndAt;
    const end = Math.max(err.start, Math.min(err.end, lineEnd));
    return {
      line: err.line,
      column: err.column,
      before: source.slice(lineStart, err.start),
      at: source.slice(err.start, end),
      after: source.slice(end, lineEnd),
      reason: err.reason,
    };
  }
}

export function overridesOf(rule: Rule | undefined): Overrides | undefined {
  return (rule?.action_parameters as ExecuteParameters | undefined)?.overrides;
}

export interface RuleRow {
  id: string;
  description: string;
  tags: string[];
  /** The rule's family (`pii`, `financial-information`, `secrets`: RuleDef.family). */
  family: Family;
  /** Its country tag (ISO 3166 alpha-2, lower case), or '' for a rule of no one country. */
  country: string;
  byDefault: boolean;
  /** This rule's own switch. */
  own: Switch;
  /** Whether it runs, all switches applied (a rule whose `sensitivity_level` is `eoff` does not). */
  on: boolean;
  /** The lowest confidence it reports, from `sensitivity_level` (set through the API); null when it does not run. */
  threshold: Confidence | null;
  /** The level of its best finding (a rule's own `confidence`, default high): below `threshold`, it reports nothing. */
  best: Confidence;
}

export interface TagRow {
  tag: string;
  /** Managed rules carrying the tag. */
  rules: number;
  own: Switch;
  /** Of those, how many run. */
  on: number;
}

export interface Switches {
  /** The ruleset-level switch (every rule). */
  all: Switch;
  /** Tags, the most used first (then by name). */
  tags: TagRow[];
  /** Rules in catalogue order. */
  rules: RuleRow[];
  /** Rules that run. */
  on: number;
}

/** Every switch of `overrides`, and what runs with them. */
export function switchesOf(overrides: Overrides | undefined): Switches {
  const running = thresholdsByOverrides(overrides);
  // As enabledByOverrides reads them, the first entry naming a rule decides.
  const ownRule = new Map<string, Switch>();
  for (const r of overrides?.rules ?? []) if (!ownRule.has(r.id)) ownRule.set(r.id, switchOf(r.enabled));
  // As enabledByOverrides reads them, the last entry naming a tag with a switch decides.
  const ownTag = new Map<string, Switch>();
  for (const c of overrides?.categories ?? []) if (c.enabled !== undefined) ownTag.set(c.category, switchOf(c.enabled));
  const counts = new Map<string, { rules: number; on: number }>();
  const defs = new Map(allRuleDefs.map((d) => [d.id, d]));
  const rules: RuleRow[] = managedRuleset.rules.map((r) => {
    const on = running.has(r.id);
    for (const t of r.tags) {
      const c = counts.get(t) ?? { rules: 0, on: 0 };
      c.rules += 1;
      if (on) c.on += 1;
      counts.set(t, c);
    }
    const def = defs.get(r.id);
    return {
      id: r.id, description: r.description, tags: [...r.tags], family: def?.family ?? 'secrets', country: r.tags.find(isCountryTag) ?? '',
      byDefault: r.enabledByDefault, own: ownRule.get(r.id) ?? 'default', on, threshold: running.get(r.id) ?? null, best: def?.confidence ?? 'high',
    };
  });
  const tags: TagRow[] = [...counts]
    .map(([tag, c]) => ({ tag, rules: c.rules, own: ownTag.get(tag) ?? 'default', on: c.on }))
    .sort((a, b) => b.rules - a.rules || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return { all: switchOf(overrides?.enabled), tags, rules, on: running.size };
}

// Country tags are ISO 3166 alpha-2 codes (RuleDef.tags); CLDR's region names tell them from two-letter topics (`ip`).
const kRegionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The English name of a country tag (`gb` → United Kingdom); undefined when the tag is not a country. */
export function countryName(tag: string): string | undefined {
  return /^[a-z]{2}$/.test(tag) ? kRegionNames.of(tag.toUpperCase()) : undefined;
}

function isCountryTag(tag: string): boolean {
  return countryName(tag) !== undefined;
}

const kFamilyOrder: readonly Family[] = ['pii', 'financial-information', 'secrets'];

/** Rules of one family and one country ('' : of no one country). */
export interface RuleGroup {
  family: Family;
  country: string;
  rules: RuleRow[];
}

/**
 * Rules grouped as the page lists them: by family (PII, financial information, secrets), then by
 * country, rules of no one country first, then countries by name; catalogue order inside a group.
 */
export function ruleGroups(rows: readonly RuleRow[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const r of rows) {
    const key = `${r.family}/${r.country}`;
    const g = groups.get(key) ?? { family: r.family, country: r.country, rules: [] };
    g.rules.push(r);
    groups.set(key, g);
  }
  const name = (g: RuleGroup): string => (g.country === '' ? '' : (countryName(g.country) ?? g.country));
  return [...groups.values()].sort((a, b) => kFamilyOrder.indexOf(a.family) - kFamilyOrder.indexOf(b.family) || name(a).localeCompare(name(b), 'en'));
}

/** Switches a form changed; a tag or rule the form did not carry keeps its own switch. */
export interface SwitchChanges {
  all?: Switch;
  tags: ReadonlyMap<string, Switch>;
  rules: ReadonlyMap<string, Switch>;
}

/**
 * `prev` with the changed switches. Entries keep their order (the last tag entry decides) and their
 * other fields (`action`, `sensitivity_level`: set through the API, never lost by the page); `default`
 * drops an entry's `enabled`, and an entry left with nothing but its name is removed. Undefined when
 * nothing is left to override.
 */
export function applySwitches(prev: Overrides | undefined, changes: SwitchChanges): Overrides | undefined {
  const next: Overrides = {};
  if (prev?.action !== undefined) next.action = prev.action;
  const all = changes.all === undefined ? prev?.enabled : enabledOf(changes.all);
  if (all !== undefined) next.enabled = all;
  if (prev?.sensitivity_level !== undefined) next.sensitivity_level = prev.sensitivity_level;

  const categories = mergeEntries<CategoryOverride>(prev?.categories, changes.tags, (c) => c.category, (category, enabled) => ({ category, enabled }));
  const rules = mergeEntries<RuleOverride>(prev?.rules, changes.rules, (r) => r.id, (id, enabled) => ({ id, enabled }));
  if (categories.length > 0) next.categories = categories;
  if (rules.length > 0) next.rules = rules;
  return Object.keys(next).length === 0 ? undefined : next;
}

/** Entries with their switches changed in place, then new entries for switches set on names they lacked. */
type Entry = Pick<RuleOverride, 'enabled' | 'action' | 'sensitivity_level'>;

function mergeEntries<T extends Entry>(
  prev: readonly T[] | undefined,
  changes: ReadonlyMap<string, Switch>,
  nameOf: (entry: T) => string,
  make: (name: string, enabled: boolean) => T,
): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const e of prev ?? []) {
    const s = changes.get(nameOf(e));
    if (s !== undefined) seen.add(nameOf(e));
    pushEntry(out, { ...e }, s);
  }
  for (const [name, s] of changes) if (!seen.has(name) && s !== 'default') out.push(make(name, s === 'on'));
  return out;
}

function pushEntry<T extends Entry>(out: T[], entry: T, s: Switch | undefined): void {
  if (s !== undefined) {
    const enabled = enabledOf(s);
    if (enabled === undefined) delete entry.enabled;
    else entry.enabled = enabled;
  }
  if (entry.enabled === undefined && entry.action === undefined && entry.sensitivity_level === undefined) return;
  out.push(entry);
}

/** What a new deployment's rule is: every response, the managed ruleset's defaults. */
export function newExecuteRule(): Record<string, unknown> {
  return {
    action: 'execute',
    action_parameters: { id: kManagedRulesetId, version: 'latest' },
    expression: 'true',
    description: 'Sensitive Data Detection',
    enabled: true,
  };
}

/**
 * `rule` as a PATCH body (the API takes a rule's definition in full) with `change` applied; its id and
 * ref stay, so the rule keeps its identity and version history.
 */
export function ruleBody(rule: Rule, change: { expression?: string; enabled?: boolean; overrides?: Overrides | undefined | null }): Record<string, unknown> {
  const params = { ...(rule.action_parameters as ExecuteParameters) };
  if (change.overrides !== undefined) {
    if (change.overrides === null) delete params.overrides;
    else params.overrides = change.overrides;
  }
  const body: Record<string, unknown> = {
    id: rule.id,
    ref: rule.ref,
    action: rule.action,
    action_parameters: params,
    expression: change.expression ?? rule.expression,
    description: rule.description,
    enabled: change.enabled ?? rule.enabled,
  };
  if (rule.logging !== undefined) body['logging'] = rule.logging;
  return body;
}

/** Where the detections page reads from (`leakscan serve` gives its events bucket and audit log). */
export interface DetectionSource {
  /** The zone's batch numbers, ascending. */
  batches(zone: string): Promise<number[]>;
  read(zone: string, batch: number): Promise<DetectionBatch>;
  /** Host names seen in the zone's stored events (its newest batch), when the source keeps them. */
  hosts?(zone: string): Promise<string[]>;
}

/** A host name the dashboard knows for a zone, and where it knows it from. */
export interface ZoneHost {
  name: string;
  /** `mapped`: a `--zone HOST=ID` mapping (HOST may be `*.suffix`); `default`: the `--zone ID` every other host goes to; `seen`: in the zone's stored events. */
  source: 'mapped' | 'default' | 'seen';
}

/** The hosts `mapping` sends to `zone`, in the mapping's order. */
export function mappedHosts(mapping: ZoneMapping | undefined, zone: string): ZoneHost[] {
  const out: ZoneHost[] = [];
  for (const [host, id] of Object.entries(mapping?.hosts ?? {})) if (id === zone) out.push({ name: host, source: 'mapped' });
  if (mapping?.defaultZone === zone) out.push({ name: 'every other host', source: 'default' });
  return out;
}
