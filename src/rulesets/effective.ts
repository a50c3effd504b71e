import { managedRuleset } from '../rules/index.js';
import { compileExpression, TrafficView, type CompiledExpression, type Traffic } from './expression/index.js';
import { isManagedRulesetId } from './managed.js';
import type { ZoneState } from './store.js';
import { kPhase, type ExecuteParameters, type Overrides, type Rule, type SkipParameters } from './types.js';

/** What runs for one zone on one request/response. */
export interface EffectiveRules {
  /** Managed rule ids to run, in catalogue order; empty when Sensitive Data Detection is not deployed or nothing matched. */
  ruleIds: string[];
  /** The entry point's id and version the answer comes from (`''` when the zone has none). */
  entrypoint: { id: string; version: string };
  /** Execute rules that matched and ran the managed ruleset. */
  executed: { ruleset: string; rule: string; ref: string }[];
}

/**
 * The managed rules an execute rule turns on: each rule's default, then the ruleset-level override,
 * then the last category override naming one of its tags, then its own override (rule > tag > ruleset).
 */
export function enabledByOverrides(overrides: Overrides | undefined): string[] {
  const out: string[] = [];
  for (const rule of managedRuleset.rules) {
    let on = rule.enabledByDefault;
    if (overrides?.enabled !== undefined) on = overrides.enabled;
    for (const c of overrides?.categories ?? []) {
      if (c.enabled !== undefined && rule.tags.includes(c.category)) on = c.enabled;
    }
    const own = overrides?.rules?.find((r) => r.id === rule.id);
    if (own?.enabled !== undefined) on = own.enabled;
    if (on) out.push(rule.id);
  }
  return out;
}

type Step =
  | { kind: 'skip-current' }
  | { kind: 'skip'; rulesets: string[]; rules: string[] }
  | { kind: 'execute-managed'; enabled: string[] }
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
    if (isManagedRulesetId(p.id)) return { kind: 'execute-managed', enabled: enabledByOverrides(p.overrides) };
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
      const on = new Set<string>();
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
            for (const id of s.enabled) if (!skippedRules.has(id)) on.add(id);
            executed.push({ ruleset: c.ruleset, rule: c.rule.id, ref: c.rule.ref });
          } else if (s.kind === 'execute-custom') {
            if (!skippedRulesets.has(s.id)) run(s.steps);
          }
        }
      };
      run(steps);
      return {
        ruleIds: order.filter((id) => on.has(id)),
        entrypoint: { id: entry?.id ?? '', version: entry?.version ?? '' },
        executed,
      };
    },
  };
}

/**
 * Scanner options that run exactly `ruleIds` (for `createScanner`). An empty list means nothing to
 * scan: callers should skip the scan rather than build a scanner.
 * @example
 * const { ruleIds } = await rulesets.effectiveRules(zone, traffic);
 * if (ruleIds.length > 0) findings = await (await createScanner({ ...scannerOptionsFor(ruleIds), workers: 0 })).scan(body);
 */
export function scannerOptionsFor(ruleIds: readonly string[]): { allRules: true; disable: string[] } {
  const keep = new Set(ruleIds);
  return { allRules: true, disable: managedRuleset.rules.map((r) => r.id).filter((id) => !keep.has(id)) };
}
