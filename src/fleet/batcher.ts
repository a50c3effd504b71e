/**
 * `leakscan batcher`: events from the stream to batches in the bucket to epochs in the audit log,
 * stateless and competing. Any number run at once, on one bucket and one stream; none keeps anything
 * between steps but what the bucket holds.
 *
 * One step of a zone:
 *  1. read the zone's numbers from the bucket and the log (readZoneState, as `serve` does);
 *  2. publish any batch left without its epoch (crash repair, publishPendingBatches);
 *  3. resume after the stream sequence recorded in the latest batch's metadata, when that batch was
 *     written from this very stream (its name and creation time); otherwise from the stream's start;
 *  4. read the zone's messages from there, up to `size` events or the zone's last message;
 *  5. write them as the next batch with a create-only put (putBatch) recording the last sequence;
 *  6. publish its epoch (publishBatchEpoch).
 * A batcher that loses the create-only race at 5 (another wrote that number first, or it was paused
 * past its turn) reads the numbers again and goes on from the winner's sequence: it can never
 * overwrite a batch, and each sequence range of the zone lands in exactly one batch. A batcher killed
 * between 5 and 6 leaves a batch without its epoch, which the next step of any batcher publishes at 2.
 *
 * Messages that are not what `events.<zone>` carries are skipped, counted in `malformed` and reported
 * with SDD_ERR_BUS_MESSAGE; their sequence still advances with the batch, so they are never read again.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import type { AuditLog } from '../audit/index.js';
import { LeakscanError } from '../errors.js';
import { addCoverage, batchKey, emptyCoverage, kBatchDefaults, kBatchFormat, listBatchZones, publishBatchEpoch, publishPendingBatches, putBatch, readZoneState, type BatchHeader, type Coverage, type PendingEvent, type ZoneState } from '../eventlog/index.js';
import type { StoreBucket } from '../storage/index.js';
import { ensureEventsStream, eventsSubject, kEventsStream, streamIdentity, zoneOfSubject } from './bus.js';
import { kKindHeader, parseRecord } from './messages.js';

export interface BatcherOptions {
  nc: NatsConnection;
  /** The bucket batches go to (`events/{zone}/…`). */
  bucket: StoreBucket;
  /** The audit log epochs go to; on S3 it lives in the same bucket (its keys do not overlap). */
  log: AuditLog;
  /** Events per batch at most. Default 1,000. */
  size?: number;
  /** Pause between passes over the zones. Default 2,000 ms. */
  intervalMs?: number;
  /** Messages read for one batch at most (outcomes included), bounding memory. Default 20 × size. */
  maxMessages?: number;
  onError?: (err: unknown) => void;
  /** Epoch n of the zone exists, published by this batcher or found published; must not throw. */
  onPublished?: (zone: string, n: number) => void;
  /**
   * Runs after batch n is written and before its epoch is published: the window a crash leaves a
   * batch without its epoch. The failure tests kill the process here (`kill -9`, docs/fleet.md).
   */
  afterBatch?: (zone: string, n: number) => Promise<void> | void;
}

export interface BatcherStats {
  batchesWritten: number;
  eventsWritten: number;
  /** Epochs this batcher published for its own batches. */
  epochsPublished: number;
  /** Epochs it published for batches another batcher (or a crash) left without one. */
  epochsRepaired: number;
  /** Create-only puts that found the batch number taken: another batcher was first. */
  racesLost: number;
  /** Messages skipped as not what their subject carries (SDD_ERR_BUS_MESSAGE). */
  malformed: number;
  /** Events of one response stored already in the same batch (a republish after the duplicate window). */
  duplicatesSkipped: number;
  /** Steps that failed (the bucket, the log or the bus); the zone is tried again next pass. */
  errors: number;
}

interface Read {
  events: PendingEvent[];
  coverage: Coverage;
  /** Sequence of the last message taken (= `after` when nothing was). */
  lastSeq: number;
  /** Stream time of the first message taken (ISO 8601). */
  first: string | null;
  /** The zone has messages after `lastSeq`. */
  more: boolean;
}

const kStreamMeta = 'stream';
const kSeqMeta = 'streamSeq';

/**
 * @example
 * const batcher = new Batcher({ nc, bucket, log });
 * await batcher.start();   // passes over every zone every intervalMs
 * await batcher.close();
 */
export class Batcher {
  readonly #nc: NatsConnection;
  readonly #bucket: StoreBucket;
  readonly #log: AuditLog;
  readonly #size: number;
  readonly #interval: number;
  readonly #maxMessages: number;
  readonly #onError: (err: unknown) => void;
  readonly #onPublished: (zone: string, n: number) => void;
  readonly #afterBatch: ((zone: string, n: number) => Promise<void> | void) | undefined;
  #js: JetStreamClient | null = null;
  #jsm: JetStreamManager | null = null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopping = false;
  #closed = false;
  readonly stats: BatcherStats = { batchesWritten: 0, eventsWritten: 0, epochsPublished: 0, epochsRepaired: 0, racesLost: 0, malformed: 0, duplicatesSkipped: 0, errors: 0 };

  constructor(options: BatcherOptions) {
    this.#nc = options.nc;
    this.#bucket = options.bucket;
    this.#log = options.log;
    this.#size = options.size ?? kBatchDefaults.size;
    this.#interval = options.intervalMs ?? kBatchDefaults.intervalMs;
    this.#maxMessages = options.maxMessages ?? 20 * this.#size;
    this.#onError = options.onError ?? (() => {});
    this.#onPublished = options.onPublished ?? (() => {});
    this.#afterBatch = options.afterBatch;
  }

  /**
   * Publishes batches left without their epoch for every zone in the bucket, then passes every
   * `intervalMs`. A store that does not answer is logged and counted as any failed step, and passes
   * start all the same: each step repairs its zone first.
   */
  async start(): Promise<{ repaired: number }> {
    const before = this.stats.epochsRepaired;
    let zones: string[] = [];
    await this.#guard(async () => {
      zones = await listBatchZones(this.#bucket);
    });
    for (const zone of zones) {
      await this.#guard(async () => {
        const st = await readZoneState(this.#bucket, this.#log, zone);
        await this.#repair(st);
      });
    }
    this.#schedule(0);
    return { repaired: this.stats.epochsRepaired - before };
  }

  /** One pass over every zone with messages in the stream, each until it is caught up. */
  pass(): Promise<void> {
    const run = (this.#running ?? Promise.resolve()).then(() => this.#pass());
    this.#running = run.catch(() => {});
    return run;
  }

  /**
   * Stops passing after one last pass, so what the stream holds when it is called is written and
   * published before it resolves (a pass in progress finishes first).
   */
  async close(): Promise<void> {
    this.#stopping = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.pass();
    this.#closed = true;
  }

  #schedule(ms: number): void {
    if (this.#stopping) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.pass().finally(() => this.#schedule(this.#interval));
    }, ms);
  }

  async #pass(): Promise<void> {
    let zones: string[];
    try {
      zones = await this.#streamZones();
    } catch (e) {
      this.stats.errors++;
      this.#onError(e);
      return;
    }
    for (const zone of zones) {
      if (this.#closed) return;
      await this.#guard(() => this.#drain(zone));
    }
  }

  async #guard(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.stats.errors++;
      this.#onError(e);
    }
  }

  async #manager(): Promise<JetStreamManager> {
    this.#jsm ??= await jetstreamManager(this.#nc);
    return this.#jsm;
  }

  /** Zones with at least one message in the stream. */
  async #streamZones(): Promise<string[]> {
    await ensureEventsStream(this.#nc);
    const info = await (await this.#manager()).streams.info(kEventsStream, { subjects_filter: 'events.*' });
    const out: string[] = [];
    for (const subject of Object.keys(info.state.subjects ?? {})) {
      const zone = zoneOfSubject(subject);
      if (zone !== undefined) out.push(zone);
    }
    return out.sort();
  }

  async #repair(st: ZoneState): Promise<void> {
    await publishPendingBatches(this.#bucket, this.#log, st, this.#onError, (n, mine) => {
      if (mine) this.stats.epochsRepaired++;
      this.#onPublished(st.zone, n);
    });
  }

  /** Batches of the zone until it is caught up with its messages. */
  async #drain(zone: string): Promise<void> {
    const info = await (await this.#manager()).streams.info(kEventsStream);
    const identity = streamIdentity(info);
    for (;;) {
      if (this.#closed) return;
      const st = await readZoneState(this.#bucket, this.#log, zone);
      await this.#repair(st);
      const after = await this.#resumeAfter(zone, st.written, identity);
      const read = await this.#read(zone, after);
      if (read.lastSeq === after) return;
      const n = st.written + 1;
      const now = new Date().toISOString();
      const from = st.lastTo ?? read.first ?? now;
      const to = Date.parse(now) >= Date.parse(from) ? now : from;
      const header: BatchHeader = { version: kBatchFormat, zone, batch: n, from, to, events: read.events.length, coverage: read.coverage };
      const digest = await putBatch(this.#bucket, header, read.events, { [kStreamMeta]: identity, [kSeqMeta]: String(read.lastSeq) });
      if (digest === null) {
        // Another batcher wrote batch n first: its metadata says where to go on from.
        this.stats.racesLost++;
        continue;
      }
      this.stats.batchesWritten++;
      this.stats.eventsWritten += read.events.length;
      st.written = n;
      await this.#afterBatch?.(zone, n);
      if (await publishBatchEpoch(this.#log, st, n, digest, this.#onError)) this.stats.epochsPublished++;
      this.#onPublished(zone, n);
      if (!read.more) return;
    }
  }

  /** The stream sequence batch `written` of the zone ends at, when it was written from this stream; else 0. */
  async #resumeAfter(zone: string, written: number, identity: string): Promise<number> {
    if (written === 0) return 0;
    const head = await this.#bucket.head(batchKey(zone, written));
    const meta = head?.customMetadata ?? {};
    const seq = Number(meta[kSeqMeta]);
    if (meta[kStreamMeta] !== identity || !Number.isSafeInteger(seq) || seq < 0) return 0;
    return seq;
  }

  /** The zone's messages after sequence `after`: up to `size` events, up to the last message there is now. */
  async #read(zone: string, after: number): Promise<Read> {
    const subject = eventsSubject(zone);
    const out: Read = { events: [], coverage: emptyCoverage(), lastSeq: after, first: null, more: false };
    const last = await (await this.#manager()).streams.getMessage(kEventsStream, { last_by_subj: subject });
    if (last === null || last.seq <= after) return out;
    this.#js ??= jetstream(this.#nc);
    // An ordered consumer: ephemeral, in order, removed by the server once idle.
    const consumer = await this.#js.consumers.get(kEventsStream, { filter_subjects: subject, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: after + 1 });
    const ids = new Set<string>();
    let taken = 0;
    while (out.lastSeq < last.seq) {
      const batch = await consumer.fetch({ max_messages: Math.min(this.#maxMessages - taken, 1000), expires: 5000 });
      let got = 0;
      for await (const m of batch) {
        got++;
        taken++;
        this.#take(m, zone, out, ids);
        if (out.lastSeq >= last.seq || out.events.length >= this.#size || taken >= this.#maxMessages) break;
      }
      if (got === 0 || out.events.length >= this.#size || taken >= this.#maxMessages) break;
    }
    out.more = out.lastSeq < last.seq;
    return out;
  }

  #take(m: JsMsg, zone: string, out: Read, ids: Set<string>): void {
    out.lastSeq = m.seq;
    out.first ??= new Date(Math.floor(m.info.timestampNanos / 1_000_000)).toISOString();
    let record;
    try {
      record = parseRecord(m.headers?.get(kKindHeader) || undefined, m.data, zone);
    } catch (e) {
      this.stats.malformed++;
      this.#onError(e instanceof LeakscanError ? new LeakscanError(e.code, `${m.subject} #${m.seq}: ${e.message}`) : e);
      return;
    }
    if (record.kind === 'event') {
      if (ids.has(record.event.id)) {
        this.stats.duplicatesSkipped++;
        return;
      }
      ids.add(record.event.id);
      out.events.push(record.event);
      return;
    }
    const one = emptyCoverage();
    one.seen = 1;
    if (record.outcome.outcome === 'scanned') {
      one.scanned = 1;
      if (record.outcome.truncated) one.truncated = 1;
    } else {
      one.skipped[record.outcome.outcome] = 1;
    }
    addCoverage(out.coverage, one);
  }
}
