import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { managedRuleset } from '../../src/rules/index.js';
import {
  enabledByOverrides,
  keepsFinding,
  kSensitivityThreshold,
  scannerOptionsFor,
  thresholdsByOverrides,
  FileZoneStore,
  kApiErrors,
  MemoryZoneStore,
  RulesetService,
  RulesetsApiError,
  type Ruleset,
  type ZoneState,
  type ZoneStore,
} from '../../src/rulesets/index.js';

const Z = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const M = managedRuleset.id;
const P = 'http_response_firewall_managed';
const defaults = managedRuleset.rules.filter((r) => r.enabledByDefault).map((r) => r.id);
const withTag = (tag: string) => managedRuleset.rules.filter((r) => r.tags.includes(tag)).map((r) => r.id);
const req = (url = 'https://example.com/') => ({ request: { url } });

async function code(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RulesetsApiError);
    return (err as RulesetsApiError).code;
  }
  throw new Error('expected a refusal');
}

function execute(overrides?: object, expression = 'true') {
  return { action: 'execute', action_parameters: { id: M, ...(overrides === undefined ? {} : { overrides }) }, expression };
}

async function deploy(s: RulesetService, rules: object[]): Promise<Ruleset> {
  return s.updateEntrypoint(Z, P, { rules });
}

describe('overrides: rule > tag > ruleset, last matching tag wins', () => {
  it('defaults with no overrides', () => {
    expect(enabledByOverrides(undefined)).toEqual(defaults);
  });
  it('ruleset-level enabled turns every rule off or on, default-off ones included', () => {
    expect(enabledByOverrides({ enabled: false })).toEqual([]);
    expect(enabledByOverrides({ enabled: true })).toEqual(managedRuleset.rules.map((r) => r.id));
  });
  it('a tag beats the ruleset level, a rule beats its tag', () => {
    const on = enabledByOverrides({ enabled: false, categories: [{ category: 'secrets', enabled: true }], rules: [{ id: 'aws-access-key-id', enabled: false }] });
    expect(on).toEqual(withTag('secrets').filter((id) => id !== 'aws-access-key-id'));
  });
  it('when a rule has several overridden tags, the last listed one applies', () => {
    const a = enabledByOverrides({ categories: [{ category: 'pii', enabled: false }, { category: 'us', enabled: true }] });
    expect(a).toContain('us-ssn'); // pii then us: us wins
    const b = enabledByOverrides({ categories: [{ category: 'us', enabled: true }, { category: 'pii', enabled: false }] });
    expect(b).not.toContain('us-ssn');
    expect(b).toContain('card-visa');
  });
});

describe('sensitivity_level: a threshold per rule, rule > tag > ruleset', () => {
  const levels = (o: Parameters<typeof thresholdsByOverrides>[0]) => Object.fromEntries(thresholdsByOverrides(o));
  it('maps default to high, medium to medium, low to low, and eoff to off', () => {
    expect(kSensitivityThreshold).toEqual({ default: 'high', medium: 'medium', low: 'low', eoff: null });
    expect(levels(undefined)).toEqual(Object.fromEntries(defaults.map((id) => [id, 'high'])));
    expect(levels({ sensitivity_level: 'low' })).toEqual(Object.fromEntries(defaults.map((id) => [id, 'low'])));
    expect(levels({ sensitivity_level: 'eoff' })).toEqual({});
    expect(enabledByOverrides({ sensitivity_level: 'eoff', rules: [{ id: 'us-ssn', sensitivity_level: 'default' }] })).toEqual(['us-ssn']);
  });
  it('a tag beats the ruleset level, a rule beats its tag, the last tag wins, and enabled is resolved apart', () => {
    const t = levels({
      sensitivity_level: 'medium',
      categories: [{ category: 'pii', sensitivity_level: 'low' }, { category: 'gb', sensitivity_level: 'default' }],
      rules: [{ id: 'uk-nhs', sensitivity_level: 'low' }, { id: 'us-ssn', enabled: false }, { id: 'card-visa', sensitivity_level: 'eoff' }],
    });
    expect(t['uk-nhs']).toBe('low'); // rule over its tags
    expect(t['uk-nino']).toBe('high'); // pii then gb: gb wins
    expect(t['us-itin']).toBe('low'); // a pii rule outside gb
    expect(t['aws-access-key-id']).toBe('medium'); // the ruleset level
    expect('us-ssn' in t).toBe(false);
    expect('card-visa' in t).toBe(false);
  });
  it('keeps a finding at or above its rule\'s threshold, and only of the rules that run', () => {
    const rules = { thresholds: { 'uk-nhs': 'medium' as const, 'us-ssn': 'high' as const } };
    expect(keepsFinding(rules, { ruleId: 'uk-nhs', confidence: 'high' })).toBe(true);
    expect(keepsFinding(rules, { ruleId: 'uk-nhs', confidence: 'medium' })).toBe(true);
    expect(keepsFinding(rules, { ruleId: 'uk-nhs', confidence: 'low' })).toBe(false);
    expect(keepsFinding(rules, { ruleId: 'us-ssn', confidence: 'medium' })).toBe(false);
    expect(keepsFinding(rules, { ruleId: 'card-visa', confidence: 'high' })).toBe(false);
    expect(keepsFinding(rules, { ruleId: 'toString', confidence: 'high' })).toBe(false);
    expect(scannerOptionsFor(['uk-nhs', 'us-ssn'], rules).minConfidence).toBe('medium');
    expect(scannerOptionsFor(['us-ssn'], rules).minConfidence).toBe('high');
    expect('minConfidence' in scannerOptionsFor(['us-ssn'])).toBe(false);
  });
});

describe('RulesetService', () => {
  let s: RulesetService;
  beforeEach(() => {
    s = new RulesetService(new MemoryZoneStore());
  });

  it('runs nothing until the managed ruleset is deployed, then the defaults', async () => {
    expect((await s.effectiveRules(Z, req())).ruleIds).toEqual([]);
    await deploy(s, [execute()]);
    expect((await s.effectiveRules(Z, req())).ruleIds).toEqual(defaults);
  });

  it('skips: skip current stops the entry point, skip rules removes managed rules from later executes', async () => {
    await deploy(s, [
      { action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'starts_with(http.request.uri.path, "/health")' },
      { action: 'skip', action_parameters: { rules: { [M]: ['us-ssn'] } }, expression: 'http.host eq "internal.example"' },
      execute(),
    ]);
    expect((await s.effectiveRules(Z, req('https://example.com/health'))).ruleIds).toEqual([]);
    expect((await s.effectiveRules(Z, req('https://internal.example/'))).ruleIds).toEqual(defaults.filter((id) => id !== 'us-ssn'));
    expect((await s.effectiveRules(Z, req())).ruleIds).toEqual(defaults);
  });

  it('disabled rules and non-matching expressions do not run; several executes add up', async () => {
    await deploy(s, [
      { ...execute({ enabled: false, rules: [{ id: 'email-address', enabled: true }] }, 'http.request.uri.path eq "/contact"') },
      { ...execute({ enabled: true }), enabled: false },
      execute({ enabled: false, rules: [{ id: 'card-visa', enabled: true }] }),
    ]);
    expect((await s.effectiveRules(Z, req('https://example.com/contact'))).ruleIds).toEqual(['email-address', 'card-visa']);
    expect((await s.effectiveRules(Z, req('https://example.com/'))).ruleIds).toEqual(['card-visa']);
  });

  it('carries each running rule\'s threshold; of two executes running one rule, the lower wins', async () => {
    await deploy(s, [
      execute({ rules: [{ id: 'uk-nhs', sensitivity_level: 'medium' }] }, 'http.request.uri.path eq "/a"'),
      execute({ categories: [{ category: 'gb', sensitivity_level: 'low' }], rules: [{ id: 'us-ssn', sensitivity_level: 'eoff' }] }, 'http.request.uri.path eq "/b"'),
      execute({ rules: [{ id: 'uk-nhs', sensitivity_level: 'default' }] }),
    ]);
    const root = await s.effectiveRules(Z, req());
    expect(root.ruleIds).toEqual(defaults);
    expect(Object.keys(root.thresholds)).toEqual(defaults);
    expect(new Set(Object.values(root.thresholds))).toEqual(new Set(['high']));
    expect((await s.effectiveRules(Z, req('https://example.com/a'))).thresholds['uk-nhs']).toBe('medium');
    const b = await s.effectiveRules(Z, req('https://example.com/b'));
    expect(b.thresholds['uk-nhs']).toBe('low');
    // eoff in one execute, default in the other: it runs at high.
    expect(b.thresholds['us-ssn']).toBe('high');
    const stored = (await s.getEntrypoint(Z, P)).rules[1]!.action_parameters as { overrides: unknown };
    expect(stored.overrides).toEqual({ categories: [{ category: 'gb', sensitivity_level: 'low' }], rules: [{ id: 'us-ssn', sensitivity_level: 'eoff' }] });
  });

  it('an entry point may execute a custom ruleset that deploys the managed one; it cannot then be deleted', async () => {
    const custom = await s.createRuleset(Z, { name: 'api', kind: 'custom', phase: P, rules: [execute({ enabled: false, categories: [{ category: 'secrets', enabled: true }] })] });
    await deploy(s, [{ action: 'execute', action_parameters: { id: custom.id }, expression: 'starts_with(http.request.uri.path, "/api/")' }]);
    expect((await s.effectiveRules(Z, req('https://example.com/api/x'))).ruleIds).toEqual(withTag('secrets'));
    expect((await s.effectiveRules(Z, req('https://example.com/'))).ruleIds).toEqual([]);
    expect(await code(s.deleteRuleset(Z, custom.id))).toBe(kApiErrors.RULESET_IN_USE.code);
  });

  it('validates every payload and changes nothing on refusal', async () => {
    const ep = await deploy(s, [execute()]);
    const bad: [unknown, number][] = [
      [{ ...execute(), extra: 1 }, kApiErrors.INVALID_JSON.code],
      [{ ...execute(), description: 5 }, kApiErrors.INVALID_JSON.code],
      [{ ...execute(), id: 'XYZ' }, kApiErrors.INVALID_VALUE.code],
      [{ ...execute(), expression: ' ' }, kApiErrors.BLANK_EXPRESSION.code],
      [{ ...execute(), expression: 'http.host eq' }, kApiErrors.INVALID_EXPRESSION.code],
      [{ action_parameters: { id: M }, expression: 'true' }, kApiErrors.ACTION_REQUIRED.code],
      [{ action: 'block', expression: 'true' }, kApiErrors.ACTION_NOT_ALLOWED.code],
      [execute({ action: 'block' }), kApiErrors.OVERRIDE_ACTION.code],
      [execute({ categories: [{ category: 'pii', action: 'challenge' }] }), kApiErrors.OVERRIDE_ACTION.code],
      [execute({ categories: [{ category: 'no-such-tag', enabled: true }] }), kApiErrors.UNKNOWN_MANAGED_RULE.code],
      [execute({ rules: [{ id: 'no-such-rule', enabled: true }] }), kApiErrors.UNKNOWN_MANAGED_RULE.code],
      [execute({ rules: [{ id: 'us-ssn', enabled: true }, { id: 'us-ssn', enabled: false }] }), kApiErrors.DUPLICATE.code],
      [execute({ sensitivity_level: 'high' }), kApiErrors.INVALID_VALUE.code],
      [execute({ sensitivity_level: 1 }), kApiErrors.INVALID_JSON.code],
      [execute({ categories: [{ category: 'pii', sensitivity_level: 'off' }] }), kApiErrors.INVALID_VALUE.code],
      [execute({ rules: [{ id: 'us-ssn', sensitivity_level: 'LOW' }] }), kApiErrors.INVALID_VALUE.code],
      [execute({ rules: [{ id: 'us-ssn', score_threshold: 40 }] }), kApiErrors.INVALID_VALUE.code],
      [{ action: 'execute', action_parameters: { id: 'f'.repeat(32) }, expression: 'true' }, kApiErrors.UNKNOWN_MANAGED_RULESET.code],
      [{ action: 'execute', action_parameters: { id: M, matched_data: { public_key: 'x' } }, expression: 'true' }, kApiErrors.INVALID_VALUE.code],
      [{ ...execute(), position: { index: 0 } }, kApiErrors.POSITION_OUT_OF_RANGE.code],
      [{ ...execute(), position: { index: 3 } }, kApiErrors.POSITION_OUT_OF_RANGE.code],
      [{ ...execute(), position: { before: 'b'.repeat(32) } }, kApiErrors.POSITION_OUT_OF_RANGE.code],
      [{ ...execute(), position: { before: '', after: '' } }, kApiErrors.POSITION_OUT_OF_RANGE.code],
      [{ ...execute(), ref: ep.rules[0]!.ref }, kApiErrors.DUPLICATE.code],
      ['not an object', kApiErrors.INVALID_JSON.code],
    ];
    for (const [body, expected] of bad) expect([body, await code(s.addRule(Z, ep.id, body))]).toEqual([body, expected]);
    expect(await code(s.createRuleset(Z, { name: 'x', kind: 'zone', phase: P }))).toBe(kApiErrors.SECOND_ENTRYPOINT.code);
    expect(await code(s.createRuleset(Z, { name: 'x', kind: 'custom', phase: 'http_request_firewall_custom' }))).toBe(kApiErrors.UNSUPPORTED_PHASE.code);
    expect(await code(s.createRuleset(Z, { name: 'x', kind: 'managed', phase: P }))).toBe(kApiErrors.INVALID_VALUE.code);
    expect(await code(s.updateRuleset(Z, ep.id, { name: 'renamed', rules: [] }))).toBe(kApiErrors.IMMUTABLE.code);
    expect(await code(s.updateEntrypoint(Z, P, { kind: 'zone', rules: [] }))).toBe(kApiErrors.INVALID_JSON.code);
    expect(await code(s.getRuleset(Z, 'c'.repeat(32)))).toBe(kApiErrors.RULESET_NOT_FOUND.code);
    expect(await code(s.updateRuleset(Z, M, { rules: [] }))).toBe(kApiErrors.MANAGED_READ_ONLY.code);
    expect(await s.getEntrypoint(Z, P)).toEqual({ ...ep, source: 'firewall_managed' });
  });

  it('PUT keeps unchanged rules at their version, bumps changed ones, gives new ones fresh ids', async () => {
    const ep = await deploy(s, [execute(), { action: 'log', expression: 'ssl' }]);
    const [a, b] = ep.rules;
    const next = await s.updateEntrypoint(Z, P, { rules: [{ ...a }, { ...b, expression: 'not ssl' }, { action: 'log', expression: 'true' }] });
    expect(next.version).toBe('2');
    expect(next.rules[0]).toEqual(a);
    expect(next.rules[1]).toMatchObject({ id: b!.id, version: '2', expression: 'not ssl' });
    expect(next.rules[2]!.id).not.toMatch(new RegExp(`${a!.id}|${b!.id}`));
  });

  it('places added and moved rules by before, after and index (1-based), keeping moved rules at their version', async () => {
    const ep = await deploy(s, [{ action: 'log', expression: 'true', description: 'a' }]);
    const order = (r: Ruleset): string[] => r.rules.map((x) => x.description ?? '');
    const idOf = (r: Ruleset, d: string): string => r.rules.find((x) => x.description === d)!.id;
    const add = (description: string, position?: object) =>
      s.addRule(Z, ep.id, { action: 'log', expression: 'true', description, ...(position === undefined ? {} : { position }) });
    let r = await add('b');
    expect(order(r)).toEqual(['a', 'b']);
    r = await add('first', { before: '' });
    expect(order(r)).toEqual(['first', 'a', 'b']);
    r = await add('last', { after: '' });
    expect(order(r)).toEqual(['first', 'a', 'b', 'last']);
    r = await add('before-b', { before: idOf(r, 'b') });
    expect(order(r)).toEqual(['first', 'a', 'before-b', 'b', 'last']);
    r = await add('after-a', { after: idOf(r, 'a') });
    expect(order(r)).toEqual(['first', 'a', 'after-a', 'before-b', 'b', 'last']);
    r = await add('third', { index: 3 });
    expect(order(r)).toEqual(['first', 'a', 'third', 'after-a', 'before-b', 'b', 'last']);
    r = await add('end', { index: 8 });
    expect(order(r)).toEqual(['first', 'a', 'third', 'after-a', 'before-b', 'b', 'last', 'end']);

    const versionOf = (x: Ruleset, d: string) => x.rules.find((y) => y.description === d)!.version;
    const moves: [string, object, string[]][] = [
      ['end', { before: '' }, ['end', 'first', 'a', 'third', 'after-a', 'before-b', 'b', 'last']],
      ['end', { after: '' }, ['first', 'a', 'third', 'after-a', 'before-b', 'b', 'last', 'end']],
      ['first', { index: 8 }, ['a', 'third', 'after-a', 'before-b', 'b', 'last', 'end', 'first']],
      ['first', { index: 1 }, ['first', 'a', 'third', 'after-a', 'before-b', 'b', 'last', 'end']],
      ['a', { after: 'b' }, ['first', 'third', 'after-a', 'before-b', 'b', 'a', 'last', 'end']],
      ['a', { before: 'third' }, ['first', 'a', 'third', 'after-a', 'before-b', 'b', 'last', 'end']],
    ];
    for (const [what, where, want] of moves) {
      const before = r;
      const pos = Object.fromEntries(Object.entries(where).map(([k, v]) => [k, typeof v === 'string' && v !== '' ? idOf(r, v) : v]));
      r = await s.editRule(Z, ep.id, idOf(r, what), { position: pos });
      expect([what, where, order(r)]).toEqual([what, where, want]);
      expect(Number(r.version)).toBe(Number(before.version) + 1);
      expect(versionOf(r, what)).toBe(versionOf(before, what));
    }
    // Moving allows 1 … count; adding 1 … count + 1; one key only; never relative to the rule itself.
    const frozen = await s.getEntrypoint(Z, P);
    expect(await code(s.editRule(Z, ep.id, idOf(r, 'a'), { position: { index: 9 } }))).toBe(kApiErrors.POSITION_OUT_OF_RANGE.code);
    expect(await code(add('x', { index: 10 }))).toBe(kApiErrors.POSITION_OUT_OF_RANGE.code);
    expect(await code(s.editRule(Z, ep.id, idOf(r, 'a'), { position: { index: 1, before: '' } }))).toBe(kApiErrors.POSITION_OUT_OF_RANGE.code);
    for (const key of ['before', 'after']) {
      expect(await code(s.editRule(Z, ep.id, idOf(r, 'a'), { position: { [key]: idOf(r, 'a') } }))).toBe(kApiErrors.POSITION_OUT_OF_RANGE.code);
    }
    expect(await s.getEntrypoint(Z, P)).toEqual(frozen);
  });

  it('dry runs return the result and store nothing', async () => {
    const ep = await deploy(s, [execute()]);
    const dry = await s.addRule(Z, ep.id, { action: 'log', expression: 'true' }, { dryRun: true });
    expect(dry.rules).toHaveLength(2);
    expect((await s.getEntrypoint(Z, P)).rules).toHaveLength(1);
    await s.deleteRuleset(Z, ep.id, { dryRun: true });
    expect((await s.getEntrypoint(Z, P)).id).toBe(ep.id);
  });

  it('serializes concurrent writes: none is lost, versions rise one by one', async () => {
    const ep = await deploy(s, []);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.addRule(Z, ep.id, { action: 'log', expression: 'true', description: `r${i}` })));
    expect(results.map((r) => Number(r.version)).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect((await s.getEntrypoint(Z, P)).rules).toHaveLength(20);
  });
});

describe('persistence', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'leakscan-rulesets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a new service on the same directory sees every accepted change, with its versions', async () => {
    const a = new RulesetService(new FileZoneStore(dir));
    const ep = await deploy(a, [execute()]);
    await a.addRule(Z, ep.id, { action: 'log', expression: 'true' });
    const b = new RulesetService(new FileZoneStore(dir));
    expect(await b.getEntrypoint(Z, P)).toEqual(await a.getEntrypoint(Z, P));
    expect((await b.listVersions(Z, ep.id)).map((v) => v.version)).toEqual(['1', '2']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a failed write changes neither the store nor what the service serves', async () => {
    const inner = new MemoryZoneStore();
    let fail = false;
    const store: ZoneStore = {
      read: (z) => inner.read(z),
      zones: () => inner.zones(),
      write: async (z, st: ZoneState) => {
        if (fail) throw new Error('disk full');
        await inner.write(z, st);
      },
    };
    const s = new RulesetService(store);
    const ep = await deploy(s, [execute()]);
    fail = true;
    await expect(s.addRule(Z, ep.id, { action: 'log', expression: 'true' })).rejects.toThrow('disk full');
    expect((await s.getEntrypoint(Z, P)).version).toBe('1');
    expect((await inner.read(Z))!.rulesets[0]!.current.version).toBe('1');
  });

  it('a corrupt zone file is reported, not replaced', async () => {
    const a = new RulesetService(new FileZoneStore(dir));
    await deploy(a, [execute()]);
    const file = join(dir, `${Z}.json`);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"format":1,');
    const b = new RulesetService(new FileZoneStore(dir));
    await expect(b.getEntrypoint(Z, P)).rejects.toThrow();
    await expect(b.updateEntrypoint(Z, P, { rules: [] })).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('{"format":1,');
  });
});
