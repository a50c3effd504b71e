/**
 * The event log on a real bucket and a real audit log: batches by count and time, epochs per batch,
 * the start-up repair, the buffer bound, and what `verifyDataDir` reports for each kind of damage.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../src/audit/index.js';
import { batchKey, EventLog, namespaceOf, sha256Hex, verifyDataDir, type PendingEvent } from '../../src/serve/index.js';
import { openBucket } from '../../src/storage/index.js';
import { tempDir } from './helpers.js';

const zone = 'abcdefabcdefabcdefabcdefabcdef01';

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
  it('writes a batch per full buffer and publishes its SHA-256 as the next epoch', async () => {
    const dir = temp();
    const s = await open(dir);
    const log = new EventLog({ bucket: s.bucket, log: s.audit.log, size: 3, intervalMs: 60_000 });
    expect(log.add(zone, events(7))).toBe(7);
    await log.close();
    expect(log.stats).toMatchObject({ eventsAccepted: 7, eventsWritten: 7, batchesWritten: 3, epochsPublished: 3 });
    for (const [n, count] of [[1, 3], [2, 3], [3, 1]] as const) {
      const bytes = new Uint8Array(await (await s.bucket.get(batchKey(zone, n)))!.arrayBuffer());
      const lines = Buffer.from(bytes).toString().trimEnd().split('\n').map((l) => JSON.parse(l) as { batch: number; seq: number });
      expect(lines.map((l) => [l.batch, l.seq])).toEqual(Array.from({ length: count }, (_, i) => [n, i]));
      expect((await s.audit.log.record(namespaceOf(zone), n)).digest).toBe(sha256Hex(bytes));
    }
    await s.close();
    expect((await verifyDataDir(dir)).ok).toBe(true);
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
