import { kConfidenceRank, managedRuleset, reaches, type Confidence } from '../rules/index.js';
import type { Finding } from '../types.js';
import { compileExpression, TrafficView, type CompiledExpression, type Traffic } from './expression/index.js';
import { isManagedRulesetId } from './managed.js';
import type { ZoneState } from './store.js';
import { kPhase, type ExecuteParameters, type Overrides, type Rule, type SensitivityLevel, type SkipParameters } from './types.js';

/**
 * The lowest confidence a rule reports at each `sensitivity_level`; `null` (`eoff`): it reports
 * nothing, as if disabled. `default` is the scanner's own default, so a zone that sets nothing gets
 * what `leakscan scan` and `createScanner()` report. The values name the lowest level kept (`low`:
 * down to low confidence), which reverses the sense Cloudflare gives them for DDoS rules (there
 * `default` is the most sensitive and `low` quiets a rule): docs/api.md, "Sensitivity", says why.
 */
export const kSensitivityThreshold: Readonly<Record<SensitivityLevel, Confidence | null>> = { default: 'high', medium: 'medium', low: 'low', eoff: null };

/** What runs for one zone on one request/response. */
export interface EffectiveRules {
  /** Managed rule ids to run, in catalogue order; empty when Sensitive Data Detection is not deployed or nothing matched. */
  ruleIds: string[];
  /**
   * For each rule of `ruleIds`, the lowest confidence of its findings that are kept (from
   * `sensitivity_level`; `high` unless overridden). When two execute rules run one managed rule, the
   * lower threshold wins, as their enabled sets are joined.
   */
  thresholds: Record<string, Confidence>;
  /** The entry point's id and version the answer comes from (`''` when the zone has none). */
  entrypoint: { id: string; version: string };
  /** Execute rules that matched and ran the managed ruleset. */
  executed: { ruleset: string; rule: string; ref: string }[];
}

/**
 * The managed rules an execute rule turns on, each with its threshold, in catalogue order. `enabled`
 * and `sensitivity_level` are each resolved the same way: the rule's default, then the ruleset-level
 * override, then the last category override naming one of its tags, then its own override (rule > tag
 * > ruleset). A rule whose level resolves to `eoff` is left out: it would report nothing.
 */
export function thresholdsByOverrides(overrides: Overrides | undefined): Map<string, Confidence> {
  const out = new Map<string, Confidence>();
  for (const rule of managedRuleset.rules) {
    let on = rule.enabledByDefault;
    let level: SensitivityLevel = 'default';
    if (overrides?.enabled !== undefined) on = overrides.enabled;
    if (overrides?.sensitivity_level !== undefined) level = overrides.sensitivity_level;
    for (const c of overrides?.categories ?? []) {
      if (!rule.tags.includes(c.category)) continue;
      if (c.enabled !== undefined) on = c.enabled;
      if (c.sensitivity_level !== undefined) level = c.sensitivity_level;
    }
    const own = overrides?.rules?.find((r) => r.id === rule.id);
    if (own?.enabled !== undefined) on = own.enabled;
    if (own?.sensitivity_level !== undefined) level = own.sensitivity_level;
    const threshold = kSensitivityThreshold[level];
    if (on && threshold !== null) out.set(rule.id, threshold);
  }
  return out;
}

/** The managed rule ids an execute rule turns on (`thresholdsByOverrides`' keys). */
export function enabledByOverrides(overrides: Overrides | undefined): string[] {
  return [...thresholdsByOverrides(overrides).keys()];
}

/** Whether a zone keeps `finding`: its rule runs, and its confidence is at or above the rule's threshold. */
export function keepsFinding(rules: Pick<EffectiveRules, 'thresholds'>, finding: Pick<Finding, 'ruleId' | 'confidence'>): boolean {
  const threshold = Object.hasOwn(rules.thresholds, finding.ruleId) ? rules.thresholds[finding.ruleId] : undefined;
  return threshold !== undefined && reaches(finding.confidence, threshold);
}

/** The lowest threshold of `rules` (what a scanner must report for them), `high` when there is none. */
export function lowestThreshold(rules: Pick<EffectiveRules, 'thresholds'>): Confidence {
  let lowest: Confidence = 'high';
  for (const t of Object.values(rules.thresholds)) if (kConfidenceRank[t] < kConfidenceRank[lowest]) lowest = t;
  return lowest;
}

type Step =
  | { kind: 'skip-current' }
  | { kind: 'skip'; rulesets: string[]; rules: string[] }
  | { kind: 'execute-managed'; enabled: Map<string, Confidence> }
  | { kind: 'execute-custom'; id: string; steps: CompiledRule[] }
  | { kind: 'log' };

interface CompiledRule {
  rule: Rule;
  ruleset: string;
  expr: CompiledExpression;
  step: Step;
}

const kNever: CompiledExpression = { source: 'false', fields: [], matches: () => false };

function compileRules(state: ZoneState, rulesetId: string, rules: readonly Rule[], depth: number): CompiledRule[] {
  return rules
    .filter((r) => r.enabled)
    .map((rule) => {
      let expr: CompiledExpression;
      try {
        expr = compileExpression(rule.expression);
      } catch {
        // Stored expressions were validated when written; one the current grammar refuses never matches.
        expr = kNever;
      }
      return { rule, ruleset: rulesetId, expr, step: stepOf(state, rule, depth) };
    });
}

function stepOf(state: ZoneState, rule: Rule, depth: number): Step {
  if (rule.action === 'skip') {
    const p = rule.action_parameters as SkipParameters;
    if (p.ruleset === 'current') return { kind: 'skip-current' };
    return { kind: 'skip', rulesets: p.rulesets ?? [], rules: Object.entries(p.rules ?? {}).flatMap(([rs, ids]) => (isManagedRulesetId(rs) ? ids : [])) };
  }
  if (rule.action === 'execute') {
    const p = rule.action_parameters as ExecuteParameters;
    if (isManagedRulesetId(p.id)) return { kind: 'execute-managed', enabled: thresholdsByOverrides(p.overrides) };
    const rec = state.rulesets.find((r) => r.current.id === p.id);
    const version = p.version === 'latest' ? rec?.current : rec?.versions.find((v) => v.version === p.version);
    if (version === undefined || depth > 0) return { kind: 'log' };
    return { kind: 'execute-custom', id: p.id, steps: compileRules(state, p.id, version.rules, depth + 1) };
  }
  return { kind: 'log' };
}

/** A zone's configuration compiled once (per accepted change); `evaluate` runs per request. */
export interface CompiledZone {
  evaluate(traffic: Traffic | TrafficView): EffectiveRules;
}

export function compileZone(state: ZoneState): CompiledZone {
  const entry = state.rulesets.find((r) => r.current.kind === 'zone' && r.current.phase === kPhase)?.current;
  const steps = entry === undefined ? [] : compileRules(state, entry.id, entry.rules, 0);
  const order = managedRuleset.rules.map((r) => r.id);
  return {
    evaluate(traffic) {
      const view = traffic instanceof TrafficView ? traffic : new TrafficView(traffic);
      const on = new Map<string, Confidence>();
      const skippedRulesets = new Set<string>();
      const skippedRules = new Set<string>();
      const executed: EffectiveRules['executed'] = [];
      const run = (list: readonly CompiledRule[]): void => {
        for (const c of list) {
          if (!c.expr.matches(view)) continue;
          const s = c.step;
          if (s.kind === 'skip-current') return;
          if (s.kind === 'skip') {
            for (const id of s.rulesets) skippedRulesets.add(id);
            for (const id of s.rules) skippedRules.add(id);
          } else if (s.kind === 'execute-managed') {
            if (skippedRulesets.has(managedRuleset.id)) continue;
            for (const [id, threshold] of s.enabled) {
              if (skippedRules.has(id)) continue;
              const before = on.get(id);
              if (before === undefined || kConfidenceRank[threshold] < kConfidenceRank[before]) on.set(id, threshold);
            }
            executed.push({ ruleset: c.ruleset, rule: c.rule.id, ref: c.rule.ref });
          } else if (s.kind === 'execute-custom') {
            if (!skippedRulesets.has(s.id)) run(s.steps);
          }
        }
      };
      run(steps);
      const ruleIds = order.filter((id) => on.has(id));
      const thresholds: Record<string, Confidence> = {};
      for (const id of ruleIds) thresholds[id] = on.get(id)!;
      return {
        ruleIds,
        thresholds,
        entrypoint: { id: entry?.id ?? '', version: entry?.version ?? '' },
        executed,
      };
    },
  };
}

/**
 * Scanner options that run exactly `ruleIds` (for `createScanner`), at the lowest of their
 * thresholds when given; findings of a rule below its own threshold are then dropped with
 * `keepsFinding`. An empty list means nothing to scan: callers should skip the scan rather than build
 * a scanner.
 * @example
 * const rules = await rulesets.effectiveRules(zone, traffic);
 * if (rules.ruleIds.length > 0) {
 *   const scanner = await createScanner({ ...scannerOptionsFor(rules.ruleIds, rules), workers: 0 });
 *   findings = (await scanner.scan(body)).filter((f) => keepsFinding(rules, f));
 * }
 */
export function scannerOptionsFor(ruleIds: readonly string[], rules?: Pick<EffectiveRules, 'thresholds'>): { allRules: true; disable: string[]; minConfidence?: Confidence } {
  const keep = new Set(ruleIds);
  const out: { allRules: true; disable: string[]; minConfidence?: Confidence } = { allRules: true, disable: managedRuleset.rules.map((r) => r.id).filter((id) => !keep.has(id)) };
  if (rules !== undefined) out.minConfidence = lowestThreshold({ thresholds: Object.fromEntries(Object.entries(rules.thresholds).filter(([id]) => keep.has(id))) });
  return out;
}
