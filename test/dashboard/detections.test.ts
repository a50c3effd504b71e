/**
 * The detections page over a real events bucket and audit log: batches newest first, each checked
 * against its signed epoch as `leakscan verify` does (verified, pending before its epoch, failed when
 * altered), pages of whole batches, values shown as stored (redacted) and as text.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../src/audit/index.js';
import { Detections, kDetectionsPerPage } from '../../src/dashboard/index.js';
import { kScannedBatches } from '../../src/dashboard/handler.js';
import { batchKey, EventLog, type PendingEvent } from '../../src/eventlog/index.js';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';
import { Browser, startDash, type Dash } from './helpers.js';

const zone = 'abcdefabcdefabcdefabcdefabcdef02';
const perBatch = 50;
const batches = 6;

const kLevels = ['high', 'medium', 'low'] as const;

const kRules = ['card-visa', 'us-ssn', 'aws-access-key-id'] as const;
const kTags: Record<string, string[]> = { 'card-visa': ['financial-information', 'card'], 'us-ssn': ['pii', 'us'], 'aws-access-key-id': ['secrets', 'aws'] };

function events(n: number): PendingEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${'cd'.repeat(16)}-${i}`, timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(), zone, action: 'log' as const,
    rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId: i % 10 === 0 ? kRules[(i / 10) % 3]! : 'card-visa', description: 'Visa <card>', tags: kTags[i % 10 === 0 ? kRules[(i / 10) % 3]! : 'card-visa']!,
    host: 'shop.example', method: 'GET', path: `/p/${i}<script>`, status: 200, contentType: 'application/json', requestId: 'cd'.repeat(16),
    start: i, end: i + 16, redacted: `************${String(1000 + i)}`, confidence: kLevels[i % 3]!,
  }));
}

const data = tempDir('leakscan-detections-');
let audit: Awaited<ReturnType<typeof openAuditLog>>;
let bucket: LocalBucket;
let detections: Detections;
let d: Dash;
let b: Browser;

beforeAll(async () => {
  audit = await openAuditLog(data.dir);
  bucket = await openBucket({ dir: join(data.dir, 'events') });
  const log = new EventLog({ bucket, log: audit.log, size: perBatch, intervalMs: 60_000 });
  log.add(zone, events(perBatch * batches));
  await log.flush();
  await log.close();
  detections = new Detections(bucket, audit.log);
  d = await startDash({ detections });
  b = new Browser(d.base);
  await b.signIn(d.admin);
});
afterAll(async () => {
  await d?.close();
  await bucket?.close();
  await audit?.close();
  data.remove();
});

const page = `/zones/${zone}/sensitive-data/detections`;

describe('detections', () => {
  it('reads each batch and verifies it against its signed epoch', async () => {
    expect(await detections.batches(zone)).toEqual([1, 2, 3, 4, 5, 6]);
    const one = await detections.read(zone, 1);
    expect(one).toMatchObject({ batch: 1, key: batchKey(zone, 1), state: 'verified', problems: [] });
    expect(one.events).toHaveLength(perBatch);
    expect(one.events[0]).toMatchObject({ batch: 1, seq: 0, ruleId: 'card-visa', redacted: '************1000' });
  });

  it('shows whole batches newest first up to a page, then links to older ones', async () => {
    const r = await b.get(page);
    expect(r.status).toBe(200);
    const shown = [...r.text.matchAll(/data-batch="(\d+)" data-state="(\w+)"/g)].map((m) => [Number(m[1]), m[2]]);
    const perPage = Math.ceil(kDetectionsPerPage / perBatch);
    expect(shown).toEqual(Array.from({ length: perPage }, (_, i) => [batches - i, 'verified']));
    expect(r.text).toContain(`${batches * perBatch} events in the ${batches} batches; showing ${perPage * perBatch} in ${perPage} batches`);
    const older = /href="([^"]+\?before=(\d+))"/.exec(r.text);
    expect(Number(older?.[2])).toBe(batches - perPage + 1);
    const next = await b.get(older![1]!);
    expect([...next.text.matchAll(/data-batch="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: batches - perPage }, (_, i) => batches - perPage - i));
    expect(next.text).not.toContain('?before=');
    // Stored values are shown as text: the redacted value, and markup in a path or description escaped.
    expect(next.text).toContain('************1000');
    expect(next.text).toContain('/p/0&lt;script&gt;');
    expect(next.text).toContain('title="Visa &lt;card&gt;"');
    expect(next.text).not.toContain('<script>');
    // Each event's confidence in its own column.
    expect(next.text).toContain('<th>Confidence</th>');
    const levels = [...next.text.matchAll(/<td class="confidence" data-confidence="(\w+)">(\w+)<\/td>/g)].map((m) => [m[1], m[2]]);
    expect(levels).toHaveLength((batches - perPage) * perBatch);
    expect(new Set(levels.map(([a, b2]) => `${a}=${b2}`))).toEqual(new Set(['high=high', 'medium=medium', 'low=low']));
  });

  it('marks a batch not yet published as pending and an altered one as failed, naming the check', async () => {
    const key2 = batchKey(zone, 2);
    const original = await (await bucket.get(key2))!.text();
    await bucket.put(key2, original.replace('************1050', '****************'));
    const extra = `${JSON.stringify({ ...events(1)[0], batch: batches + 1, seq: 0 })}\n`;
    await bucket.put(batchKey(zone, batches + 1), extra);
    try {
      expect((await detections.read(zone, 2)).state).toBe('failed');
      expect((await detections.read(zone, 2)).problems).toEqual([expect.objectContaining({ code: 'VERIFY_DIGEST_MISMATCH' })]);
      expect((await detections.read(zone, batches + 1)).state).toBe('pending');
      const r = await b.get(`${page}?before=3`);
      expect(r.text).toMatch(/data-batch="2" data-state="failed"/);
      expect(r.text).toContain('VERIFY_DIGEST_MISMATCH');
      const top = await b.get(page);
      expect(top.text).toMatch(new RegExp(`data-batch="${batches + 1}" data-state="pending"`));
    } finally {
      await bucket.put(key2, original);
      await bucket.delete(batchKey(zone, batches + 1));
    }
    expect((await detections.read(zone, 2)).state).toBe('verified');
  });

  it('names the zone by the hosts of its stored events in the zone list', async () => {
    expect(await detections.hosts(zone)).toEqual(['shop.example']);
    expect((await b.get(page)).text).toContain('<p class="zone">Zone <span class="host" data-source="seen" title="seen in its detections">shop.example</span> ');
    // Events are made only for a zone with a configuration.
    await d.service.updateEntrypoint(zone, 'http_response_firewall_managed', { rules: [] });
    const list = await b.get('/');
    expect(list.text).toMatch(new RegExp(`<tr data-zone="${zone}"><td><a href="/zones/${zone}/sensitive-data"><span class="host" data-source="seen"[^>]*>shop.example</span>`));
    // A zone without events or mapping is listed by its id alone.
    await d.service.updateEntrypoint('f'.repeat(32), 'http_response_firewall_managed', { rules: [] });
    expect((await b.get('/')).text).toMatch(new RegExp(`<tr data-zone="${'f'.repeat(32)}"><td><a [^>]*><code>${'f'.repeat(32)}</code>`));
  });

  it('filters by rule, tag, confidence and time, and counts events per rule', async () => {
    const all = events(perBatch * batches);
    const count = (f: (e: PendingEvent) => boolean): number => all.filter(f).length;
    const eventsOn = (text: string): number => [...text.matchAll(/<td class="confidence"/g)].length;
    // Counts per rule over every stored event, the most first, each a link to that rule's events.
    const top = await b.get(page);
    const counts = [...top.text.matchAll(/<tr data-rule="([a-z0-9-]+)"[^>]*><td><a href="([^"]+)"><code>[^<]+<\/code><\/a><\/td><td class="n">(\d+)<\/td>/g)].map((m) => [m[1], Number(m[3]), m[2]]);
    expect(counts.map(([r, n]) => [r, n])).toEqual([
      ['card-visa', count((e) => e.ruleId === 'card-visa')],
      ['aws-access-key-id', count((e) => e.ruleId === 'aws-access-key-id')],
      ['us-ssn', count((e) => e.ruleId === 'us-ssn')],
    ].sort((a, b2) => (b2[1] as number) - (a[1] as number) || String(a[0]).localeCompare(String(b2[0]))));
    expect(counts.find(([r]) => r === 'us-ssn')![2]).toBe(`${page}?rule=us-ssn`);

    const ssn = await b.get(`${page}?rule=us-ssn`);
    expect(eventsOn(ssn.text)).toBe(count((e) => e.ruleId === 'us-ssn'));
    expect(ssn.text).toContain(`${count((e) => e.ruleId === 'us-ssn')} events match the filter`);
    expect(ssn.text).toContain('<option value="us-ssn" selected>');
    const aws = await b.get(`${page}?tag=aws&confidence=low`);
    expect(eventsOn(aws.text)).toBe(count((e) => e.tags.includes('aws') && e.confidence === 'low'));
    expect(eventsOn(aws.text)).toBeGreaterThan(0);
    // Time: since inclusive, until exclusive, in UTC; `datetime-local` sends minutes without a zone.
    const since = new Date(1_700_000_000_000 + 60_000).toISOString().slice(0, 16);
    const until = new Date(1_700_000_000_000 + 120_000).toISOString().slice(0, 16);
    const window = await b.get(`${page}?since=${since}&until=${until}`);
    expect(eventsOn(window.text)).toBe(60);
    // Counts under a filter count what the other filters keep, so each rule's link still shows.
    expect(aws.text).toMatch(/<tr data-rule="aws-access-key-id"[^>]*>.*?<td class="n">\d+<\/td>/);
    expect(aws.text).not.toMatch(/<tr data-rule="us-ssn"/);

    for (const bad of ['rule=nope', 'tag=nope', 'confidence=certain', 'since=yesterday', 'until=2026-13-01']) {
      const r = await b.get(`${page}?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.text, bad).toContain('<code>SDD_ERR_INVALID_OPTION</code>');
    }
  });

  it('exports the filtered events as NDJSON and CSV, field by field, oldest first', async () => {
    const nd = await fetch(`${d.base}${page}.ndjson?rule=us-ssn`, { headers: { cookie: b.cookie } });
    expect(nd.status).toBe(200);
    expect(nd.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(nd.headers.get('content-disposition')).toBe(`attachment; filename="leakscan-detections-${zone}.ndjson"`);
    const lines = (await nd.text()).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const want = events(perBatch * batches).filter((e) => e.ruleId === 'us-ssn');
    expect(lines.map((l) => l['id'])).toEqual(want.map((e) => e.id));
    expect(Object.keys(lines[0]!)).toEqual(['batch', 'seq', 'verification', 'id', 'timestamp', 'zone', 'ruleId', 'description', 'tags', 'confidence', 'host', 'method', 'path', 'status', 'contentType', 'requestId', 'start', 'end', 'redacted']);
    expect(lines[0]).toMatchObject({ verification: 'verified', ruleId: 'us-ssn', tags: ['pii', 'us'], redacted: want[0]!.redacted, path: want[0]!.path });

    const csv = await fetch(`${d.base}${page}.csv?confidence=high`, { headers: { cookie: b.cookie } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (await csv.text()).split('\r\n').filter((l) => l !== '');
    expect(rows[0]).toBe('"batch","seq","verification","id","timestamp","zone","ruleId","description","tags","confidence","host","method","path","status","contentType","requestId","start","end","redacted"');
    expect(rows).toHaveLength(1 + events(perBatch * batches).filter((e) => e.confidence === 'high').length);
    expect(rows[1]).toContain('"Visa <card>"');
    // Without a session, no export.
    expect((await fetch(`${d.base}${page}.csv`, { redirect: 'manual' })).status).toBe(303);
    expect((await b.get(`/zones/${zone}/sensitive-data/deploy.csv`)).status).toBe(404);
  });

  it('exports a formula-looking or quoted value as text, and re-masks a value altered in storage, on the page too', async () => {
    const key = batchKey(zone, 1);
    const original = await (await bucket.get(key))!.text();
    // The batch's header line (format 2) stays as it is; the events follow it.
    const [header, ...lines] = original.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    lines[0]!['path'] = '=HYPERLINK("http://evil.example","x")';
    lines[1]!['path'] = '+1-2';
    lines[2]!['path'] = '@SUM(A1)';
    lines[3]!['path'] = '\tx,"y"\r\nz';
    lines[4]!['redacted'] = '4111111111111111'; // a raw value written into the bucket behind the service's back
    await bucket.put(key, [header, ...lines].map((l) => `${JSON.stringify(l)}\n`).join(''));
    try {
      const csv = await (await fetch(`${d.base}${page}.csv`, { headers: { cookie: b.cookie } })).text();
      expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      expect(csv).toContain(`"'+1-2"`);
      expect(csv).toContain(`"'@SUM(A1)"`);
      expect(csv).toContain(`"'\tx,""y""\r\nz"`);
      // No cell starts with a formula character unless quoted and prefixed.
      expect(csv).not.toMatch(/(^|,)"[=+\-@]/m);
      const nd = await (await fetch(`${d.base}${page}.ndjson`, { headers: { cookie: b.cookie } })).text();
      expect(nd).not.toContain('4111111111111111');
      expect(csv).not.toContain('4111111111111111');
      const altered = nd.split('\n').filter((l) => l.includes(`"id":"${String(lines[4]!['id'])}"`));
      expect(altered).toHaveLength(1);
      expect(JSON.parse(altered[0]!)).toMatchObject({ verification: 'failed', redacted: '************1111' });
      // The page goes through the same choke point as the exports.
      const shown = await b.get(`/zones/${zone}/sensitive-data/detections`);
      expect(shown.text).not.toContain('4111111111111111');
      expect(shown.text).toContain('************1111');
    } finally {
      await bucket.put(key, original);
    }
  });

  it('counts and exports over the newest kScannedBatches batches, and says so', async () => {
    const many = 'abcdefabcdefabcdefabcdefabcdef03';
    const log = new EventLog({ bucket, log: audit.log, size: 1, intervalMs: 60_000 });
    const n = kScannedBatches + 2;
    log.add(many, events(n).map((e) => ({ ...e, zone: many })));
    await log.flush();
    await log.close();
    const r = await b.get(`/zones/${many}/sensitive-data/detections`);
    expect(r.text).toContain(`${kScannedBatches} events in the newest ${kScannedBatches} of ${n} batches`);
    const nd = await (await fetch(`${d.base}/zones/${many}/sensitive-data/detections.ndjson`, { headers: { cookie: b.cookie } })).text();
    const ids = nd.trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    // The two oldest batches are left out; the rest come oldest first.
    expect(ids).toEqual(events(n).slice(2).map((e) => e.id));
  });

  it('refuses a bad page number, needs a session and the zone, and links from the settings page', async () => {
    expect((await b.get(`${page}?before=abc`)).status).toBe(400);
    expect((await b.get(`${page}?before=0`)).status).toBe(400);
    expect((await new Browser(d.base).get(page)).status).toBe(303);
    const other = await d.tokens.create({ name: 'other', zones: ['b'.repeat(32)], permission: 'read' });
    const o = new Browser(d.base);
    await o.signIn(other.token);
    expect((await o.get(page)).status).toBe(403);
    expect((await b.get(`/zones/${zone}/sensitive-data`)).text).toContain(`href="/zones/${zone}/sensitive-data/detections"`);
    const empty = await b.get(`/zones/${'c'.repeat(32)}/sensitive-data/detections`);
    expect(empty.text).toContain('No detections stored for this zone yet.');
  });
});
