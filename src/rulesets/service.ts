import { randomBytes } from 'node:crypto';
import { managedRuleset } from '../rules/index.js';
import { invalidValue, RulesetsApiError } from './errors.js';
import { isManagedRulesetId, managedRulesetView, managedSummary, kManagedRuleIds } from './managed.js';
import type { RulesetRecord, ZoneState, ZoneStore } from './store.js';
import { kPhase, type ExecuteParameters, type ManagedRulesetView, type Position, type Rule, type Ruleset, type RulesetSummary, type SkipParameters } from './types.js';
import { kIdPattern, object, onlyKeys, optArray, optString, position, reqString, ruleSpec, type RuleSpec } from './validate.js';
import { compileZone, type CompiledZone, type EffectiveRules } from './effective.js';
import type { Traffic } from './expression/index.js';

/** Limits that keep one zone's state (and so each write) bounded. */
export const kLimits = { rulesPerRuleset: 1000, rulesetsPerZone: 100, versionsPerRuleset: 1000 } as const;

export interface WriteOptions {
  /** Validate and compute the result, change nothing (`?dry_run=true`). */
  dryRun?: boolean;
}

const newId = (): string => randomBytes(16).toString('hex');
/** ISO 8601 with microseconds, as Cloudflare writes `last_updated`. */
const now = (): string => new Date().toISOString().replace(/Z$/, '000Z');

function summary(r: Ruleset): RulesetSummary {
  const { rules: _rules, ...rest } = r;
  return rest;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function sameDefinition(a: Rule, b: Rule): boolean {
  const def = (r: Rule) => JSON.stringify([r.action, r.action_parameters ?? null, r.expression, r.description, r.enabled, r.logging ?? null, r.ref]);
  return def(a) === def(b);
}

/**
 * The Rulesets API's domain: rulesets per zone (the `http_response_firewall_managed` entry point and
 * custom rulesets), their rules and versions, validated and persisted through a `ZoneStore`.
 * Writes to one zone are serialized; each one is validated in full on a copy and stored before it
 * becomes visible, so a refused or failed write changes nothing. Reads and `effectiveRules` see the
 * latest accepted state at once.
 * @example
 * const service = new RulesetService(new FileZoneStore('.leakscan/rulesets'));
 * await service.createRuleset(zone, { name: 'default', kind: 'zone', phase: 'http_response_firewall_managed',
 *   rules: [{ action: 'execute', action_parameters: { id: kManagedRulesetId }, expression: 'true' }] });
 * const { ruleIds } = await service.effectiveRules(zone, { request: { url: 'https://example.com/' } });
 */
export class RulesetService {
  readonly #store: ZoneStore;
  readonly #cache = new Map<string, ZoneState>();
  readonly #compiled = new WeakMap<ZoneState, CompiledZone>();
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(store: ZoneStore) {
    this.#store = store;
  }

  async #state(zone: string): Promise<ZoneState> {
    checkZone(zone);
    let s = this.#cache.get(zone);
    if (s === undefined) {
      s = (await this.#store.read(zone)) ?? { format: 1, zone, rulesets: [] };
      this.#cache.set(zone, s);
    }
    return s;
  }

  /** Runs `change` on a copy of the zone's state; stores and publishes the copy unless dry-running. */
  async #mutate<T>(zone: string, opts: WriteOptions | undefined, change: (draft: ZoneState) => T): Promise<T> {
    checkZone(zone);
    const prev = this.#queues.get(zone) ?? Promise.resolve();
    const run = prev.then(async () => {
      const draft = clone(await this.#state(zone));
      const result = change(draft);
      if (opts?.dryRun !== true) {
        await this.#store.write(zone, draft);
        this.#cache.set(zone, draft);
      }
      return result;
    });
    const settled = run.catch(() => undefined);
    this.#queues.set(zone, settled);
    void settled.then(() => {
      if (this.#queues.get(zone) === settled) this.#queues.delete(zone);
    });
    return run;
  }

  // ---- reads ----

  /** Zones that have a stored configuration (the dashboard's zone list); a zone only read is not one. */
  async zones(): Promise<string[]> {
    return (await this.#store.zones()).sort();
  }

  /** Zone rulesets plus the managed ruleset the zone may deploy (as Cloudflare's zone list shows it). */
  async listRulesets(zone: string): Promise<RulesetSummary[]> {
    const s = await this.#state(zone);
    return [...s.rulesets.map((r) => summary(r.current)), managedSummary()];
  }

  async getRuleset(zone: string, id: string): Promise<Ruleset | ManagedRulesetView> {
    const s = await this.#state(zone);
    if (isManagedRulesetId(id)) return managedRulesetView();
    return clone(findRecord(s, id).current);
  }

  async getEntrypoint(zone: string, phase: string): Promise<Ruleset> {
    const s = await this.#state(zone);
    const rec = entrypoint(s, phase);
    if (rec === undefined) throw entrypointMissing(phase);
    return { ...clone(rec.current), source: 'firewall_managed' };
  }

  async listVersions(zone: string, id: string): Promise<RulesetSummary[]> {
    const s = await this.#state(zone);
    if (isManagedRulesetId(id)) return [managedSummary()];
    return findRecord(s, id).versions.map(summary);
  }

  async getVersion(zone: string, id: string, version: string): Promise<Ruleset | ManagedRulesetView> {
    const s = await this.#state(zone);
    if (isManagedRulesetId(id)) {
      if (version !== managedRuleset.version) throw versionMissing(id, version);
      return managedRulesetView();
    }
    const v = findRecord(s, id).versions.find((r) => r.version === version);
    if (v === undefined) throw versionMissing(id, version);
    return clone(v);
  }

  /** The managed ruleset's rules carrying `tag` (Cloudflare's `…/versions/{n}/by_tag/{tag}`). */
  managedByTag(id: string, version: string, tag: string | undefined): ManagedRulesetView {
    if (!isManagedRulesetId(id)) throw new RulesetsApiError('RULESET_NOT_FOUND', `could not find managed ruleset ${id}`);
    if (version !== managedRuleset.version) throw versionMissing(id, version);
    return managedRulesetView(tag);
  }

  /** Versions of the phase entry point; none (not a 404) when it does not exist, as Cloudflare answers. */
  async entrypointVersions(zone: string, phase: string): Promise<RulesetSummary[]> {
    const s = await this.#state(zone);
    return entrypoint(s, phase)?.versions.map(summary) ?? [];
  }

  async entrypointVersion(zone: string, phase: string, version: string): Promise<Ruleset> {
    const s = await this.#state(zone);
    const rec = entrypoint(s, phase);
    if (rec === undefined) throw entrypointMissing(phase);
    const v = rec.versions.find((r) => r.version === version);
    if (v === undefined) throw versionMissing(rec.current.id, version);
    return clone(v);
  }

  // ---- writes ----

  async createRuleset(zone: string, body: unknown, opts?: WriteOptions): Promise<Ruleset> {
    const o = object(body, '');
    onlyKeys(o, ['name', 'description', 'kind', 'phase', 'rules'], '');
    const name = reqString(o, 'name', '');
    if (name.trim() === '') throw invalidValue('INVALID_VALUE', 'name', name, 'the name cannot be blank', '/name');
    const description = optString(o, 'description', '') ?? '';
    const kind = reqString(o, 'kind', '');
    if (kind !== 'zone' && kind !== 'custom') {
      const reason = kind === 'managed' || kind === 'root' ? `${kind} rulesets cannot be created in a zone` : 'it is not one of zone, custom';
      throw invalidValue('INVALID_VALUE', 'kind', kind, reason, '/kind');
    }
    const phase = checkPhase(reqString(o, 'phase', ''), '/phase');
    const specs = rulesOf(o);
    return this.#mutate(zone, opts, (draft) => {
      if (kind === 'zone' && entrypoint(draft, phase) !== undefined) {
        throw invalidValue('SECOND_ENTRYPOINT', 'kind', 'zone', `exceeded maximum number of zone rulesets for phase ${phase}`, '/kind');
      }
      if (draft.rulesets.length >= kLimits.rulesetsPerZone) throw new RulesetsApiError('LIMIT_EXCEEDED', `a zone holds at most ${kLimits.rulesetsPerZone} rulesets`);
      return addRuleset(draft, { name, description, kind, phase }, specs ?? []);
    });
  }

  /** PUT: replaces the rules (and description); creates the entry point when `phase` names one that does not exist. */
  async updateRuleset(zone: string, id: string, body: unknown, opts?: WriteOptions): Promise<Ruleset> {
    if (isManagedRulesetId(id)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    const o = object(body, '');
    onlyKeys(o, ['name', 'description', 'kind', 'phase', 'rules'], '');
    const description = optString(o, 'description', '');
    const specs = rulesOf(o);
    return this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, id);
      for (const key of ['name', 'kind', 'phase'] as const) {
        const v = optString(o, key, '');
        if (v !== undefined && v !== rec.current[key]) throw invalidValue('IMMUTABLE', key, v, `the ${key} of a ruleset cannot be changed`, `/${key}`);
      }
      return replaceRules(draft, rec, specs ?? [], description);
    });
  }

  async updateEntrypoint(zone: string, phase: string, body: unknown, opts?: WriteOptions): Promise<Ruleset> {
    checkPhase(phase, undefined);
    const o = object(body, '');
    // As on Cloudflare, name, kind and phase are not fields of this call (E9: `unknown field "kind"`).
    onlyKeys(o, ['description', 'rules', 'name'], '');
    const description = optString(o, 'description', '');
    const name = optString(o, 'name', '');
    const specs = rulesOf(o);
    const result = await this.#mutate(zone, opts, (draft) => {
      let rec = entrypoint(draft, phase);
      if (rec === undefined) return addRuleset(draft, { name: name ?? 'default', description: description ?? '', kind: 'zone', phase }, specs ?? []);
      if (name !== undefined && name !== rec.current.name) throw invalidValue('IMMUTABLE', 'name', name, 'the name of a ruleset cannot be changed', '/name');
      return replaceRules(draft, rec, specs ?? [], description);
    });
    return { ...result, source: 'firewall_managed' };
  }

  async deleteRuleset(zone: string, id: string, opts?: WriteOptions): Promise<void> {
    if (isManagedRulesetId(id)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    await this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, id);
      const user = referencingRule(draft, id);
      if (user !== undefined) {
        throw new RulesetsApiError('RULESET_IN_USE', `could not delete ruleset ${id}: rule ${user.rule} of ruleset ${user.ruleset} executes or skips it`);
      }
      draft.rulesets.splice(draft.rulesets.indexOf(rec), 1);
    });
  }

  /** POST …/rules: adds one rule (appended unless `position` says otherwise); returns the whole ruleset. */
  async addRule(zone: string, rulesetId: string, body: unknown, opts?: WriteOptions): Promise<Ruleset> {
    if (isManagedRulesetId(rulesetId)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    const spec = ruleSpec(body, '', ['position']);
    const pos = (body as Record<string, unknown>)['position'];
    const where = pos === undefined ? undefined : position(pos, '/position');
    return this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, rulesetId);
      const rs = rec.current;
      if (rs.rules.length >= kLimits.rulesPerRuleset) throw new RulesetsApiError('LIMIT_EXCEEDED', `a ruleset holds at most ${kLimits.rulesPerRuleset} rules`);
      const t = now();
      const [rule] = buildRules(draft, rs, [spec], rs.rules, t, '');
      const at = where === undefined ? rs.rules.length : insertionIndex(rs.rules, where, undefined);
      rs.rules.splice(at, 0, rule!);
      return commit(rec, t);
    });
  }

  /**
   * PATCH …/rules/{id}: a body holding only `position` moves the rule (its version stays); any other
   * body is the rule's new definition, in full, as on Cloudflare.
   */
  async editRule(zone: string, rulesetId: string, ruleId: string, body: unknown, opts?: WriteOptions): Promise<Ruleset> {
    if (isManagedRulesetId(rulesetId)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    const o = object(body, '');
    const moveOnly = Object.keys(o).every((k) => k === 'position');
    if (Object.keys(o).length === 0) throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: the body must define the rule or give its position');
    const spec = moveOnly ? undefined : ruleSpec(o, '', ['position']);
    const where = o['position'] === undefined ? undefined : position(o['position'], '/position');
    return this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, rulesetId);
      const rs = rec.current;
      const index = rs.rules.findIndex((r) => r.id === ruleId);
      if (index < 0) throw new RulesetsApiError('RULE_NOT_FOUND', `could not find rule ${ruleId} in ruleset ${rulesetId}`);
      const t = now();
      let rule = rs.rules[index]!;
      if (spec !== undefined) {
        if (spec.id !== undefined && spec.id !== ruleId) throw invalidValue('IMMUTABLE', 'id', spec.id, 'the id of a rule cannot be changed', '/id');
        const others = rs.rules.filter((r) => r.id !== ruleId);
        const [next] = buildRules(draft, rs, [{ ...spec, id: ruleId, ref: spec.ref ?? rule.ref }], others, t, '');
        if (!sameDefinition(rule, next!)) rule = { ...next!, version: String(Number(rule.version) + 1) };
      }
      rs.rules.splice(index, 1);
      const at = where === undefined ? index : insertionIndex(rs.rules, where, ruleId);
      rs.rules.splice(at, 0, rule);
      return commit(rec, t);
    });
  }

  async deleteRule(zone: string, rulesetId: string, ruleId: string, opts?: WriteOptions): Promise<Ruleset> {
    if (isManagedRulesetId(rulesetId)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    return this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, rulesetId);
      const index = rec.current.rules.findIndex((r) => r.id === ruleId);
      if (index < 0) throw new RulesetsApiError('RULE_NOT_FOUND', `could not find rule ${ruleId} in ruleset ${rulesetId}`);
      rec.current.rules.splice(index, 1);
      return commit(rec, now());
    });
  }

  /** Deletes one old version (never the current one); its number is not reused. */
  async deleteVersion(zone: string, id: string, version: string, opts?: WriteOptions): Promise<void> {
    if (isManagedRulesetId(id)) throw new RulesetsApiError('MANAGED_READ_ONLY');
    await this.#mutate(zone, opts, (draft) => {
      const rec = findRecord(draft, id);
      const index = rec.versions.findIndex((r) => r.version === version);
      if (index < 0) throw versionMissing(id, version);
      if (version === rec.current.version) throw new RulesetsApiError('LATEST_VERSION', `version ${version} is the current version of ruleset ${id}; it cannot be deleted`);
      rec.versions.splice(index, 1);
    });
  }

  // ---- effective configuration ----

  /**
   * Which managed rules run for this zone on this request/response: the entry point's rules in
   * order (expressions, skips, execute overrides). A change is visible to the next call.
   */
  async effectiveRules(zone: string, traffic: Traffic): Promise<EffectiveRules> {
    const s = await this.#state(zone);
    let compiled = this.#compiled.get(s);
    if (compiled === undefined) {
      compiled = compileZone(s);
      this.#compiled.set(s, compiled);
    }
    return compiled.evaluate(traffic);
  }
}

// ---- helpers (pure, on a draft) ----

function checkZone(zone: string): void {
  if (!kIdPattern.test(zone)) throw invalidValue('INVALID_VALUE', 'zone_id', zone, 'it is not a 32-character hexadecimal zone identifier');
}

function checkPhase(phase: string, pointer: string | undefined): string {
  if (phase !== kPhase) {
    throw invalidValue('UNSUPPORTED_PHASE', 'phase', phase, `leakscan serves only the ${kPhase} phase (Sensitive Data Detection)`, pointer);
  }
  return phase;
}

function entrypointMissing(phase: string): RulesetsApiError {
  return new RulesetsApiError('ENTRYPOINT_NOT_FOUND', `could not find entrypoint ruleset in the ${phase} phase`);
}

function versionMissing(id: string, version: string): RulesetsApiError {
  return new RulesetsApiError('VERSION_NOT_FOUND', `could not find version ${version} of ruleset ${id}`);
}

function entrypoint(s: ZoneState, phase: string): RulesetRecord | undefined {
  return s.rulesets.find((r) => r.current.kind === 'zone' && r.current.phase === phase);
}

function findRecord(s: ZoneState, id: string): RulesetRecord {
  const rec = s.rulesets.find((r) => r.current.id === id);
  if (rec === undefined) throw new RulesetsApiError('RULESET_NOT_FOUND', `could not find ruleset ${id}`);
  return rec;
}

function rulesOf(o: Record<string, unknown>): RuleSpec[] | undefined {
  const rules = optArray(o, 'rules', '', kLimits.rulesPerRuleset);
  return rules?.map((r, i) => ruleSpec(r, `/rules/${i}`));
}

/** The first rule (ruleset id, rule id) that executes or skips `target`, if any. */
function referencingRule(s: ZoneState, target: string): { ruleset: string; rule: string } | undefined {
  for (const rec of s.rulesets) {
    for (const rule of rec.current.rules) {
      const p = rule.action_parameters;
      if (p === undefined) continue;
      const uses =
        (rule.action === 'execute' && (p as ExecuteParameters).id === target) ||
        (rule.action === 'skip' && ((p as SkipParameters).rulesets?.includes(target) === true || (p as SkipParameters).rules?.[target] !== undefined));
      if (uses) return { ruleset: rec.current.id, rule: rule.id };
    }
  }
  return undefined;
}

/** Checks what a rule refers to: the ruleset it executes or skips, and the managed version. */
function checkReferences(s: ZoneState, owner: Ruleset, spec: RuleSpec, ptr: string): void {
  const p = spec.action_parameters;
  if (spec.action === 'execute') {
    const ex = p as ExecuteParameters;
    if (isManagedRulesetId(ex.id)) {
      if (ex.version !== 'latest' && ex.version !== managedRuleset.version) {
        throw invalidValue('INVALID_VALUE', 'version', ex.version, `the managed ruleset has versions latest and ${managedRuleset.version}`, `${ptr}/action_parameters/version`);
      }
      return;
    }
    const target = s.rulesets.find((r) => r.current.id === ex.id);
    // One level only: the entry point may execute a custom ruleset, which may execute the managed one.
    if (target === undefined || target.current.kind !== 'custom' || owner.kind !== 'zone' || target.current.phase !== owner.phase) {
      throw invalidValue('UNKNOWN_MANAGED_RULESET', 'id', ex.id, `no managed ruleset with this id exists (Sensitive Data Detection is ${managedRuleset.id})`, `${ptr}/action_parameters/id`);
    }
    if (ex.overrides !== undefined) throw invalidValue('INVALID_VALUE', 'overrides', ex.overrides, 'only a managed ruleset can be overridden', `${ptr}/action_parameters/overrides`);
    if (ex.version !== 'latest' && !target.versions.some((v) => v.version === ex.version)) {
      throw invalidValue('INVALID_VALUE', 'version', ex.version, `ruleset ${ex.id} has no such version`, `${ptr}/action_parameters/version`);
    }
    return;
  }
  if (spec.action === 'skip') {
    const sk = p as SkipParameters;
    for (const id of sk.rulesets ?? []) {
      if (!isManagedRulesetId(id) && !s.rulesets.some((r) => r.current.id === id && r.current.kind === 'custom')) {
        throw invalidValue('UNKNOWN_MANAGED_RULESET', 'rulesets', id, 'no ruleset with this id can be skipped', `${ptr}/action_parameters/rulesets`);
      }
    }
    for (const [rs, ids] of Object.entries(sk.rules ?? {})) {
      if (!isManagedRulesetId(rs)) throw invalidValue('UNKNOWN_MANAGED_RULESET', 'rules', rs, 'rules can be skipped only in the managed ruleset', `${ptr}/action_parameters/rules`);
      for (const id of ids) {
        if (!kManagedRuleIds.has(id)) throw invalidValue('UNKNOWN_MANAGED_RULE', 'rules', id, 'it is not a rule of the managed ruleset', `${ptr}/action_parameters/rules/${rs}`);
      }
    }
  }
}

/** Turns specs into stored rules: ids (given or new), refs (default: the id), uniqueness. */
function buildRules(s: ZoneState, owner: Ruleset, specs: readonly RuleSpec[], existing: readonly Rule[], t: string, ptrBase = '/rules'): Rule[] {
  const ids = new Set(existing.map((r) => r.id));
  const refs = new Set(existing.map((r) => r.ref));
  return specs.map((spec, i) => {
    const ptr = ptrBase === '' ? '' : `${ptrBase}/${i}`;
    checkReferences(s, owner, spec, ptr);
    const id = spec.id ?? newId();
    if (ids.has(id)) throw invalidValue('DUPLICATE', 'id', id, 'another rule of the ruleset has this id', `${ptr}/id`);
    ids.add(id);
    const ref = spec.ref ?? id;
    if (refs.has(ref)) throw invalidValue('DUPLICATE', 'ref', ref, 'another rule of the ruleset has this ref', `${ptr}/ref`);
    refs.add(ref);
    const rule: Rule = { id, version: '1', action: spec.action, expression: spec.expression, description: spec.description, last_updated: t, ref, enabled: spec.enabled };
    if (spec.action_parameters !== undefined) rule.action_parameters = spec.action_parameters;
    if (spec.logging !== undefined) rule.logging = spec.logging;
    return rule;
  });
}

/** PUT semantics: rules that keep their id keep their version when unchanged, and are bumped otherwise. */
function replaceRules(s: ZoneState, rec: RulesetRecord, specs: readonly RuleSpec[], description: string | undefined): Ruleset {
  const t = now();
  const old = new Map(rec.current.rules.map((r) => [r.id, r]));
  const keptRefs = specs.map((sp) => (sp.ref === undefined && sp.id !== undefined ? { ...sp, ref: old.get(sp.id)?.ref ?? sp.id } : sp));
  const built = buildRules(s, rec.current, keptRefs, [], t);
  rec.current.rules = built.map((r) => {
    const prev = old.get(r.id);
    if (prev === undefined) return r;
    return sameDefinition(prev, r) ? prev : { ...r, version: String(Number(prev.version) + 1) };
  });
  if (description !== undefined) rec.current.description = description;
  return commit(rec, t);
}

/** A new ruleset at version 1 with `specs` as its rules, added to the draft. */
function addRuleset(s: ZoneState, fields: Pick<Ruleset, 'name' | 'description' | 'kind' | 'phase'>, specs: readonly RuleSpec[]): Ruleset {
  const t = now();
  const ruleset: Ruleset = { id: newId(), name: fields.name, description: fields.description, kind: fields.kind, version: '1', last_updated: t, phase: fields.phase, rules: [] };
  ruleset.rules = buildRules(s, ruleset, specs, [], t);
  s.rulesets.push({ current: ruleset, versions: [clone(ruleset)], lastVersion: 1 });
  return clone(ruleset);
}

/** Gives the ruleset its next version and keeps a copy of it. */
function commit(rec: RulesetRecord, t: string): Ruleset {
  if (rec.versions.length >= kLimits.versionsPerRuleset) {
    throw new RulesetsApiError('LIMIT_EXCEEDED', `ruleset ${rec.current.id} keeps ${kLimits.versionsPerRuleset} versions; delete old ones first`);
  }
  rec.lastVersion += 1;
  rec.current.version = String(rec.lastVersion);
  rec.current.last_updated = t;
  rec.versions.push(clone(rec.current));
  return clone(rec.current);
}

/** Where a rule goes among `rules` (which no longer hold it): 0-based, or a 400 when out of range. */
function insertionIndex(rules: readonly Rule[], where: Position, self: string | undefined): number {
  if ('index' in where) {
    // 1-based, and one past the end appends.
    const maxIndex = rules.length + 1;
    if (where.index < 1 || where.index > maxIndex) {
      throw invalidValue('POSITION_OUT_OF_RANGE', 'position.index', String(where.index), `it must be between 1 and ${maxIndex}`, '/position/index');
    }
    return where.index - 1;
  }
  const key = 'before' in where ? 'before' : 'after';
  const target = 'before' in where ? where.before : where.after;
  if (target === '') return key === 'before' ? 0 : rules.length;
  if (target === self) throw invalidValue('POSITION_OUT_OF_RANGE', `position.${key}`, target, 'a rule cannot be placed relative to itself', `/position/${key}`);
  const at = rules.findIndex((r) => r.id === target);
  if (at < 0) throw invalidValue('POSITION_OUT_OF_RANGE', `position.${key}`, target, 'no rule of the ruleset has this id', `/position/${key}`);
  return key === 'before' ? at : at + 1;
}


