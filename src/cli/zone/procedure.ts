/**
 * The deployment procedure of the managed ruleset on a zone (spec A1 → A2/A3), made idempotent: the
 * zone's execute rules of the managed ruleset are looked for first, so running `deploy` again enables
 * the rule that is there instead of adding a second one (a second rule scans too, whatever the first
 * one says). Every step is a v4 call a script could make; nothing reads the service's files.
 */
import { LeakscanError } from '../../errors.js';
import type { ExecuteParameters, Overrides, Rule, Ruleset, RulesetSummary, SensitivityLevel } from '../../rulesets/index.js';
import { ApiRefusal, type ApiClient } from './api.js';

const kPhase = 'http_response_firewall_managed';
const kManagedName = 'Cloudflare Sensitive Data Detection';

/** An execute rule of the managed ruleset, as `status` shows it. */
export interface ExecuteRuleView {
  id: string;
  version: string;
  enabled: boolean;
  expression: string;
  description: string;
  /** Ruleset-level `sensitivity_level` of the overrides (`default` when absent). */
  sensitivity_level: SensitivityLevel;
  overrides: Overrides | null;
  /** The overrides in one line: `none`, or e.g. `ruleset off; categories: secrets on; rules: uk-nhs low`. */
  summary: string;
}

export interface ZoneState {
  zone: string;
  host: string | null;
  managedRuleset: { id: string; name: string };
  entrypoint: { id: string; version: string } | null;
  executeRules: ExecuteRuleView[];
}

export type DeployAction = 'created' | 'added' | 'enabled' | 'unchanged';
export type DisableAction = 'disabled' | 'unchanged';

export interface ZoneTarget {
  zone: string;
  host: string | null;
}

const entrypointPath = (zone: string): string => `/zones/${zone}/rulesets/phases/${kPhase}/entrypoint`;

/** Lists the zone's rulesets and finds the managed one (by kind, phase and name, as a script would). */
async function findManaged(api: ApiClient, zone: string): Promise<{ id: string; name: string }> {
  // 100 rulesets per zone at most (docs/api.md, Storage): one page of 1,000 holds them all.
  const list = (await api.call('GET', `/zones/${zone}/rulesets?per_page=1000`, 'list rulesets')) as RulesetSummary[];
  const managed = list.find((r) => r.kind === 'managed' && r.phase === kPhase && r.name === kManagedName);
  if (managed === undefined) throw new LeakscanError('SDD_ERR_API_REFUSED', `list rulesets: no managed ruleset "${kManagedName}" in phase ${kPhase}`);
  return { id: managed.id, name: managed.name };
}

/** A1: the zone's entry point, or null on 404 / 10003 (no entry point yet). */
async function getEntrypoint(api: ApiClient, zone: string): Promise<Ruleset | null> {
  const r = await api.call('GET', entrypointPath(zone), 'get the entry point (A1)', undefined, (e) => e.status === 404 && e.has(10003));
  return r instanceof ApiRefusal ? null : (r as Ruleset);
}

function executesManaged(rule: Rule, managedId: string): boolean {
  return rule.action === 'execute' && (rule.action_parameters as ExecuteParameters | undefined)?.id === managedId;
}

/** The rule A2 adds and A3 creates the entry point with: every response, the managed defaults. */
function newRule(managedId: string): Record<string, unknown> {
  return { action: 'execute', action_parameters: { id: managedId }, expression: 'true', description: 'Sensitive Data Detection' };
}

/** PATCH …/rules/{id} with `rule`'s full definition and `enabled` changed; answers the whole ruleset. */
async function setEnabled(api: ApiClient, zone: string, ruleset: string, rule: Rule, enabled: boolean): Promise<Ruleset> {
  const body: Record<string, unknown> = {
    id: rule.id,
    ref: rule.ref,
    action: rule.action,
    action_parameters: rule.action_parameters,
    expression: rule.expression,
    description: rule.description,
    enabled,
  };
  if (rule.logging !== undefined) body['logging'] = rule.logging;
  return (await api.call('PATCH', `/zones/${zone}/rulesets/${ruleset}/rules/${rule.id}`, `${enabled ? 'enable' : 'disable'} rule ${rule.id}`, body)) as Ruleset;
}

function summarize(o: Overrides | undefined): string {
  if (o === undefined) return 'none';
  const sw = (e: { enabled?: boolean; sensitivity_level?: string }): string =>
    [e.enabled === undefined ? '' : e.enabled ? 'on' : 'off', e.sensitivity_level ?? ''].filter((s) => s !== '').join(' ');
  const list = (entries: string[]): string => (entries.length <= 4 ? entries.join(', ') : `${entries.slice(0, 4).join(', ')} and ${entries.length - 4} more`);
  const parts: string[] = [];
  if (o.enabled !== undefined) parts.push(`ruleset ${o.enabled ? 'on' : 'off'}`);
  if (o.categories !== undefined && o.categories.length > 0) parts.push(`categories: ${list(o.categories.map((c) => `${c.category} ${sw(c)}`.trim()))}`);
  if (o.rules !== undefined && o.rules.length > 0) parts.push(`rules: ${list(o.rules.map((r) => `${r.id} ${sw(r)}`.trim()))}`);
  return parts.length === 0 ? 'none' : parts.join('; ');
}

function view(rule: Rule): ExecuteRuleView {
  const overrides = (rule.action_parameters as ExecuteParameters).overrides;
  return {
    id: rule.id,
    version: rule.version,
    enabled: rule.enabled,
    expression: rule.expression,
    description: rule.description,
    sensitivity_level: overrides?.sensitivity_level ?? 'default',
    overrides: overrides ?? null,
    summary: summarize(overrides),
  };
}

function stateOf(target: ZoneTarget, managed: { id: string; name: string }, ep: Ruleset | null): ZoneState {
  return {
    zone: target.zone,
    host: target.host,
    managedRuleset: managed,
    entrypoint: ep === null ? null : { id: ep.id, version: ep.version },
    executeRules: ep === null ? [] : ep.rules.filter((r) => executesManaged(r, managed.id)).map(view),
  };
}

/** The zone's entry point and its execute rules of the managed ruleset. */
export async function zoneStatus(api: ApiClient, target: ZoneTarget): Promise<ZoneState> {
  const managed = await findManaged(api, target.zone);
  return stateOf(target, managed, await getEntrypoint(api, target.zone));
}

/**
 * A1, then A3 when there is no entry point, A2 when it has no execute rule of the managed ruleset;
 * when it has some and none is enabled, the first is enabled; when one is enabled, nothing changes.
 */
export async function deployZone(api: ApiClient, target: ZoneTarget): Promise<{ action: DeployAction; rule: string; state: ZoneState }> {
  const { zone } = target;
  const managed = await findManaged(api, zone);
  const ep = await getEntrypoint(api, zone);
  let after: Ruleset;
  let action: DeployAction;
  if (ep === null) {
    const body = { name: 'default', description: 'Sensitive Data Detection', kind: 'zone', phase: kPhase, rules: [newRule(managed.id)] };
    after = (await api.call('POST', `/zones/${zone}/rulesets`, 'create the entry point (A3)', body)) as Ruleset;
    action = 'created';
  } else {
    const existing = ep.rules.filter((r) => executesManaged(r, managed.id));
    const first = existing[0];
    if (first === undefined) {
      after = (await api.call('POST', `/zones/${zone}/rulesets/${ep.id}/rules`, 'add the execute rule (A2)', newRule(managed.id))) as Ruleset;
      action = 'added';
    } else if (existing.some((r) => r.enabled)) {
      after = ep;
      action = 'unchanged';
    } else {
      after = await setEnabled(api, zone, ep.id, first, true);
      action = 'enabled';
    }
  }
  const state = stateOf(target, managed, after);
  const rules = state.executeRules;
  // The rule this run made or found running: the enabled one (A2 appends, so the last when added).
  const rule = (action === 'added' ? rules[rules.length - 1] : rules.find((r) => r.enabled))?.id ?? '';
  return { action, rule, state };
}

/** Disables every enabled execute rule of the managed ruleset on the zone, one PATCH each. */
export async function disableZone(api: ApiClient, target: ZoneTarget): Promise<{ action: DisableAction; rules: string[]; state: ZoneState }> {
  const managed = await findManaged(api, target.zone);
  let ep = await getEntrypoint(api, target.zone);
  const changed: string[] = [];
  if (ep !== null) {
    for (const rule of ep.rules.filter((r) => executesManaged(r, managed.id) && r.enabled)) {
      ep = await setEnabled(api, target.zone, ep.id, rule, false);
      changed.push(rule.id);
    }
  }
  return { action: changed.length > 0 ? 'disabled' : 'unchanged', rules: changed, state: stateOf(target, managed, ep) };
}
