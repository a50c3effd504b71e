/**
 * The one queue between capture and scan (src/pool/body-queue.ts): a captured body is copied once,
 * chunk by chunk, into the pool's shared memory, never joined first; the queue bounds waiting bodies
 * and outlives a swap of pools.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScanner } from '../../src/scanner.js';
import type { PoolScanner } from '../../src/pool/pool-scanner.js';
import { BodyQueue, handOverQueue, type ScanJob } from '../../src/pool/body-queue.js';
import { SharedBytes, gatherBody, gatherChunks } from '../../src/pool/body.js';
import type { ScanMeta, ScanReport } from '../../src/types.js';
import { kTestCard, randomCuts } from './helpers.js';

const kRules = { disable: ['pii', 'secrets'] };
const kJson = { contentType: 'application/json' };

function cardBody(i: number, pad = 2000): Buffer {
  return Buffer.from(JSON.stringify({ i, card: kTestCard, pad: 'x'.repeat(pad) }));
}

/** Reserves and submits `body` in `cuts`; resolves with its report (null when the scan failed). */
function submit(queue: BodyQueue, body: Buffer, cuts: number, meta: ScanMeta = kJson): { queued: boolean; report: Promise<ScanReport | null> } {
  expect(queue.reserve(body.length)).toBe(true);
  let done!: (r: ScanReport | null) => void;
  const report = new Promise<ScanReport | null>((resolve) => (done = resolve));
  const chunks = randomCuts(body, cuts, Math.max(1, Math.ceil(body.length / cuts))).map((c) => Buffer.from(c));
  const job: ScanJob = { chunks, bytes: body.length, meta, done };
  const queued = queue.submit(job);
  // A queued body is in shared memory now: the job no longer holds its chunks.
  if (queued) expect(job.chunks).toEqual([]);
  return { queued, report };
}

describe('gatherChunks', () => {
  it('gives what gatherBody gives on the chunks joined, plain and encoded, under and over the cap', () => {
    const shared = new SharedBytes();
    const plain = Buffer.from('a'.repeat(5000) + kTestCard + 'b'.repeat(5000));
    const gz = gzipSync(plain);
    const cases: Array<[Buffer, ScanMeta]> = [
      [plain, kJson],
      [gz, { ...kJson, contentEncoding: 'gzip' }],
      [plain, { ...kJson, contentEncoding: 'x-unknown' }],
    ];
    for (const [body, meta] of cases) {
      for (const maxBytes of [1 << 20, 4096, 1]) {
        for (const seed of [1, 2, 3]) {
          const chunks = randomCuts(body, seed, 900);
          const once = gatherChunks(chunks, meta, maxBytes, shared);
          const joined = gatherBody(Buffer.concat(chunks), meta, maxBytes, false, shared);
          expect({ ...once, bytes: Buffer.from(once.bytes) }).toEqual({ ...joined, bytes: Buffer.from(joined.bytes) });
        }
      }
    }
  });
});

describe('BodyQueue', () => {
  let pool: PoolScanner;
  beforeAll(async () => {
    pool = (await createScanner({ ...kRules, workers: 1, taskTimeout: 10_000 })) as PoolScanner;
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('copies each body once into shared memory, never joining its chunks', async () => {
    const queue = new BodyQueue(() => pool);
    const take = vi.spyOn(SharedBytes.prototype, 'take');
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const bodies = Array.from({ length: 12 }, (_, i) => submit(queue, cardBody(i), 1 + (i % 5)));
      const reports = await Promise.all(bodies.map((b) => b.report));
      expect(reports.every((r) => r?.findings.length === 1)).toBe(true);
      expect(take).toHaveBeenCalledTimes(12);
      expect(concat).not.toHaveBeenCalled();
    } finally {
      take.mockRestore();
      concat.mockRestore();
    }
    await queue.idle();
    expect(queue.stats()).toEqual({ bodiesScanned: 12, bodiesSkipped: 0, bodiesDropped: 0, scanErrors: 0, bytesHeld: 0, waiting: 0, scanning: 0 });
  });

  it('refuses and counts a body past maxJobs waiting, and gives its bytes back', async () => {
    const queue = new BodyQueue(() => pool, { maxJobs: 2 });
    // One worker takes two tasks at once (a body each, sent as they come); two more wait; the fifth is refused.
    const bodies = Array.from({ length: 5 }, (_, i) => submit(queue, cardBody(i), 2));
    expect(bodies.map((b) => b.queued)).toEqual([true, true, true, true, false]);
    expect(queue.hasRoom()).toBe(false);
    expect(queue.stats()).toMatchObject({ bodiesDropped: 1, waiting: 2, scanning: 2 });
    await queue.idle();
    expect(queue.stats()).toMatchObject({ bodiesScanned: 4, bodiesDropped: 1, bytesHeld: 0, waiting: 0, scanning: 0 });
  });

  it('hands its waiting bodies to the next pool, which scans them', async () => {
    const next = (await createScanner({ ...kRules, workers: 1, minConfidence: 'low' })) as PoolScanner;
    let current = pool;
    const queue = new BodyQueue(() => current);
    try {
      const before = { old: pool.stats().tasks, next: next.stats().tasks };
      const bodies = Array.from({ length: 6 }, (_, i) => submit(queue, cardBody(i), 3));
      expect(queue.stats().waiting).toBe(4);
      handOverQueue(pool, next);
      current = next;
      const reports = await Promise.all(bodies.map((b) => b.report));
      expect(reports.every((r) => r?.findings.length === 1)).toBe(true);
      expect(pool.stats().tasks - before.old).toBe(2);
      expect(next.stats().tasks - before.next).toBeGreaterThan(0);
      await queue.idle();
      expect(queue.stats()).toMatchObject({ bodiesScanned: 6, waiting: 0, scanning: 0, bytesHeld: 0 });
    } finally {
      await next.close();
    }
  });
});
