import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/api/index.js';
import { keepsFinding, scannerOptionsFor, type Ruleset } from '../../src/rulesets/index.js';
import { createScanner, managedRuleset } from '../../src/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { apiError } from './helpers.js';

// The official SDK (cloudflare@7.3.0, pinned in devDependencies) against a running server.
const kManaged = managedRuleset.id;
const kPhase = 'http_response_firewall_managed';
const Z1 = '023e105f4ecef8ad9ca31a8372d0c353';
const Z2 = '1b2c3d4e5f60718293a4b5c6d7e8f901';

let dir: string;
let api: ApiServer;
let cf: Cloudflare;

/** What the zone's scanner finds in a body holding one SSN, one e-mail address and one Visa number. */
async function findingsFor(zone: string, url: string): Promise<string[]> {
  const { ruleIds } = await api.service.effectiveRules(zone, { request: { url }, response: { status: 200, headers: { 'content-type': 'application/json' } } });
  if (ruleIds.length === 0) return [];
  const scanner = await createScanner({ ...scannerOptionsFor(ruleIds), workers: 0 });
  try {
    const body = JSON.stringify({ ssn: '536-22-8726', email: 'jane.doe@example.org', card: '4111 1111 1111 1111' });
    return [...new Set((await scanner.scan(body, { contentType: 'application/json' })).map((f) => f.ruleId))].sort();
  } finally {
    await scanner.close();
  }
}

/** Some SDK 7.3.0 result types resolve to `unknown` under NodeNext (its .d.mts unions); the wire shape is ours. */
const rs = async (p: Promise<unknown>): Promise<Ruleset> => (await p) as Ruleset;

const executeRule = {
  action: 'execute' as const,
  action_parameters: { id: kManaged },
  expression: 'true',
  description: 'Execute the Cloudflare Sensitive Data Detection managed ruleset',
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leakscan-api-'));
  api = await startApiServer({ dataDir: dir, port: 0 });
  cf = new Cloudflare({ baseURL: api.url, apiToken: api.admin.token, maxRetries: 0 });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('deployment procedure (spec A1–A3) with the official SDK', () => {
  it('A1 404 then A3 creates the entry point; the zone then scans with the default rules', async () => {
    expect(await findingsFor(Z1, 'https://example.com/')).toEqual([]);
    const missing = await apiError(cf.rulesets.phases.get(kPhase, { zone_id: Z1 }));
    expect(missing).toEqual({ status: 404, code: 10003, message: `could not find entrypoint ruleset in the ${kPhase} phase` });

    const created = await rs(cf.rulesets.create({
      zone_id: Z1,
      name: 'My ruleset',
      description: 'Entry point ruleset for WAF managed rulesets (response)',
      kind: 'zone',
      phase: kPhase,
      rules: [executeRule],
    }));
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.version).toBe('1');
    expect(created.kind).toBe('zone');
    const rule = created.rules[0]!;
    expect(rule.id).toMatch(/^[0-9a-f]{32}$/);
    expect(rule).toMatchObject({ version: '1', action: 'execute', expression: 'true', enabled: true, ref: rule.id });
    expect(rule.action_parameters).toEqual({ id: kManaged, version: 'latest' });

    const got = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    expect(got.id).toBe(created.id);
    expect((got as unknown as { source: string }).source).toBe('firewall_managed');
    // Default rules: SSN and card on, e-mail off by default.
    expect(await findingsFor(Z1, 'https://example.com/')).toEqual(['card-visa', 'us-ssn']);
  });

  it('A1 200 then A2 appends the execute rule and raises the version', async () => {
    const empty = await rs(cf.rulesets.phases.update(kPhase, { zone_id: Z2, rules: [] }));
    expect(empty.version).toBe('1');
    const a1 = await cf.rulesets.phases.get(kPhase, { zone_id: Z2 });
    const logRule = await rs(cf.rulesets.rules.create(a1.id, { zone_id: Z2, action: 'log', expression: 'http.host eq "a.example"' }));
    expect(logRule.version).toBe('2');
    const a2 = await rs(cf.rulesets.rules.create(a1.id, { zone_id: Z2, ...executeRule }));
    expect(a2.version).toBe('3');
    expect(a2.rules.map((r) => r.action)).toEqual(['log', 'execute']);
    expect(await findingsFor(Z2, 'https://example.com/')).toEqual(['card-visa', 'us-ssn']);
  });

  it('refuses a second entry point for the phase (20217) and an unknown managed ruleset', async () => {
    const second = await apiError(cf.rulesets.create({ zone_id: Z1, name: 'again', kind: 'zone', phase: kPhase, rules: [] }));
    expect(second).toMatchObject({ status: 400, code: 20217 });
    expect(second.message).toContain('exceeded maximum number of zone rulesets for phase');
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const unknown = await apiError(
      cf.rulesets.rules.create(ep.id, { zone_id: Z1, action: 'execute', action_parameters: { id: 'ffffffffffffffffffffffffffffffff' }, expression: 'true' }),
    );
    expect(unknown).toMatchObject({ status: 400, code: 20007 });
    expect((await cf.rulesets.phases.get(kPhase, { zone_id: Z1 })).version).toBe(ep.version);
  });
});

describe('overrides, edits, order, versions and dry runs', () => {
  it('overrides by tag and by rule change what the zone scans; other actions are refused', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const rule = ep.rules[0]!;
    const edited = await rs(cf.rulesets.rules.edit(rule.id!, {
      ruleset_id: ep.id,
      zone_id: Z1,
      action: 'execute',
      action_parameters: {
        id: kManaged,
        overrides: { categories: [{ category: 'pii', enabled: false }], rules: [{ id: 'email-address', enabled: true }] },
      },
      expression: 'true',
    }));
    expect(edited.rules[0]!.version).toBe('2');
    // pii is off by tag, but the rule override (higher precedence) turns e-mail on.
    expect(await findingsFor(Z1, 'https://example.com/')).toEqual(['card-visa', 'email-address']);

    const block = await apiError(
      cf.rulesets.rules.edit(rule.id!, {
        ruleset_id: ep.id,
        zone_id: Z1,
        action: 'execute',
        action_parameters: { id: kManaged, overrides: { rules: [{ id: 'us-ssn', action: 'block' }] } },
        expression: 'true',
      }),
    );
    expect(block).toMatchObject({ status: 400, code: 20006 });
    expect(block.message).toContain("'block' is not a valid value for action");
    expect(await findingsFor(Z1, 'https://example.com/')).toEqual(['card-visa', 'email-address']);
  });

  it('a filter expression scopes the managed ruleset to matching requests', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    await cf.rulesets.rules.edit(ep.rules[0]!.id!, {
      ruleset_id: ep.id,
      zone_id: Z1,
      action: 'execute',
      action_parameters: { id: kManaged },
      expression: 'starts_with(http.request.uri.path, "/api/") and http.response.code eq 200',
    });
    expect(await findingsFor(Z1, 'https://example.com/api/users')).toEqual(['card-visa', 'us-ssn']);
    expect(await findingsFor(Z1, 'https://example.com/home')).toEqual([]);
    const bad = await apiError(
      cf.rulesets.rules.edit(ep.rules[0]!.id!, { ruleset_id: ep.id, zone_id: Z1, action: 'execute', action_parameters: { id: kManaged }, expression: 'http.hots eq "x"' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('Filter parsing error (1:1)');
  });

  it('adds at a position, reorders without bumping the rule version, deletes', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const execId = ep.rules[0]!.id!;
    const withLog = await rs(cf.rulesets.rules.create(ep.id, { zone_id: Z1, action: 'log', expression: 'true', description: 'first', position: { index: 1 } }));
    expect(withLog.rules.map((r) => r.description)).toEqual(['first', ep.rules[0]!.description]);
    const logId = withLog.rules[0]!.id!;
    const moved = await rs(cf.rulesets.rules.edit(logId, { ruleset_id: ep.id, zone_id: Z1, position: { after: execId } } as never));
    expect(moved.rules.map((r) => r.id)).toEqual([execId, logId]);
    expect(moved.rules[1]!.version).toBe('1');
    expect(Number(moved.version)).toBe(Number(withLog.version) + 1);
    const outOfRange = await apiError(cf.rulesets.rules.create(ep.id, { zone_id: Z1, action: 'log', expression: 'true', position: { index: 9 } }));
    expect(outOfRange).toMatchObject({ status: 400, code: 20009 });
    const afterDelete = await rs(cf.rulesets.rules.delete(logId, { ruleset_id: ep.id, zone_id: Z1 }));
    expect(afterDelete.rules.map((r) => r.id)).toEqual([execId]);
  });

  it('order and deletion change what the zone scans: a skip rule counts only before the execute rule', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z2 });
    const execId = ep.rules.find((r) => r.action === 'execute')!.id!;
    const url = 'https://example.com/private/x';
    expect(await findingsFor(Z2, url)).toEqual(['card-visa', 'us-ssn']);
    const skip = {
      action: 'skip' as const,
      action_parameters: { ruleset: 'current' as const },
      expression: 'starts_with(http.request.uri.path, "/private/")',
      description: 'skip private',
    };
    const added = await rs(cf.rulesets.rules.create(ep.id, { zone_id: Z2, ...skip }));
    const skipId = added.rules.at(-1)!.id;
    // Appended after the execute rule, the skip comes too late to matter.
    expect(await findingsFor(Z2, url)).toEqual(['card-visa', 'us-ssn']);
    const moved = await rs(cf.rulesets.rules.edit(skipId, { ruleset_id: ep.id, zone_id: Z2, position: { before: execId } } as never));
    expect(moved.rules.map((r) => r.id).indexOf(skipId)).toBe(moved.rules.map((r) => r.id).indexOf(execId) - 1);
    expect(await findingsFor(Z2, url)).toEqual([]);
    expect(await findingsFor(Z2, 'https://example.com/public')).toEqual(['card-visa', 'us-ssn']);
    await cf.rulesets.rules.delete(skipId, { ruleset_id: ep.id, zone_id: Z2 });
    expect(await findingsFor(Z2, url)).toEqual(['card-visa', 'us-ssn']);
    const withoutExec = await rs(cf.rulesets.rules.delete(execId, { ruleset_id: ep.id, zone_id: Z2 }));
    expect(withoutExec.rules.map((r) => r.action)).toEqual(['log']);
    expect(await findingsFor(Z2, 'https://example.com/public')).toEqual([]);
  });

  it('dry runs validate and answer null without changing anything', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const dry = await cf.rulesets.rules.create(ep.id, { zone_id: Z1, action: 'log', expression: 'true', dry_run: true });
    expect(dry).toBeNull();
    const still = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    expect(still.version).toBe(ep.version);
    expect(still.rules).toHaveLength(ep.rules.length);
    const invalid = await apiError(cf.rulesets.rules.create(ep.id, { zone_id: Z1, action: 'log', expression: '', dry_run: true }));
    expect(invalid).toMatchObject({ status: 400, code: 20125 });
  });

  it('dry runs of every other write (PUT, PATCH, DELETE of rules, rulesets and versions) answer null or 204 and change nothing', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const rule = ep.rules[0]!;
    const listedKinds = async (): Promise<string[]> => {
      const out = [];
      for await (const r of cf.rulesets.list({ zone_id: Z1 })) out.push(`${r.kind}:${r.name}`);
      return out.sort();
    };
    const kindsBefore = await listedKinds();
    const scannedBefore = await findingsFor(Z1, 'https://example.com/api/users');
    expect(scannedBefore).toEqual(['card-visa', 'us-ssn']);

    expect(await cf.rulesets.phases.update(kPhase, { zone_id: Z1, rules: [], dry_run: true })).toBeNull();
    expect(await cf.rulesets.update(ep.id, { zone_id: Z1, rules: [], dry_run: true })).toBeNull();
    expect(await cf.rulesets.create({ zone_id: Z1, name: 'dry', kind: 'custom', phase: kPhase, rules: [], dry_run: true })).toBeNull();
    expect(
      await cf.rulesets.rules.edit(rule.id!, {
        ruleset_id: ep.id,
        zone_id: Z1,
        action: 'execute',
        action_parameters: { id: kManaged, overrides: { enabled: false } },
        expression: 'true',
        dry_run: true,
      }),
    ).toBeNull();
    expect(await cf.rulesets.rules.delete(rule.id!, { ruleset_id: ep.id, zone_id: Z1, dry_run: true })).toBeNull();
    await cf.rulesets.versions.delete('1', { ruleset_id: ep.id, zone_id: Z1, dry_run: true });
    await cf.rulesets.delete(ep.id, { zone_id: Z1, dry_run: true });
    // A dry run is validated like the real call.
    expect(await apiError(cf.rulesets.versions.delete(ep.version, { ruleset_id: ep.id, zone_id: Z1, dry_run: true }))).toMatchObject({ status: 400, code: 20015 });
    expect(await apiError(cf.rulesets.rules.delete('f'.repeat(32), { ruleset_id: ep.id, zone_id: Z1, dry_run: true }))).toMatchObject({ status: 404, code: 10003 });

    expect(await cf.rulesets.phases.get(kPhase, { zone_id: Z1 })).toEqual(ep);
    expect((await cf.rulesets.versions.get('1', { ruleset_id: ep.id, zone_id: Z1 })).version).toBe('1');
    expect(await listedKinds()).toEqual(kindsBefore);
    expect(await findingsFor(Z1, 'https://example.com/api/users')).toEqual(scannedBefore);
  });

  it('keeps every version readable, deletes old ones, never the current one', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    const versions = [];
    for await (const v of cf.rulesets.versions.list(ep.id, { zone_id: Z1 })) versions.push(v.version);
    expect(versions).toEqual(Array.from({ length: Number(ep.version) }, (_, i) => String(i + 1)));
    const v1 = await cf.rulesets.versions.get('1', { ruleset_id: ep.id, zone_id: Z1 });
    expect(v1.rules[0]!.expression).toBe('true');
    expect(v1.rules[0]!.action_parameters).toEqual({ id: kManaged, version: 'latest' });
    await cf.rulesets.versions.delete('1', { ruleset_id: ep.id, zone_id: Z1 });
    expect((await apiError(cf.rulesets.versions.get('1', { ruleset_id: ep.id, zone_id: Z1 }))).status).toBe(404);
    const current = await apiError(cf.rulesets.versions.delete(ep.version, { ruleset_id: ep.id, zone_id: Z1 }));
    expect(current).toMatchObject({ status: 400, code: 20015 });
    const epVersions = [];
    for await (const v of cf.rulesets.phases.versions.list(kPhase, { zone_id: Z1 })) epVersions.push(v.version);
    expect(epVersions).toEqual(versions.slice(1));
  });

  it('reads the managed ruleset with its rules and tags, lists and deletes rulesets', async () => {
    const managed = await cf.rulesets.get(kManaged, { zone_id: Z1 });
    expect(managed.kind).toBe('managed');
    expect(managed.rules).toHaveLength(managedRuleset.rules.length);
    const ssn = managed.rules.find((r) => r.id === 'us-ssn')!;
    expect(ssn.categories).toEqual(expect.arrayContaining(['pii', 'us']));
    expect(ssn.enabled).toBe(true);
    expect(managed.rules.find((r) => r.id === 'email-address')!.enabled).toBe(false);

    const custom = await rs(cf.rulesets.create({ zone_id: Z1, name: 'extra', kind: 'custom', phase: kPhase, rules: [] }));
    const listed = [];
    for await (const r of cf.rulesets.list({ zone_id: Z1 })) listed.push(r.kind);
    expect(listed.sort()).toEqual(['custom', 'managed', 'zone']);
    const updated = await rs(cf.rulesets.update(custom.id, { zone_id: Z1, description: 'changed', rules: [] }));
    expect(updated).toMatchObject({ version: '2', description: 'changed' });
    await cf.rulesets.delete(custom.id, { zone_id: Z1 });
    expect((await apiError(cf.rulesets.get(custom.id, { zone_id: Z1 }))).status).toBe(404);
  });

  it('survives a restart: the state is in the data directory', async () => {
    const before = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    await api.close();
    api = await startApiServer({ dataDir: dir, port: 0 });
    expect(api.admin.created).toBe(false);
    cf = new Cloudflare({ baseURL: api.url, apiToken: api.admin.token, maxRetries: 0 });
    const after = await cf.rulesets.phases.get(kPhase, { zone_id: Z1 });
    expect(after).toEqual(before);
  });
});

/**
 * What a zone keeps of `body`, as `leakscan serve` does it: a scan at the lowest threshold of the
 * zone's rules, then each finding kept when its confidence reaches its own rule's threshold.
 */
async function keptFor(zone: string, body: string): Promise<string[]> {
  const rules = await api.service.effectiveRules(zone, { request: { url: 'https://example.com/' }, response: { status: 200, headers: { 'content-type': 'application/json' } } });
  if (rules.ruleIds.length === 0) return [];
  const scanner = await createScanner({ ...scannerOptionsFor(rules.ruleIds, rules), workers: 0 });
  try {
    return (await scanner.scan(body, { contentType: 'application/json' })).filter((f) => keepsFinding(rules, f)).map((f) => `${f.ruleId}:${f.confidence}`).sort();
  } finally {
    await scanner.close();
  }
}

/** Whether a rule reports a bare (unlabelled) NHS number at medium yet (RuleDef.context.without). */
const nhsBare = allRuleDefs.find((r) => r.id === 'uk-nhs')?.context?.without === 'medium';

describe('sensitivity_level overrides with the official SDK', () => {
  const Z3 = '3333333333333333333333333333aaaa';
  const Z4 = '4444444444444444444444444444bbbb';
  const labelled = JSON.stringify({ nhsNumber: '6871775781', ssn: '536-22-8726' });
  const bare = JSON.stringify({ ref: '6871775781' });

  it('sets a threshold per ruleset, tag and rule, stored as sent; eoff silences', async () => {
    const created = await rs(cf.rulesets.create({
      zone_id: Z3,
      name: 'zone',
      kind: 'zone',
      phase: kPhase,
      rules: [{
        ...executeRule,
        action_parameters: {
          id: kManaged,
          overrides: {
            sensitivity_level: 'medium',
            categories: [{ category: 'us', sensitivity_level: 'eoff' }],
            rules: [{ id: 'uk-nhs', sensitivity_level: 'low' }],
          },
        },
      }],
    }));
    expect((created.rules[0]!.action_parameters as { overrides: unknown }).overrides).toEqual({
      sensitivity_level: 'medium',
      categories: [{ category: 'us', sensitivity_level: 'eoff' }],
      rules: [{ id: 'uk-nhs', sensitivity_level: 'low' }],
    });
    await rs(cf.rulesets.create({ zone_id: Z4, name: 'zone', kind: 'zone', phase: kPhase, rules: [executeRule] }));
    const rules = await api.service.effectiveRules(Z3, { request: { url: 'https://example.com/' } });
    expect(rules.thresholds['uk-nhs']).toBe('low');
    expect(rules.thresholds['aws-access-key-id']).toBe('medium');
    expect(rules.ruleIds).not.toContain('us-ssn');
    // A labelled NHS number is high in both zones; the SSN only where its tag is not eoff.
    expect(await keptFor(Z3, labelled)).toEqual(['uk-nhs:high']);
    expect(await keptFor(Z4, labelled)).toEqual(['uk-nhs:high', 'us-ssn:high']);
  });

  it.skipIf(!nhsBare)('a zone with sensitivity_level low on a rule keeps a bare number the default zone does not', async () => {
    expect(await keptFor(Z3, bare)).toEqual(['uk-nhs:medium']);
    expect(await keptFor(Z4, bare)).toEqual([]);
  });

  it('refuses an unknown level with a v4 error naming the field, and changes nothing', async () => {
    const ep = await cf.rulesets.phases.get(kPhase, { zone_id: Z4 });
    for (const overrides of [{ sensitivity_level: 'high' }, { categories: [{ category: 'pii', sensitivity_level: 'off' }] }, { rules: [{ id: 'uk-nhs', sensitivity_level: 'Low' }] }]) {
      const err = await apiError(
        cf.rulesets.rules.edit(ep.rules[0]!.id!, { ruleset_id: ep.id, zone_id: Z4, action: 'execute', action_parameters: { id: kManaged, overrides: overrides as never }, expression: 'true' }),
      );
      expect(err).toMatchObject({ status: 400, code: 20002 });
      expect(err.message).toMatch(/^'[A-Za-z]+' is not a valid value for sensitivity_level because it is not one of default, medium, low, eoff$/);
    }
    expect((await cf.rulesets.phases.get(kPhase, { zone_id: Z4 })).version).toBe(ep.version);
  });
});

describe('authentication', () => {
  const raw = (path: string, init: RequestInit = {}) => fetch(`${api.url}${path}`, init).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; errors: { code: number; error_chain?: { code: number }[] }[] } }));
  const ep = `/zones/${Z1}/rulesets/phases/${kPhase}/entrypoint`;

  it('answers 400/6003 to a malformed header, 403/10000 to a bad token, 400/9106 to none', async () => {
    const malformed = await raw(ep, { headers: { authorization: 'Bearer' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6111 }] });
    const bad = await raw(ep, { headers: { authorization: `Bearer ${'x'.repeat(40)}` } });
    expect(bad).toMatchObject({ status: 403, body: { success: false, errors: [{ code: 10000 }] } });
    expect((await raw(ep)).body.errors[0]!.code).toBe(9106);
  });

  it('scopes tokens to zones and permissions', async () => {
    const { token: reader } = await api.tokens.create({ name: 'reader', zones: [Z1], permission: 'read' });
    const readCf = new Cloudflare({ baseURL: api.url, apiToken: reader, maxRetries: 0 });
    expect((await readCf.rulesets.phases.get(kPhase, { zone_id: Z1 })).kind).toBe('zone');
    expect(await apiError(readCf.rulesets.phases.get(kPhase, { zone_id: Z2 }))).toMatchObject({ status: 403, code: 10000 });
    expect(await apiError(readCf.rulesets.phases.update(kPhase, { zone_id: Z1, rules: [] }))).toMatchObject({ status: 403, code: 10000 });
  });

  it('answers v4 errors to bad ids, unknown routes and bodies that are not JSON', async () => {
    const h = { authorization: `Bearer ${api.admin.token}`, 'content-type': 'application/json' };
    const badId = await raw(`/zones/${Z1}/rulesets/not-an-id`, { headers: h });
    expect(badId.status).toBe(400);
    expect(badId.body.errors.map((e) => e.code)).toEqual([7003, 7000]);
    expect((await raw('/nowhere', { headers: h })).body.errors[0]!.code).toBe(7000);
    const notJson = await raw(`/zones/${Z1}/rulesets`, { method: 'POST', headers: h, body: '{"name":' });
    expect(notJson).toMatchObject({ status: 400, body: { errors: [{ code: 20001 }] } });
    const unknownField = await raw(ep, { method: 'PUT', headers: h, body: JSON.stringify({ kind: 'zone', rules: [] }) });
    expect(unknownField.status).toBe(400);
    expect(JSON.stringify(unknownField.body)).toContain('invalid JSON: unknown field \\"kind\\"');
    const dry = await raw(`${ep}?dry_run=yes`, { method: 'PUT', headers: h, body: JSON.stringify({ rules: [] }) });
    expect(dry).toMatchObject({ status: 400, body: { errors: [{ code: 20017 }] } });
  });
});
