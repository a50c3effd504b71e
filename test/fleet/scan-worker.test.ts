/**
 * The scan worker against a real nats-server: bodies pulled from the work queue, scanned with the
 * thresholds they came with, events published with the exchange's ids and the body acknowledged after
 * them; a body whose worker dies before the ack is delivered again and its events are stored once;
 * malformed bodies are terminated and counted. Issue 35, part 2.
 */
import { randomBytes } from 'node:crypto';
import { headers } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createScanner } from '../../src/index.js';
import { Batcher, bodiesSubject, connectBus, encodeEnvelope, ensureBodiesStream, kBodiesStream, kExchangeHeader, ScanWorker, type BodyEnvelope } from '../../src/fleet/index.js';
import { batchKey, readBatchLines } from '../../src/eventlog/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import type { Scanner } from '../../src/types.js';
import { LevelledScanner } from '../../src/serve/index.js';
import { syntheticCard } from '../cli/helpers.js';
import { tempDir } from '../serve/helpers.js';
import { natsOrReason, openDataDir, randomZone } from './helpers.js';

const started = await natsOrReason();

function envelope(zone: string, path = '/account'): BodyEnvelope {
  return {
    info: {
      requestId: randomBytes(16).toString('hex'),
      timestamp: Date.now(),
      zone,
      method: 'GET',
      status: 200,
      contentEncoding: null,
      fields: { host: 'shop.example', path, contentType: 'application/json' },
    },
    thresholds: { 'card-visa': 'high', 'card-mastercard': 'high' },
    overflowed: false,
  };
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

if (typeof started === 'string') {
  describe.skip(`scan-worker (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const nats = started;
  let scanner: Scanner;
  afterAll(async () => {
    await scanner?.close();
    await nats.stop();
  });
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  const bus = async (name: string) => {
    const nc = await connectBus(nats.url, name);
    cleanup.push(() => nc.close());
    return nc;
  };
  const publishBody = async (env: BodyEnvelope, body: string): Promise<void> => {
    const nc = await bus('serve');
    await ensureBodiesStream(nc);
    const h = headers();
    h.set(kExchangeHeader, encodeEnvelope(env));
    await jetstream(nc).publish(bodiesSubject(env.info.zone), body, { headers: h, msgID: env.info.requestId });
  };
  const pending = async (): Promise<number> => (await (await jetstreamManager(await bus('probe'))).streams.info(kBodiesStream)).state.messages;

  describe('leakscan scan-worker', () => {
    it('publishes the events of a body it was killed before acknowledging once, after the body comes back', async () => {
      scanner ??= await createScanner({ allRules: true, minConfidence: 'low', workers: 0 });
      const zone = randomZone();
      const card = syntheticCard();
      const env = envelope(zone, `/acct/${card}`);
      await publishBody(env, JSON.stringify({ card, other: 'nothing here' }));
      await publishBody(envelope(zone), JSON.stringify({ hello: 'world' }));

      // The first worker "dies" after its publishes are acknowledged, before its acks: it never acks.
      const dying = new ScanWorker({ nc: await bus('w1'), scanner, ackWaitMs: 1000, beforeAck: () => { throw new Error('killed before ack'); } });
      await dying.start();
      await until(() => dying.stats.events >= 1, 'the first worker to publish');
      await dying.close();
      expect(await pending()).toBe(2);
      // The second gets both bodies again once the ack wait is over, and acknowledges them.
      const worker = new ScanWorker({ nc: await bus('w2'), scanner, ackWaitMs: 1000 });
      await worker.start();
      await until(async () => (await pending()) === 0, 'the bodies to be acknowledged');
      await worker.close();
      expect(worker.stats).toMatchObject({ bodies: 2, events: 1, malformed: 0 });

      const t = tempDir('leakscan-worker-');
      cleanup.push(() => t.remove());
      const d = await openDataDir(t.dir);
      const batcher = new Batcher({ nc: await bus('batcher'), bucket: d.events, log: d.audit.log, intervalMs: 60_000 });
      await batcher.pass();
      const o = await d.events.get(batchKey(zone, 1));
      const bytes = new Uint8Array(await o!.arrayBuffer());
      const lines = readBatchLines(bytes, zone, 1);
      expect(lines.problem).toBeNull();
      // One event, though two workers published it; two responses seen, both scanned.
      expect(lines.objects).toHaveLength(1);
      expect(lines.objects[0]).toMatchObject({ id: `${env.info.requestId}-0`, ruleId: 'card-visa', redacted: `${'*'.repeat(12)}${card.slice(-4)}` });
      expect(lines.header!.coverage).toMatchObject({ seen: 2, scanned: 2 });
      // The path held the card too: masked before it was published.
      expect(Buffer.from(bytes).toString()).not.toContain(card);
      await d.close();
      expect((await verifyDataDir(t.dir, { zone })).ok).toBe(true);
    });

    it('dense bodies past the in-flight bound wait for room: scanned once, never given back, every event stored once', async () => {
      scanner ??= await createScanner({ allRules: true, minConfidence: 'low', workers: 0 });
      const zone = randomZone();
      const card = syntheticCard();
      // 4 bodies of 120 cards each, all in hand at once, against room for 50 event messages.
      const envs = Array.from({ length: 4 }, () => envelope(zone));
      const dense = JSON.stringify({ cards: Array.from({ length: 120 }, () => card) });
      for (const env of envs) await publishBody(env, dense);
      let scans = 0;
      const counting: Scanner = Object.assign(Object.create(scanner) as Scanner, {
        // Bodies only: the exchange's fields are scanned through here too.
        analyze: (...args: Parameters<Scanner['analyze']>) => {
          if (typeof args[0] !== 'string' && (args[0] as Uint8Array).byteLength === dense.length) scans++;
          return scanner.analyze(...args);
        },
      });
      const worker = new ScanWorker({ nc: await bus('dense'), scanner: counting, concurrency: 4, maxInFlight: 50 });
      await worker.start();
      await until(async () => (await pending()) === 0, 'the dense bodies to be acknowledged');
      await worker.close();
      expect(worker.stats).toMatchObject({ bodies: 4, events: 480, retried: 0 });
      expect(scans).toBe(4);

      const jsm = await jetstreamManager(await bus('probe-dense'));
      const info = await jsm.streams.info('LEAKSCAN_EVENTS', { subjects_filter: `events.${zone}` });
      // 480 events and 4 outcomes, each stored once.
      expect(info.state.subjects?.[`events.${zone}`]).toBe(484);
    }, 120_000);

    it('scans at high until a body\'s zone keeps lower findings, then at low, with the events serve would make', async () => {
      const opts = { allRules: true, workers: 0 };
      const built: string[] = [];
      const levelled = new LevelledScanner(await createScanner(opts), 'high', async (minConfidence) => {
        built.push(minConfidence);
        return createScanner({ ...opts, minConfidence });
      });
      cleanup.push(() => levelled.close());
      // A mod-11-valid NHS number without its label (medium) and a labelled one (high).
      const nhs = JSON.stringify({ ref: '6871775781', patient: { nhsNumber: '6671150664' } });
      const at = (level: 'high' | 'medium'): BodyEnvelope => ({ ...envelope(randomZone()), thresholds: { 'uk-nhs': level } });
      const worker = new ScanWorker({ nc: await bus('levels'), scanner: levelled, reach: (l) => levelled.reach(l) });
      await worker.start();
      await publishBody(at('high'), nhs);
      await until(async () => worker.stats.bodies === 1, 'the high zone\'s body');
      expect(worker.stats.events).toBe(1);
      expect(built).toEqual([]);
      await publishBody(at('medium'), nhs);
      await until(async () => worker.stats.bodies === 2, 'the medium zone\'s body');
      expect(worker.stats.events).toBe(3);
      expect(built).toEqual(['low']);
      await worker.close();
    });

    it('terminates and counts a body without its envelope, and goes on', async () => {
      scanner ??= await createScanner({ allRules: true, minConfidence: 'low', workers: 0 });
      const nc = await bus('raw');
      await ensureBodiesStream(nc);
      const zone = randomZone();
      await jetstream(nc).publish(bodiesSubject(zone), 'no envelope');
      const errors: unknown[] = [];
      const worker = new ScanWorker({ nc: await bus('w3'), scanner, onError: (e) => errors.push(e) });
      await worker.start();
      await until(() => worker.stats.malformed === 1, 'the malformed body to be counted');
      await until(async () => (await pending()) === 0, 'the malformed body to be terminated');
      await worker.close();
      expect((errors[0] as { code?: string }).code).toBe('SDD_ERR_BUS_MESSAGE');
    });
  });
}
