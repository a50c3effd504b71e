/**
 * `POST /client/v4/graphql` on the service (in-process startServe, the real scanner in the calling
 * thread): events found through the proxy are queryable as soon as their batch is written, with the
 * fields masked as stored; tokens see only their zones; the index is rebuilt from the batches when it
 * is deleted; `leakscan events` answers from the same query path.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, startOrigin, tempDir, type Origin } from '../serve/helpers.js';

const ZA = 'a'.repeat(32);
const ZB = 'b'.repeat(32);
const planted = plant();
const data = tempDir('leakscan-graphql-');
let origin: Origin;

const kList = `query ($zoneTag: string, $filter: FirewallEventsAdaptiveFilter_InputObject) {
  viewer { zones(filter: { zoneTag: $zoneTag }) {
    firewallEventsAdaptive(filter: $filter, limit: 100, orderBy: [datetime_ASC]) { action source ruleId rulesetId clientRequestHTTPHost clientRequestPath clientRequestHTTPMethodName edgeResponseStatus rayName datetime }
  } } }`;

async function graphql(svc: ServeHandle, token: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${svc.api.url}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

type Row = Record<string, unknown>;
const eventsOf = (json: Row): Row[] => (((json['data'] as Row)['viewer'] as Row)['zones'] as Row[])[0]!['firewallEventsAdaptive'] as Row[];

function start(): Promise<ServeHandle> {
  return startServe({
    dataDir: data.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, workers: 0,
    zones: { hosts: { '*.shop.example': ZA, 'shop.example': ZA, 'other.example': ZB } },
    batch: { intervalMs: 20 },
    onError: () => {},
  });
}

beforeAll(async () => {
  origin = await startOrigin(bodies(planted), planted);
});
afterAll(async () => {
  await origin.close();
  data.remove();
});

describe('POST /client/v4/graphql', () => {
  let svc: ServeHandle;
  let readerA: string;
  const since = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    svc = await start();
    await deploy(svc.api.url, svc.admin.token, ZA);
    await deploy(svc.api.url, svc.admin.token, ZB);
    const created = await runCli(['token', 'create', '--name', 'reader-a', '--zone', ZA, '--permission', 'read', '--data', data.dir]);
    readerA = created.stdout.trim();
    // A card in the Host label: the host is masked before the event is stored.
    for (const host of ['shop.example', `${planted.card}.shop.example`]) expect((await get(`${svc.proxy!.url}/api/user.json`, host)).status).toBe(200);
    expect((await get(`${svc.proxy!.url}/settings.html`, 'other.example')).status).toBe(200);
    await svc.flush();
  }, 60_000);
  afterAll(async () => svc.close());

  it('answers events written through the proxy, with the stored (masked) values', async () => {
    const r = await graphql(svc, svc.admin.token, { query: kList, variables: { zoneTag: ZA, filter: { datetime_geq: since } } });
    expect(r.status).toBe(200);
    expect(r.json['errors']).toBeNull();
    const events = eventsOf(r.json);
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e).toMatchObject({ ruleId: expect.stringMatching(/^card-/), rulesetId: 'e22d83c647c64a3eae91b71b499d988e', clientRequestPath: '/api/user.json', clientRequestHTTPMethodName: 'GET', source: 'dlp', action: 'log', edgeResponseStatus: 200, rayName: expect.stringMatching(/^[0-9a-f]{32}$/) });
    }
    expect(events[0]!['clientRequestHTTPHost']).toBe('shop.example');
    expect(events[1]!['clientRequestHTTPHost']).toMatch(/^\*+[0-9]{0,4}\.shop\.example$/);
    expect(JSON.stringify(r.json)).not.toContain(planted.card);
  });

  it("answers the query of Cloudflare's 'Querying Firewall Events with GraphQL' tutorial over HTTP", async () => {
    // The tutorial's request body, with our zone tag and a window around now.
    const body = {
      query: `query ListFirewallEvents($zoneTag: string, $filter: FirewallEventsAdaptiveFilter_InputObject) {
        viewer { zones(filter: { zoneTag: $zoneTag }) {
          firewallEventsAdaptive(filter: $filter limit: 10 orderBy: [datetime_DESC]) {
            action clientAsn clientCountryName clientIP clientRequestPath clientRequestQuery datetime source userAgent
          } } } }`,
      variables: { zoneTag: ZA, filter: { datetime_geq: since, datetime_leq: new Date(Date.now() + 60_000).toISOString() } },
    };
    const r = await graphql(svc, readerA, body);
    expect(r.status).toBe(200);
    expect(r.json['errors']).toBeNull();
    const events = eventsOf(r.json);
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e).toEqual({ action: 'log', clientAsn: '', clientCountryName: '', clientIP: '', clientRequestPath: '/api/user.json', clientRequestQuery: '', datetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), source: 'dlp', userAgent: '' });
    }
    expect(Date.parse(events[0]!['datetime'] as string)).toBeGreaterThanOrEqual(Date.parse(events[1]!['datetime'] as string));
  });

  it('lets a read token query its zone, and refuses a zone it cannot read as Cloudflare does', async () => {
    const own = await graphql(svc, readerA, { query: kList, variables: { zoneTag: ZA } });
    expect(eventsOf(own.json)).toHaveLength(2);
    const other = await graphql(svc, readerA, { query: kList, variables: { zoneTag: ZB } });
    expect(other.status).toBe(200);
    expect(other.json['data']).toBeNull();
    expect(other.json['errors']).toMatchObject([{ message: `zones [${ZB}] are not authorized`, extensions: { code: 'SDD_ERR_GRAPHQL_ZONE' } }]);
    // With no zone named, only the token's zones are listed.
    const listed = await graphql(svc, readerA, { query: '{ viewer { zones { zoneTag } } }' });
    expect(listed.json).toEqual({ data: { viewer: { zones: [{ zoneTag: ZA }] } }, errors: null });
  });

  it('counts groups per rule and hour', async () => {
    const q = `{ viewer { zones(filter: { zoneTag: "${ZB}" }) { firewallEventsAdaptiveGroups(limit: 10, filter: { datetime_geq: "${since}" }, orderBy: [count_DESC]) { count dimensions { ruleId source datetimeHour } } } } }`;
    const r = await graphql(svc, svc.admin.token, { query: q });
    const groups = (((r.json['data'] as Row)['viewer'] as Row)['zones'] as Row[])[0]!['firewallEventsAdaptiveGroups'] as Row[];
    expect(groups).toEqual([{ count: 1, dimensions: { ruleId: 'aws-access-key-id', source: 'dlp', datetimeHour: expect.stringMatching(/:00:00Z$/) } }]);
  });

  it('answers unknown fields with GraphQL errors, and keeps the v4 errors for authentication', async () => {
    const bad = await graphql(svc, svc.admin.token, { query: `{ viewer { zones(filter: { zoneTag: "${ZA}" }) { firewallEventsAdaptive(limit: 1) { clientSecret } } } }` });
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ data: null, errors: [{ message: 'Cannot query field "clientSecret" on type "ZoneFirewallEventsAdaptive".', extensions: { code: 'SDD_ERR_GRAPHQL_VALIDATION' } }] });
    const anonymous = await fetch(`${svc.api.url}/graphql`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toMatchObject({ success: false, errors: [{ code: 9106 }] });
    const wrongMethod = await fetch(`${svc.api.url}/graphql`, { headers: { authorization: `Bearer ${svc.admin.token}` } });
    expect(wrongMethod.status).toBe(405);
  });
});

describe('the index after a restart', () => {
  it('is rebuilt from the stored batches when it is deleted; leakscan events reads it', async () => {
    rmSync(join(data.dir, 'events-index.mdb'), { force: true });
    rmSync(join(data.dir, 'events-index.mdb-lock'), { force: true });
    const lines: string[] = [];
    const svc = await startServe({ dataDir: data.dir, port: 0, auditPort: 0, log: (l) => lines.push(l), onError: () => {} });
    try {
      expect(lines).toContain('indexed: 3 events of 2 stored batches');
      const r = await graphql(svc, svc.admin.token, { query: kList, variables: { zoneTag: ZA } });
      expect(eventsOf(r.json)).toHaveLength(2);
      // Beside the running service (its bucket is locked, the index is shared).
      const beside = await runCli(['events', '--data', data.dir, '--zone', ZA, '--since', '1h', '--order', 'asc']);
      expect(beside.code).toBe(0);
      const rows = beside.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
      expect(rows.map((e) => e['clientRequestPath'])).toEqual(['/api/user.json', '/api/user.json']);
      expect(rows[0]).toMatchObject({ source: 'dlp', action: 'log', clientRequestHTTPHost: 'shop.example' });
      expect(beside.stdout).not.toContain(planted.card);
    } finally {
      await svc.close();
    }
    // Stopped: the CLI catches the index up itself and filters by rule.
    rmSync(join(data.dir, 'events-index.mdb'), { force: true });
    const alone = await runCli(['events', '--data', data.dir, '--zone', ZB, '--rule', 'aws-access-key-id', '--format', 'json']);
    expect(alone.code).toBe(0);
    expect((JSON.parse(alone.stdout) as Row[]).map((e) => e['ruleId'])).toEqual(['aws-access-key-id']);
    const none = await runCli(['events', '--data', data.dir, '--zone', ZB, '--rule', 'us-ssn']);
    expect([none.code, none.stdout]).toEqual([0, '']);
    const bad = await runCli(['events', '--data', data.dir, '--zone', ZB, '--since', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "last tuesday"');
  }, 60_000);
});
