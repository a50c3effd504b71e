/**
 * Security › Events over a real events bucket, audit log, events index and alerting: the chart's
 * counts, each filter and the paging, the NDJSON export (redacted, oldest first), refused parameters,
 * each event's batch badge (verified, pending before its epoch, FAILED once altered) and its proof.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Alerts, type AlertingCall } from '../../src/alerts/index.js';
import { openAuditLog } from '../../src/audit/index.js';
import { Detections, kEventsPerPage } from '../../src/dashboard/index.js';
import { batchOfKey, indexOnPut, openEventIndex, type EventIndex } from '../../src/events/index.js';
import { batchBytes, batchKey, checkEventProof, EventLog, proveEvent, type PendingEvent } from '../../src/eventlog/index.js';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';
import { Browser, startDash, type Dash } from './helpers.js';

const Z = 'abcdefabcdefabcdefabcdefabcdef07';
const OTHER = 'abcdefabcdefabcdefabcdefabcdef08';
const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const NOW = T0 + 3 * 3_600_000;
const kRules = ['card-visa', 'us-ssn', 'aws-access-key-id'] as const;
const kTags: Record<string, string[]> = { 'card-visa': ['financial-information', 'card', 'visa'], 'us-ssn': ['pii', 'us'], 'aws-access-key-id': ['secrets', 'aws'] };
const kLevels = ['high', 'medium', 'low'] as const;
const N = 120;

function event(i: number): PendingEvent {
  const ruleId = kRules[i % 3]!;
  return {
    id: `${(1000 + i).toString(16).padStart(32, '0')}-0`, timestamp: new Date(T0 + i * 60_000).toISOString(), zone: Z, action: 'log',
    rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId, description: `${ruleId} <b>`, tags: kTags[ruleId]!,
    host: i % 2 === 0 ? 'shop.example' : 'api.example', method: 'GET', path: `/p/${i}<script>`, status: 200, contentType: 'application/json',
    requestId: (1000 + i).toString(16).padStart(32, '0'), start: i, end: i + 16, redacted: `************${String(1000 + i)}`, confidence: kLevels[Math.floor(i / 3) % 3]!,
  };
}
const all = Array.from({ length: N }, (_, i) => event(i));
// Batch 4 is written but not published: its epoch does not exist (pending).
const late = Array.from({ length: 3 }, (_, k) => ({ ...event(N + k), timestamp: new Date(T0 + 150 * 60_000 + k * 1000).toISOString() }));

const data = tempDir('leakscan-security-events-');
const admin = { zones: ['*'], permission: 'edit' as const };
let audit: Awaited<ReturnType<typeof openAuditLog>>;
let bucket: LocalBucket;
let index: EventIndex;
let alerts: Alerts;
let receiver: Server;
let d: Dash;
let b: Browser;
let answers: number[] = [503];

const page = `/zones/${Z}/security/events`;
const range = `since=${new Date(T0).toISOString().slice(0, 16)}&until=${new Date(NOW).toISOString().slice(0, 16)}`;

async function settle(): Promise<void> {
  for (;;) {
    await alerts.idle();
    const rows = (await alerts.answer({ method: 'GET', resource: 'history', account: alerts.accountId, id: undefined, body: undefined, query: new URLSearchParams(), token: admin, dryRun: false })).result as { status: string }[];
    if (rows.length > 0 && rows.every((r) => r.status !== 'pending')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  audit = await openAuditLog(data.dir);
  bucket = await openBucket({ dir: join(data.dir, 'events') });
  index = openEventIndex(join(data.dir, 'events-index.mdb'));
  const indexed = indexOnPut(bucket, index, batchOfKey, (e) => {
    throw e;
  });
  const log = new EventLog({ bucket: indexed, log: audit.log, size: 40, intervalMs: 60_000 });
  log.add(Z, all);
  await log.flush();
  await log.close();
  await indexed.put(batchKey(Z, 4), batchBytes(4, late));

  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(answers.shift() ?? 200).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  alerts = await Alerts.open(data.dir, { minEvents: 3, delivery: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 5 } });
  const call = async (c: Partial<AlertingCall>): Promise<unknown> =>
    (await alerts.answer({ method: 'GET', resource: 'history', account: alerts.accountId, id: undefined, body: undefined, query: new URLSearchParams(), token: admin, dryRun: false, ...c })).result;
  const hook = (await call({ method: 'POST', resource: 'webhooks', body: { name: 'soc receiver', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?key=s3cret` } })) as { id: string };
  const mechanisms = { webhooks: [{ id: hook.id }] };
  await call({ method: 'POST', resource: 'policies', body: { name: 'DLP spikes', alert_type: 'clickhouse_alert_fw_ent_anomaly', filters: { zones: [Z], services: ['dlp'] }, mechanisms } });
  await call({ method: 'POST', resource: 'policies', body: { name: 'Other zone only', alert_type: 'clickhouse_alert_fw_ent_anomaly', filters: { zones: [OTHER], services: ['dlp'] }, mechanisms } });
  alerts.observe(Z, all.slice(0, 3));
  await settle();

  d = await startDash({
    detections: new Detections(bucket, audit.log),
    events: { index, prove: (zone, id, batch) => proveEvent(bucket, audit.log, zone, id, audit.log.info().keys, batch === undefined ? {} : { batch }), alerts, now: () => NOW },
  });
  b = new Browser(d.base);
  await b.signIn(d.admin);
}, 60_000);

afterAll(async () => {
  await d?.close();
  await alerts?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await index?.close();
  await bucket?.close();
  await audit?.close();
  data.remove();
});

const ids = (text: string): string[] => [...text.matchAll(/<tr data-event="([^"]*)" data-batch/g)].map((m) => m[1]!);
const rulesShown = (text: string): string[] => [...text.matchAll(/<tr data-event="[^"]*" data-batch="\d+"><td[^>]*>[^<]*<\/td><td[^>]*><code>([^<]+)<\/code>/g)].map((m) => m[1]!);

/** Every event id of the list, following its Older links. */
async function everyId(first: string): Promise<string[]> {
  const out: string[] = [];
  let next: string | undefined = first;
  while (next !== undefined) {
    const r = await b.get(next);
    expect(r.status, next).toBe(200);
    out.push(...ids(r.text));
    next = /<a class="older" href="([^"]+)"/.exec(r.text)?.[1]?.replace(/&amp;/g, '&');
  }
  return out;
}

describe('Security › Events', () => {
  it('draws the counts per rule over time as an SVG chart with a title, a description and a table', async () => {
    const r = await b.get(`${page}?${range}`);
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/<svg class="chart" viewBox="0 0 \d+ \d+" role="img" aria-labelledby="chart-title chart-desc"/);
    expect(r.text).toMatch(/<title id="chart-title">Events per rule per 5 minutes, 2026-11-28 09:00 to 2026-11-28 12:00 UTC<\/title>/);
    expect(r.text).toContain(`<desc id="chart-desc">${N + late.length} events in 36 bars`);
    const bars = [...r.text.matchAll(/<rect [^>]*data-rule="([^"]+)" data-bucket="([^"]+)" data-count="(\d+)"/g)];
    const perRule = new Map<string, number>();
    for (const m of bars) perRule.set(m[1]!, (perRule.get(m[1]!) ?? 0) + Number(m[3]));
    const want = new Map<string, number>();
    for (const e of [...all, ...late]) want.set(e.ruleId, (want.get(e.ruleId) ?? 0) + 1);
    expect(perRule).toEqual(want);
    // The first bar holds minutes 0-4 of 09:00: events 0..4.
    const first = bars.filter((m) => m[2] === new Date(T0).toISOString()).reduce((n, m) => n + Number(m[3]), 0);
    expect(first).toBe(5);
    expect(r.text).toContain('<summary>The chart as a table (');
    expect(r.text).toContain('>Time (UTC)</text>');
    // The legend links each rule to its own events, keeping the other filters.
    expect(r.text).toMatch(new RegExp(`<li data-rule="us-ssn">.*?<a href="${page}\\?rule=us-ssn&amp;since=[^"&]+&amp;until=[^"&]+"`));
    // A day range counts per hour, from the index's hourly totals.
    const day = await b.get(page);
    expect(day.text).toMatch(/<title id="chart-title">Events per rule per hour, /);
    expect(day.text).toContain('(the last day: set From for earlier events)');
  });

  it('filters by rule, tag, confidence, host and time, and pages through every match once', async () => {
    const everything = [...all, ...late];
    const cases: [string, (e: PendingEvent) => boolean][] = [
      ['', () => true],
      ['rule=us-ssn', (e) => e.ruleId === 'us-ssn'],
      ['tag=aws', (e) => e.tags.includes('aws')],
      ['confidence=low', (e) => e.confidence === 'low'],
      ['host=api.example', (e) => e.host === 'api.example'],
      ['tag=pii&confidence=medium&host=shop.example', (e) => e.tags.includes('pii') && e.confidence === 'medium' && e.host === 'shop.example'],
      [`since=${new Date(T0 + 30 * 60_000).toISOString().slice(0, 16)}&until=${new Date(T0 + 45 * 60_000).toISOString().slice(0, 16)}`, (e) => Date.parse(e.timestamp) >= T0 + 30 * 60_000 && Date.parse(e.timestamp) < T0 + 45 * 60_000],
    ];
    for (const [q, keep] of cases) {
      const url = q.startsWith('since=') ? `${page}?${q}` : `${page}?${range}${q === '' ? '' : `&${q}`}`;
      const want = everything.filter(keep).sort((x, y) => Date.parse(y.timestamp) - Date.parse(x.timestamp) || (x.id < y.id ? 1 : -1)).map((e) => e.id);
      const got = await everyId(url);
      expect(got, q).toEqual(want);
      const r = await b.get(url);
      expect(r.text, q).toContain(`<strong>${want.length}</strong> events`);
      expect(ids(r.text).length, q).toBe(Math.min(kEventsPerPage, want.length));
    }
    const ssn = await b.get(`${page}?${range}&rule=us-ssn`);
    expect(new Set(rulesShown(ssn.text))).toEqual(new Set(['us-ssn']));
    expect(ssn.text).toContain('<option value="us-ssn" selected>');
    expect(ssn.text).toContain(' match the filter');
    // Stored text is shown as text.
    expect(ssn.text).toContain('/p/1&lt;script&gt;');
    expect(ssn.text).not.toContain('<script>');
  });

  it('exports the filtered events as NDJSON, oldest first, each field as the redaction left it', async () => {
    const r = await fetch(`${d.base}${page}.ndjson?${range}&rule=card-visa`, { headers: { cookie: b.cookie } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="leakscan-events-${Z}.ndjson"`);
    const lines = (await r.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const want = [...all, ...late].filter((e) => e.ruleId === 'card-visa');
    expect(lines.map((l) => l['id'])).toEqual(want.map((e) => e.id));
    expect(Object.keys(lines[0]!)).toEqual(['batch', 'seq', 'verification', 'id', 'timestamp', 'zone', 'ruleId', 'description', 'tags', 'confidence', 'host', 'method', 'path', 'status', 'contentType', 'requestId', 'start', 'end', 'redacted']);
    expect(lines[0]).toMatchObject({ verification: 'verified', batch: 1, tags: kTags['card-visa'], redacted: want[0]!.redacted });
    expect(lines.at(-1)).toMatchObject({ verification: 'pending', batch: 4 });
    // The page's export link carries its filter and its range.
    const shown = await b.get(`${page}?rule=card-visa`);
    expect(shown.text).toMatch(new RegExp(`<a href="${page}\\.ndjson\\?rule=card-visa&amp;since=[^"&]+&amp;until=[^"&]+" download>Export as NDJSON</a>`));
    // No session, no export.
    expect((await fetch(`${d.base}${page}.ndjson`, { redirect: 'manual' })).status).toBe(303);
  });

  it('shows each event\'s batch as verified or pending, and FAILED once the batch is altered, with no raw value', async () => {
    const r = await b.get(`${page}?${range}`);
    const states = [...r.text.matchAll(/<tr data-event="([^"]+)" data-batch="(\d+)">.*?<span class="badge" data-state="(\w+)"/g)].map((m) => [Number(m[2]), m[3]]);
    expect(new Set(states.filter(([n]) => n === 4).map(([, s]) => s))).toEqual(new Set(['pending']));
    expect(new Set(states.filter(([n]) => n !== 4).map(([, s]) => s))).toEqual(new Set(['verified']));
    // Pending: no proof yet; verified: a proof link.
    expect(r.text).toMatch(new RegExp(`<tr data-event="${late[0]!.id}" [^]*?<td><span class="hint">once signed</span></td></tr>`));
    const id = all[119]!.id;
    expect(r.text).toContain(`<a class="proof" href="${page}/${id}/proof?batch=3">proof</a>`);

    const key = batchKey(Z, 3);
    const original = await (await bucket.get(key))!.text();
    const raw = '4111111111111111';
    await bucket.put(key, original.replace(all[119]!.redacted, raw));
    try {
      const altered = await b.get(`${page}?${range}`);
      const row = new RegExp(`<tr data-event="${id}" data-batch="3">[^]*?<span class="badge" data-state="failed" title="([^"]+)">FAILED</span>`).exec(altered.text);
      expect(row?.[1]).toContain('VERIFY_DIGEST_MISMATCH');
      expect(altered.text).not.toContain(raw);
      expect(altered.text).toContain('************1111');
      const nd = await (await fetch(`${d.base}${page}.ndjson?${range}`, { headers: { cookie: b.cookie } })).text();
      expect(nd).not.toContain(raw);
      expect(JSON.parse(nd.split('\n').find((l) => l.includes(id))!)).toMatchObject({ verification: 'failed', redacted: '************1111' });
      // The proof of an event of an altered batch does not check.
      const proof = await b.get(`${page}/${id}/proof`);
      expect(proof.status).toBe(422);
      expect(proof.text).toMatch(/<code>SDD_ERR_PROOF_PATH<\/code>/);
    } finally {
      await bucket.put(key, original);
    }
    const back = await b.get(`${page}?${range}`);
    expect(back.text).toMatch(new RegExp(`<tr data-event="${id}" data-batch="3">[^]*?data-state="verified"`));
  });

  it('shows an event\'s inclusion proof, checked, and gives it as JSON', async () => {
    const id = all[50]!.id;
    const r = await b.get(`${page}/${id}/proof`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(`Checked: this event is leaf ${(50 % 40) + 1} of 41 of batch 2`);
    expect(r.text).toContain(`<code>${id}</code>`);
    const json = await fetch(`${d.base}${page}/${id}/proof.json`, { headers: { cookie: b.cookie } });
    expect(json.headers.get('content-disposition')).toBe(`attachment; filename="leakscan-proof-${id}.json"`);
    const body = (await json.json()) as { event: { id: string }; proof: unknown };
    expect(body.event.id).toBe(id);
    expect(checkEventProof(body.proof, audit.log.info().keys, { zone: Z, id })).toMatchObject({ valid: true });
    expect(r.text).toContain(`href="${page}/${id}/proof.json?batch=2" download>`);
    // The batch in the link is where to look first; a wrong one only costs the search of every batch.
    for (const hint of ['2', '1', '99']) expect((await b.get(`${page}/${id}/proof?batch=${hint}`)).text, hint).toContain('Checked: this event is leaf');
    expect((await b.get(`${page}/${id}/proof?batch=x`)).status).toBe(400);
    expect((await b.get(`${page}/${'f'.repeat(32)}-0/proof`)).status).toBe(404);
    expect((await b.get(`${page}/nope/proof`)).text).toContain('<code>SDD_ERR_EVENT_NOT_FOUND</code>');
  });

  it('refuses a bad parameter with its reason and the form as typed', async () => {
    const bad = [
      'rule=nope', 'tag=nope', 'confidence=certain', 'since=yesterday', 'until=2026-13-01', 'host=a%20b', 'before=abc', 'colour=red', 'rule=us-ssn&rule=card-visa',
      'since=2026-11-28T10:00&until=2026-11-28T09:00', 'since=2020-01-01&until=2026-01-01',
    ];
    for (const q of bad) {
      const r = await b.get(`${page}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.text, q).toContain('<code>SDD_ERR_INVALID_OPTION</code>');
      expect(r.text, q).toContain('<form method="get" action');
      expect((await fetch(`${d.base}${page}.ndjson?${q}`, { headers: { cookie: b.cookie } })).status, q).toBe(400);
    }
    expect((await b.get(`${page}?since=yesterday`)).text).toContain('name="since" step="1" value="yesterday"');
    expect((await b.get(`${page}?colour=red`)).text).toContain('unknown parameter &#39;colour&#39;: the page takes rule, tag, confidence, host, since, until, before');
  });

  it('is a Security section of the zone, for a session of a token of that zone', async () => {
    const zone = await b.get(`/zones/${Z}/sensitive-data`);
    expect(zone.text).toContain(`<a href="${page}">Events</a></nav>`);
    expect(zone.text).toContain(`<a href="${page}">Security events</a>`);
    expect((await b.get(page)).text).toContain(`<a href="${page}" aria-current="page">Events</a>`);
    expect((await new Browser(d.base).get(page)).status).toBe(303);
    expect((await b.get('/zones/nope/security/events')).status).toBe(404);
    const empty = await b.get(`/zones/${OTHER}/security/events`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('<desc id="chart-desc">0 events in ');
    expect(empty.text).toContain('<p>No event matches.</p>');
    expect((await b.post(page, {})).status).toBe(405);
    const other = await d.tokens.create({ name: 'other', zones: [OTHER], permission: 'read' });
    const o = new Browser(d.base);
    await o.signIn(other.token);
    expect((await o.get(page)).status).toBe(403);
  });

  it('lists the alert policies covering the zone and their deliveries, for a token of every zone', async () => {
    const r = await b.get(page);
    const policies = [...r.text.matchAll(/<tr data-policy="[^"]+"><td>([^<]+)<\/td><td>([^<]+)<\/td><td>(\w+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td>/g)].map((m) => m.slice(1));
    expect(policies).toEqual([['DLP spikes', 'Advanced Security Events Alert', 'Yes', 'this zone', 'dlp', 'soc receiver']]);
    const deliveries = [...r.text.matchAll(/<tr data-delivery="[^"]+"><td class="time">([^<]+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><td><span class="badge" data-state="(\w+)">\w+<\/span><\/td><td class="n">(\d+)<\/td>/g)].map((m) => m.slice(2));
    expect(deliveries).toEqual([['DLP spikes', 'soc receiver', 'delivered', '2']]);
    // The webhook's URL (which can hold a key) is not on the page.
    expect(r.text).not.toContain('s3cret');
    const zoneToken = await d.tokens.create({ name: 'zone', zones: [Z], permission: 'read' });
    const z = new Browser(d.base);
    await z.signIn(zoneToken.token);
    const limited = await z.get(page);
    expect(limited.status).toBe(200);
    expect(limited.text).toContain('sign in with a token for every zone to see them');
    expect(limited.text).not.toContain('data-policy=');
  });
});
