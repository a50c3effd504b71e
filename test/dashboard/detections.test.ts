/**
 * The detections page over a real events bucket and audit log: batches newest first, each checked
 * against its signed epoch as `leakscan verify` does (verified, pending before its epoch, failed when
 * altered), pages of whole batches, values shown as stored (redacted) and as text.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../src/audit/index.js';
import { kDetectionsPerPage } from '../../src/dashboard/index.js';
import { batchKey, Detections, EventLog, type PendingEvent } from '../../src/serve/index.js';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';
import { Browser, startDash, type Dash } from './helpers.js';

const zone = 'abcdefabcdefabcdefabcdefabcdef02';
const perBatch = 50;
const batches = 6;

const kLevels = ['high', 'medium', 'low'] as const;

function events(n: number): PendingEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${'cd'.repeat(16)}-${i}`, timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(), zone, action: 'log' as const,
    rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId: 'card-visa', description: 'Visa <card>', tags: ['financial-information'],
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
    expect(r.text).toContain(`${perPage * perBatch} events in ${perPage} of ${batches} batches`);
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
    // Events are made only for a zone with a configuration.
    await d.service.updateEntrypoint(zone, 'http_response_firewall_managed', { rules: [] });
    const list = await b.get('/');
    expect(list.text).toMatch(new RegExp(`<tr data-zone="${zone}"><td><a href="/zones/${zone}/sensitive-data"><span class="host" data-source="seen"[^>]*>shop.example</span>`));
    // A zone without events or mapping is listed by its id alone.
    await d.service.updateEntrypoint('f'.repeat(32), 'http_response_firewall_managed', { rules: [] });
    expect((await b.get('/')).text).toMatch(new RegExp(`<tr data-zone="${'f'.repeat(32)}"><td><a [^>]*><code>${'f'.repeat(32)}</code>`));
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
