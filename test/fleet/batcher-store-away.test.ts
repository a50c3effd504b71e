/**
 * A batcher started while its store does not answer (the bucket and the audit log's bucket both
 * refusing, as with radosgw killed): it starts all the same, logs and counts the failed steps, and once
 * the store answers writes what waited in the stream, each event once, with its epoch. Against a real
 * nats-server and the embedded store behind a switch. Skipped, with the reason printed, where
 * nats-server cannot start.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/audit/index.js';
import { Batcher, connectBus, ensureEventsStream, EventPublisher } from '../../src/fleet/index.js';
import { batchKey, readBatchLines } from '../../src/eventlog/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import type { StoreBucket } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';
import { exchangeEvents, natsOrReason, openDataDir, randomZone } from './helpers.js';

const started = await natsOrReason();

/** `bucket`, whose every method rejects as a refused connection while `state.away`. */
function switchable(bucket: StoreBucket, state: { away: boolean }): StoreBucket {
  return new Proxy(bucket, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (state.away ? Promise.reject(new Error('connect ECONNREFUSED (the store is away)')) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

if (typeof started === 'string') {
  describe.skip(`batcher with its store away (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const nats = started;
  afterAll(() => nats.stop());

  describe('batcher with its store away', () => {
    it('starts, logs each failed step, and writes the waiting events once the store answers', async () => {
      const t = tempDir('leakscan-fleet-away-');
      const d = await openDataDir(t.dir);
      const nc = await connectBus(nats.url, 'batcher-away');
      const state = { away: true };
      const errors: string[] = [];
      const s = d.audit.material.signing;
      const log = new AuditLog({ bucket: switchable(d.audit.bucket, state), signer: s.signer, keys: s.keys, notBefore: s.notBefore });
      const batcher = new Batcher({ nc, bucket: switchable(d.events, state), log, size: 100, intervalMs: 100, onError: (e) => errors.push((e as Error).message) });
      try {
        const zone = randomZone();
        await ensureEventsStream(nc);
        const events = exchangeEvents(zone, 3);
        const pub = new EventPublisher(nc);
        expect(await pub.events(zone, events)).toBe(true);
        expect(await pub.outcome(zone, { requestId: events[0]!.requestId, outcome: 'scanned', truncated: false })).toBe(true);

        // The listing of the zones fails: logged and counted, and the batcher runs on.
        await batcher.start();
        expect(errors.length).toBeGreaterThan(0);
        expect(errors[0]).toMatch(/ECONNREFUSED/);
        // Its passes fail too, nothing is written, and it keeps passing.
        const afterStart = batcher.stats.errors;
        for (let i = 0; i < 100 && batcher.stats.errors < afterStart + 2; i++) await new Promise((r) => setTimeout(r, 100));
        expect(batcher.stats.errors).toBeGreaterThanOrEqual(afterStart + 2);
        expect(batcher.stats.batchesWritten).toBe(0);

        state.away = false;
        for (let i = 0; i < 100 && batcher.stats.epochsPublished < 1; i++) await new Promise((r) => setTimeout(r, 100));
        await batcher.close();
        expect(batcher.stats).toMatchObject({ batchesWritten: 1, eventsWritten: 3, epochsPublished: 1 });
        const o = await d.events.get(batchKey(zone, 1));
        const lines = readBatchLines(new Uint8Array(await o!.arrayBuffer()), zone, 1);
        expect(lines.objects.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
        expect(await d.events.get(batchKey(zone, 2))).toBeNull();
        const report = await verifyDataDir(t.dir, { zone });
        expect(report.ok, JSON.stringify(report.zones[0]?.problems)).toBe(true);
      } finally {
        await batcher.close().catch(() => {});
        await nc.close();
        await d.close();
        t.remove();
      }
    });
  });
}
