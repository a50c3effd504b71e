/**
 * Events over the bus and the stateless, competing batcher, against a real nats-server (JetStream)
 * and the embedded store, in the layout `serve` uses (so `verifyDataDir` checks what batchers wrote).
 * Issue 35, part 2. Skipped, with the reason printed, where nats-server cannot start.
 */
import { headers } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Batcher, connectBus, ensureEventsStream, EventPublisher, eventsSubject, kKindHeader } from '../../src/fleet/index.js';
import { batchKey, readBatchLines, type PendingEvent } from '../../src/eventlog/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import { tempDir } from '../serve/helpers.js';
import { exchangeEvents, natsOrReason, openDataDir, randomZone, type DataDir } from './helpers.js';

const started = await natsOrReason();

/** Every event line of the zone's batches 1…, with the batch it is in, and the coverage they sum to. */
async function stored(d: DataDir, zone: string): Promise<{ batches: number; ids: string[]; seen: number; scanned: number }> {
  const ids: string[] = [];
  let seen = 0;
  let scanned = 0;
  let n = 1;
  for (;; n++) {
    const o = await d.events.get(batchKey(zone, n));
    if (o === null) break;
    const lines = readBatchLines(new Uint8Array(await o.arrayBuffer()), zone, n);
    expect(lines.problem, `batch ${n}`).toBeNull();
    for (const e of lines.objects) ids.push(e.id as string);
    seen += lines.header!.coverage.seen;
    scanned += lines.header!.coverage.scanned;
  }
  return { batches: n - 1, ids, seen, scanned };
}

if (typeof started === 'string') {
  describe.skip(`fleet batcher (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const nats = started;
  afterAll(() => nats.stop());
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const dataDir = async (): Promise<{ dir: string; d: DataDir }> => {
    const t = tempDir('leakscan-fleet-');
    const d = await openDataDir(t.dir);
    cleanup.push(() => t.remove());
    cleanup.push(() => d.close());
    return { dir: t.dir, d };
  };
  const bus = async (name: string) => {
    const nc = await connectBus(nats.url, name);
    cleanup.push(() => nc.close());
    return nc;
  };

  describe('events over the bus', () => {
    it('stores a republished event once: same Nats-Msg-Id, dropped by the stream, one line in one batch', async () => {
      const zone = randomZone();
      const nc = await bus('publisher');
      await ensureEventsStream(nc);
      const events = exchangeEvents(zone, 3);
      const a = new EventPublisher(nc);
      const b = new EventPublisher(await bus('publisher-2'));
      expect(await a.events(zone, events)).toBe(true);
      // A retry by the same publisher and a redelivered scan elsewhere: both the same ids.
      expect(await a.events(zone, events)).toBe(true);
      expect(await b.events(zone, events.slice(1))).toBe(true);
      expect(await a.outcome(zone, { requestId: events[0]!.requestId, outcome: 'scanned', truncated: false })).toBe(true);
      expect(await b.outcome(zone, { requestId: events[0]!.requestId, outcome: 'scanned', truncated: false })).toBe(true);
      expect(a.stats.duplicates + b.stats.duplicates).toBe(6);

      const { dir, d } = await dataDir();
      const batcher = new Batcher({ nc, bucket: d.events, log: d.audit.log, intervalMs: 60_000 });
      await batcher.pass();
      const s = await stored(d, zone);
      expect(s.ids.sort()).toEqual(events.map((e) => e.id).sort());
      expect(s).toMatchObject({ batches: 1, seen: 1, scanned: 1 });
      expect(batcher.stats).toMatchObject({ batchesWritten: 1, eventsWritten: 3, epochsPublished: 1 });
      // Nothing new: another pass writes nothing.
      await batcher.pass();
      expect((await stored(d, zone)).batches).toBe(1);
      await d.close();
      const report = await verifyDataDir(dir, { zone });
      expect(report.ok, JSON.stringify(report.zones[0]?.problems)).toBe(true);
      expect(report.zones[0]).toMatchObject({ batches: 1, epochs: 1, events: 3 });
    });

    it('skips, counts and reports messages that are not what events.<zone> carries, and moves past them', async () => {
      const zone = randomZone();
      const nc = await bus('raw');
      await ensureEventsStream(nc);
      const js = jetstream(nc);
      const kind = (k: string) => {
        const h = headers();
        h.set(kKindHeader, k);
        return h;
      };
      await js.publish(eventsSubject(zone), 'not json', { headers: kind('event') });
      await js.publish(eventsSubject(zone), JSON.stringify({ ...exchangeEvents(randomZone(), 1)[0] }), { headers: kind('event') });
      await js.publish(eventsSubject(zone), '{}', { headers: kind('something') });
      const good = exchangeEvents(zone, 1);
      // An extra field does not reach the batch: events are rebuilt from the fields the format names.
      await js.publish(eventsSubject(zone), JSON.stringify({ ...good[0], raw: '4111111111111111' }), { headers: kind('event') });
      const errors: unknown[] = [];
      const { d } = await dataDir();
      const batcher = new Batcher({ nc, bucket: d.events, log: d.audit.log, intervalMs: 60_000, onError: (e) => errors.push(e) });
      await batcher.pass();
      expect(batcher.stats.malformed).toBe(3);
      expect(errors.map((e) => (e as { code?: string }).code)).toEqual(['SDD_ERR_BUS_MESSAGE', 'SDD_ERR_BUS_MESSAGE', 'SDD_ERR_BUS_MESSAGE']);
      const s = await stored(d, zone);
      expect(s.ids).toEqual([good[0]!.id]);
      const bytes = Buffer.from(await (await d.events.get(batchKey(zone, 1)))!.arrayBuffer()).toString();
      expect(bytes).not.toContain('4111111111111111');
      await batcher.pass();
      expect(batcher.stats.malformed).toBe(3);
    });
  });

  describe('competing batchers', () => {
    it('two batchers on one bucket and stream: contiguous batches, each event exactly once, verify passes', async () => {
      const zones = [randomZone(), randomZone()];
      const { dir, d } = await dataDir();
      const pub = new EventPublisher(await bus('publisher'));
      await ensureEventsStream(await bus('setup'));
      // Small batches, so the two race for many numbers.
      const a = new Batcher({ nc: await bus('batcher-a'), bucket: d.events, log: d.audit.log, size: 7, intervalMs: 60_000 });
      const b = new Batcher({ nc: await bus('batcher-b'), bucket: d.events, log: d.secondLog(), size: 7, intervalMs: 60_000 });
      const sent = new Map<string, string[]>(zones.map((z) => [z, []]));
      for (let round = 0; round < 8; round++) {
        const publishes: Promise<boolean>[] = [];
        for (const zone of zones) {
          for (let x = 0; x < 5; x++) {
            const ev: PendingEvent[] = exchangeEvents(zone, 1 + ((round + x) % 3));
            sent.get(zone)!.push(...ev.map((e) => e.id));
            publishes.push(pub.events(zone, ev));
          }
        }
        expect((await Promise.all(publishes)).every(Boolean)).toBe(true);
        await Promise.all([a.pass(), b.pass(), a.pass()]);
      }
      await Promise.all([a.pass(), b.pass()]);
      for (const zone of zones) {
        const s = await stored(d, zone);
        // Exactly once: nothing lost, nothing twice.
        expect(s.ids.length).toBe(sent.get(zone)!.length);
        expect(new Set(s.ids)).toEqual(new Set(sent.get(zone)));
      }
      expect(a.stats.errors + b.stats.errors).toBe(0);
      console.log(`[fleet] races lost: ${a.stats.racesLost + b.stats.racesLost}, batches: ${a.stats.batchesWritten + b.stats.batchesWritten}`);
      await d.close();
      const report = await verifyDataDir(dir);
      expect(report.ok, JSON.stringify(report.zones.flatMap((z) => z.problems))).toBe(true);
    });
  });
}
