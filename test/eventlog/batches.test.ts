/**
 * The event log on a real bucket and a real audit log: batches by count and time, epochs per batch,
 * the start-up repair, the buffer bound, and what `verifyDataDir` reports for each kind of damage.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../src/audit/index.js';
import { createHash } from 'node:crypto';
import { batchBytes, batchKey, EventLog, namespaceOf, readZoneState, sha256Hex, type PendingEvent } from '../../src/eventlog/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import { openBucket, type StoreGetOptions } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';

const zone = 'abcdefabcdefabcdefabcdefabcdef01';

/** The RFC 9162 root of the lines, computed here (recursively, from the RFC's definition) and not by the code under test. */
function rfc9162Root(lines: readonly string[]): string {
  const h = (...parts: (Buffer | number[])[]) => parts.reduce((c, p) => c.update(Buffer.from(p)), createHash('sha256')).digest();
  const mth = (d: readonly Buffer[]): Buffer => {
    if (d.length === 1) return h([0], d[0]!);
    let k = 1;
    while (k * 2 < d.length) k *= 2;
    return h([1], mth(d.slice(0, k)), mth(d.slice(k)));
  };
  return mth(lines.map((l) => Buffer.from(l))).toString('hex');
}

function events(n: number, from = 0): PendingEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${'cd'.repeat(16)}-${from + i}`, timestamp: new Date(0).toISOString(), zone, action: 'log' as const,
    rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId: 'card-visa', description: 'Visa', tags: ['financial-information'],
    host: 'shop.example', method: 'GET', path: '/p', status: 200, contentType: 'application/json', requestId: 'cd'.repeat(16),
    start: from + i, end: from + i + 16, redacted: '************1111', confidence: 'high' as const,
  }));
}

async function open(dir: string) {
  const audit = await openAuditLog(dir);
  const bucket = await openBucket({ dir: join(dir, 'events') });
  return { audit, bucket, close: async () => { await bucket.close(); await audit.close(); } };
}

const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});
function temp(): string {
  const d = tempDir('leakscan-batches-');
  dirs.push(d);
  return d.dir;
}

describe('EventLog', () => {
  it('writes a batch per full buffer, a header first, and publishes the Merkle root of its lines as the next epoch', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 3, intervalMs: 60_000 });
    expect(log.add(zone, events(7))).toBe(7);
    await log.close();
    expect(log.stats).toMatchObject({ eventsAccepted: 7, eventsWritten: 7, batchesWritten: 3, epochsPublished: 3 });
    for (const [n, count] of [[1, 3], [2, 3], [3, 1]] as const) {
      const bytes = new Uint8Array(await (await s.bucket.get(batchKey(zone, n)))!.arrayBuffer());
      const text = Buffer.from(bytes).toString().trimEnd().split('\n');
      const [header, ...lines] = text.map((l) => JSON.parse(l) as { batch: number; seq: number; version?: number; events?: number; zone?: string });
      expect(header).toMatchObject({ version: 2, zone, batch: n, events: count });
      expect(lines.map((l) => [l.batch, l.seq])).toEqual(Array.from({ length: count }, (_, i) => [n, i]));
      expect((await s.audit.log.record(namespaceOf(zone), n)).digest).toBe(rfc9162Root(text));
    }
    await s.close();
    expect((await verifyDataDir(dir)).ok).toBe(true);
  });

  it('still verifies batches of format 1 (SHA-256 of the bytes), before and after format 2 ones', async () => {
    const dir = temp();
    const s = await open(dir);
    const bytes = batchBytes(1, events(2));
    await s.bucket.put(batchKey(zone, 1), bytes);
    await s.audit.log.createNamespace({ name: namespaceOf(zone) });
    await s.audit.log.publish(namespaceOf(zone), { epoch: 1, digest: sha256Hex(bytes) });
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log });
    log.add(zone, events(1, 2));
    await log.close();
    await s.close();
    const r = await verifyDataDir(dir);
    expect(r.zones[0]!.problems).toEqual([]);
    expect(r.zones[0]).toMatchObject({ batches: 2, epochs: 2, events: 3 });
    expect(r.zones[0]!.coverage).toMatchObject({ batches: 1 });
  });

  it('commits coverage counts with the events, and writes a coverage-only batch when nothing was found', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, intervalMs: 60_000, coverageIntervalMs: 20 });
    log.count(zone, 'scanned');
    log.count(zone, 'scanned', true);
    log.count(zone, 'binary');
    log.count(zone, 'filtered');
    log.count(zone, 'overBudget');
    // No events: one batch of the counts alone, after the coverage interval.
    await expect.poll(() => log.stats.epochsPublished, { timeout: 10_000 }).toBe(1);
    log.count(zone, 'scanned');
    log.add(zone, events(2));
    await log.flush();
    await log.close();
    await s.close();
    const r = await verifyDataDir(dir);
    expect(r.ok).toBe(true);
    const z = r.zones[0]!;
    expect(z).toMatchObject({ batches: 2, events: 2 });
    expect(z.coverage).toMatchObject({
      batches: 2, seen: 6, scanned: 3, truncated: 1, eventsDropped: 0,
      skipped: { overBudget: 1, binary: 1, filtered: 1, noBody: 0, queueFull: 0, failed: 0 },
    });
    expect(Date.parse(z.coverage!.from)).toBeLessThanOrEqual(Date.parse(z.coverage!.to));
  });

  it('chains the intervals: each batch starts where the previous one ended, across a restart', async () => {
    const dir = temp();
    let s = await open(dir);
    let log = new EventLog({ bucket: s.bucket, log: s.audit.log });
    log.count(zone, 'noBody');
    await log.close();
    await s.close();
    s = await open(dir);
    log = new EventLog({ bucket: s.bucket, log: s.audit.log });
    await log.recover();
    log.add(zone, events(1));
    await log.close();
    const headers = [];
    for (const n of [1, 2]) headers.push(JSON.parse(Buffer.from(await (await s.bucket.get(batchKey(zone, n)))!.arrayBuffer()).toString().split('\n')[0]!) as { from: string; to: string; coverage: { seen: number } });
    await s.close();
    expect(headers[1]!.from).toBe(headers[0]!.to);
    expect(headers.map((h) => h.coverage.seen)).toEqual([1, 0]);
  });

  it('reads the previous batch\'s end from its header alone, a range of its first bytes', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 2000, intervalMs: 60_000 });
    log.add(zone, events(2000));
    await log.close();
    const whole = new Uint8Array(await (await s.bucket.get(batchKey(zone, 1)))!.arrayBuffer());
    const header = JSON.parse(Buffer.from(whole.subarray(0, whole.indexOf(0x0a))).toString()) as { to: string };
    const gets: Array<{ key: string; range: unknown }> = [];
    const spied = new Proxy(s.bucket, {
      get: (target, prop) => {
        if (prop !== 'get') {
          // The bucket's methods read its private fields: call them on the bucket itself.
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        }
        return (key: string, o?: StoreGetOptions) => {
          gets.push({ key, range: o?.range });
          return target.get(key, o);
        };
      },
    });
    const st = await readZoneState(spied, s.audit.log, zone);
    expect(st).toMatchObject({ written: 1, published: 1, lastTo: header.to });
    expect(gets).toEqual([{ key: batchKey(zone, 1), range: { offset: 0, length: 4096 } }]);
    expect(whole.length).toBeGreaterThan(4096 * 10);
    await s.close();
  });

  it('counts events dropped at the buffer bound in the coverage of the batch', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, maxBuffered: 1 });
    log.add(zone, events(3));
    await log.close();
    await s.close();
    expect((await verifyDataDir(dir)).zones[0]!.coverage).toMatchObject({ eventsDropped: 2, seen: 0 });
  });

  it('fails a batch whose header was altered, and one whose event was', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 2 });
    log.count(zone, 'scanned');
    log.add(zone, events(4));
    await log.close();
    for (const [n, from, to] of [[1, '"seen":1', '"seen":0'], [2, '1111', '1112']] as const) {
      const text = Buffer.from(await (await s.bucket.get(batchKey(zone, n)))!.arrayBuffer()).toString();
      expect(text).toContain(from);
      await s.bucket.delete(batchKey(zone, n));
      await s.bucket.put(batchKey(zone, n), text.replace(from, to));
    }
    await s.close();
    const r = await verifyDataDir(dir);
    expect(r.zones[0]!.problems.map((p) => [p.code, p.batch])).toEqual([['VERIFY_DIGEST_MISMATCH', 1], ['VERIFY_BAD_BATCH', 1], ['VERIFY_DIGEST_MISMATCH', 2]]);
    expect(r.zones[0]!.coverage).toBeNull();
  });

  it('writes a partial batch after the interval', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 1000, intervalMs: 10 });
    log.add(zone, events(2));
    await expect.poll(() => log.stats.epochsPublished, { timeout: 10_000 }).toBe(1);
    expect(log.stats.batchesWritten).toBe(1);
    await log.close();
    await s.close();
  });

  it('drops and counts events beyond the buffer bound', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 1000, intervalMs: 60_000, maxBuffered: 5 });
    expect(log.add(zone, events(4))).toBe(4);
    expect(log.add(zone, events(4, 4))).toBe(1);
    expect(log.stats.eventsDropped).toBe(3);
    await log.close();
    expect(log.stats.eventsWritten).toBe(5);
    await s.close();
  });

  it('publishes batches written but not published, and numbers the next batch after them', async () => {
    const dir = temp();
    let s = await open(dir);
    let log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 2 });
    log.add(zone, events(2));
    await log.close();
    // Two batches written as the writer does, then a stop before their epochs.
    for (const n of [2, 3]) await s.bucket.put(batchKey(zone, n), `${JSON.stringify({ batch: n, seq: 0, zone })}\n`);
    await s.close();
    const before = await verifyDataDir(dir);
    expect(before.zones[0]!.problems.map((p) => [p.code, p.batch])).toEqual([['VERIFY_BATCH_WITHOUT_EPOCH', 2], ['VERIFY_BATCH_WITHOUT_EPOCH', 3]]);

    s = await open(dir);
    log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 2 });
    expect(await log.recover()).toEqual({ zones: 1, published: 2 });
    log.add(zone, events(1));
    await log.close();
    expect(await s.bucket.head(batchKey(zone, 4))).not.toBeNull();
    expect((await s.audit.log.latest(namespaceOf(zone))).epoch).toBe(4);
    await s.close();
    const after = await verifyDataDir(dir);
    expect(after.ok).toBe(true);
    expect(after.zones[0]).toMatchObject({ zone, batches: 4, epochs: 4, events: 5 });
  });
});

describe('EventLog with a disabled namespace', () => {
  it('keeps writing batches, counts the refused publishes, and still starts', async () => {
    const dir = temp();
    const s = await open(dir);
    let log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 1 });
    log.add(zone, events(1));
    await log.close();
    await s.audit.log.disable(namespaceOf(zone));
    log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 1 });
    log.add(zone, events(1, 1));
    await log.close();
    expect(log.stats).toMatchObject({ batchesWritten: 1, epochsPublished: 0, publishErrors: 1 });
    const again = new EventLog({ bucket: s.bucket, log: s.audit.log });
    expect(await again.recover()).toEqual({ zones: 1, published: 0 });
    expect(again.stats.publishErrors).toBe(1);
    await again.close();
    await s.close();
    const r = await verifyDataDir(dir);
    expect(r.zones[0]!.problems.map((p) => [p.code, p.batch])).toEqual([['VERIFY_BATCH_WITHOUT_EPOCH', 2]]);
  });
});

describe('verifyDataDir', () => {
  it('reports gaps, stray keys, foreign lines and signatures from another key', async () => {
    const dir = temp();
    let s = await open(dir);
    let log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 1 });
    log.add(zone, events(3));
    await log.close();
    // Batch 4 carries another zone's event; the repair publishes it as it is stored.
    await s.bucket.put(batchKey(zone, 4), `${JSON.stringify({ batch: 4, seq: 0, zone: '0'.repeat(32) })}\n`);
    await s.close();
    s = await open(dir);
    log = new EventLog({ bucket: s.bucket, log: s.audit.log });
    await log.recover();
    await log.close();
    // Batch 2 and its epoch both removed (a gap), and a key that is not a batch.
    await s.bucket.delete(batchKey(zone, 2));
    await s.audit.bucket.delete(`epochs/${namespaceOf(zone)}/${'2'.padStart(16, '0')}`);
    await s.bucket.put(`events/${zone}/notes.txt`, 'x');
    await s.close();

    const r = await verifyDataDir(dir);
    expect(r.ok).toBe(false);
    expect(r.zones[0]!.problems.map((p) => [p.code, p.batch, p.key])).toEqual([
      ['VERIFY_UNEXPECTED_KEY', null, `events/${zone}/notes.txt`],
      ['VERIFY_GAP', 2, batchKey(zone, 2)],
      ['VERIFY_BAD_BATCH', 4, batchKey(zone, 4)],
    ]);

    // Another valid key did not sign these records.
    const other = await verifyDataDir(dir, { zone, publicKey: '606a878700158d92b3a14a0fd37ec82e0f05f92fcf23146abfda2e3a2f10a9bc' });
    expect(other.zones[0]!.problems.filter((p) => p.code === 'VERIFY_BAD_SIGNATURE').map((p) => p.batch)).toEqual([1, 3, 4]);
  });
});
