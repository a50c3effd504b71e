/**
 * Events to batches to epochs. Events, and the counts of what happened to the zone's responses
 * (coverage), are buffered per zone and written as one NDJSON object per batch; each batch's digest
 * (the Merkle root of its lines, batch-format.ts) is then published as the next epoch of the zone's
 * audit namespace, so a batch cannot be dropped or altered without `leakscan verify` noticing.
 *
 * Layout (docs/serve.md):
 *   events bucket   events/{zone}/{batch:10 digits}.ndjson   batch n of the zone (create-only put)
 *   audit log       namespace `events.{zone}`, epoch n       digest = batchDigest(batch n's bytes)
 *
 * Order per zone is strict: batch n is written before epoch n is published, and batch n+1 only after
 * batch n is written. So after a crash the only possible damage is batches written but not yet
 * published; they are the ones after the latest epoch, found by probing forward from it, and
 * `recover()` (run by every start) publishes them in order from their stored bytes. A failed publish
 * while running is retried the same way before the zone's next batch.
 */
import { createHash } from 'node:crypto';
import { AuditError, type AuditLog } from '../audit/index.js';
import type { StoreBucket } from '../storage/index.js';
import { addCoverage, batchDigest, batchFormatOf, emptyCoverage, isCoverageEmpty, kBatchFormat, treeBatchBytes, type BatchHeader, type Coverage, type CoverageOutcome } from './batch-format.js';
import type { PendingEvent } from './events.js';

/** Where the batches of zone `zone` are kept in the events bucket (the prefix of its batch keys). */
export function batchPrefix(zone: string): string {
  return `events/${zone}/`;
}

/** Batch key of zone `zone`, number `n` (zero-padded so a listing is in batch order). */
export function batchKey(zone: string, n: number): string {
  return `${batchPrefix(zone)}${String(n).padStart(10, '0')}.ndjson`;
}

const kBatchKey = /^events\/([0-9a-f]{32})\/([0-9]{10})\.ndjson$/;

/** The batch number a key of `zone` names (`batchKey`'s inverse); undefined for any other key. */
export function batchNumberOf(key: string, zone: string): number | undefined {
  const m = kBatchKey.exec(key);
  if (m === null || m[1] !== zone) return undefined;
  const n = Number(m[2]);
  return n >= 1 ? n : undefined;
}

/** The audit log namespace holding a zone's epochs. */
export function namespaceOf(zone: string): string {
  return `events.${zone}`;
}

/** Every delimited prefix under `prefix` (one level of "folders"), over all list pages. */
export function listPrefixes(bucket: StoreBucket, prefix: string): Promise<string[]> {
  return listAll(bucket, { prefix, delimiter: '/' }, (page) => page.delimitedPrefixes);
}

/** Every key under `prefix`, over all list pages, in key order. */
export function listKeys(bucket: StoreBucket, prefix: string): Promise<string[]> {
  return listAll(bucket, { prefix }, (page) => page.objects.map((o) => o.key));
}

/** What `take` picks from every page of a listing, following the cursor to the end. */
async function listAll(
  bucket: StoreBucket,
  options: { prefix: string; delimiter?: string },
  take: (page: Awaited<ReturnType<StoreBucket['list']>>) => readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ ...options, ...(cursor === undefined ? {} : { cursor }) });
    out.push(...take(page));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return out;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface BatchOptions {
  /** A zone's buffer is written once it holds this many events. Default 1,000. */
  size?: number;
  /** …or this many ms after its first buffered event, whichever comes first. Default 2,000. */
  intervalMs?: number;
  /** Events buffered over all zones (not yet written); more are dropped and counted. Default 100,000. */
  maxBuffered?: number;
  /** A zone with counts but no events writes a coverage-only batch this many ms after its first count. Default 60,000. */
  coverageIntervalMs?: number;
}

export const kBatchDefaults = { size: 1000, intervalMs: 2000, maxBuffered: 100_000, coverageIntervalMs: 60_000 } as const;

export interface EventLogStats {
  /** Events taken into a buffer. */
  eventsAccepted: number;
  /** Events refused because `maxBuffered` were already waiting. */
  eventsDropped: number;
  eventsWritten: number;
  batchesWritten: number;
  epochsPublished: number;
  /** Failed batch writes (the events stay buffered and are retried). */
  writeErrors: number;
  /** Failed publishes (retried before the zone's next batch and on the next start). */
  publishErrors: number;
}

/** A zone's numbers as the store and the audit log hold them. */
export interface ZoneState {
  zone: string;
  namespace: string;
  /** Latest published epoch (0: none). */
  published: number;
  /** Latest written batch (0: none); never below `published`. */
  written: number;
  /** End of the latest written batch's interval (ISO 8601), when it has one (format 2). */
  lastTo: string | null;
}

interface ZoneBuffer {
  events: PendingEvent[];
  /** Outcomes counted since the last written batch. */
  coverage: Coverage;
  /** When the first of them (or of the buffered events) was counted: the interval's start without a previous batch. */
  since: number | null;
  timer: NodeJS.Timeout | null;
  /** When `timer` fires (ms since the epoch). */
  due: number;
  state: ZoneState | null;
  /** Tail of the zone's serial queue (init, flushes). */
  queue: Promise<unknown>;
}

export interface EventLogOptions extends BatchOptions {
  bucket: StoreBucket;
  log: AuditLog;
  onError?: (err: unknown) => void;
  /** Batch n of the zone is written and its epoch published (also by `recover()`); must not wait or throw. */
  onPublished?: (zone: string, n: number) => void;
}

function isAudit(e: unknown, code: string): boolean {
  return e instanceof AuditError && e.code === code;
}

/** Every zone with a batch key under `events/` (from the listing's delimited prefixes). */
export async function listBatchZones(bucket: StoreBucket): Promise<string[]> {
  const zones: string[] = [];
  for (const p of await listPrefixes(bucket, 'events/')) {
    const m = /^events\/([0-9a-f]{32})\/$/.exec(p);
    if (m) zones.push(m[1]!);
  }
  return zones;
}

/** Creates the zone's namespace when it is missing (a concurrent creation by another writer is fine). */
export async function ensureNamespace(log: AuditLog, namespace: string): Promise<void> {
  try {
    await log.requireNamespace(namespace);
  } catch (e) {
    if (!isAudit(e, 'AUDIT_ERR_NAMESPACE_NOT_FOUND')) throw e;
    try {
      await log.createNamespace({ name: namespace });
    } catch (e2) {
      if (!isAudit(e2, 'AUDIT_ERR_NAMESPACE_EXISTS')) throw e2;
    }
  }
}

/**
 * The zone's numbers, read from the store and the log: its namespace (created when missing), latest
 * epoch, latest batch (probing forward from the epoch: batches are contiguous and never ahead of their
 * predecessor) and that batch's interval end.
 */
export async function readZoneState(bucket: StoreBucket, log: AuditLog, zone: string): Promise<ZoneState> {
  const namespace = namespaceOf(zone);
  await ensureNamespace(log, namespace);
  let published = 0;
  try {
    published = (await log.latest(namespace)).epoch;
  } catch (e) {
    if (!isAudit(e, 'AUDIT_ERR_EPOCH_NOT_FOUND')) throw e;
  }
  let written = published;
  while (await bucket.head(batchKey(zone, written + 1))) written++;
  return { zone, namespace, published, written, lastTo: written > 0 ? await batchIntervalEnd(bucket, zone, written) : null };
}

/**
 * Bytes of a batch read for its header line: a format 2 header is fixed-shape (zone, numbers, two
 * timestamps, the coverage counts), a few hundred bytes, while the batch is up to 100,000 events.
 */
const kHeaderRangeBytes = 4096;

/**
 * The `to` of batch n's header (format 2), so the next batch's interval starts where it ended. Reads
 * the batch's first bytes only (a range GET), the whole batch when its first line is longer.
 */
export async function batchIntervalEnd(bucket: StoreBucket, zone: string, n: number): Promise<string | null> {
  const key = batchKey(zone, n);
  const first = await bucket.get(key, { range: { offset: 0, length: kHeaderRangeBytes } });
  if (first === null) return null;
  let bytes = new Uint8Array(await first.arrayBuffer());
  if (batchFormatOf(bytes) < 2) return null;
  if (bytes.indexOf(0x0a) < 0 && bytes.length < first.size) {
    const whole = await bucket.get(key);
    if (whole === null) return null;
    bytes = new Uint8Array(await whole.arrayBuffer());
  }
  const end = bytes.indexOf(0x0a);
  if (end < 0) return null;
  try {
    const header = JSON.parse(Buffer.from(bytes.subarray(0, end)).toString('utf8')) as Partial<BatchHeader>;
    return typeof header.to === 'string' ? header.to : null;
  } catch {
    return null;
  }
}

/**
 * Publishes batch n's digest as epoch n and moves `st.published` to n. An epoch already there (an
 * earlier run, or a competing writer, published it) is fine when it holds this digest; any other
 * digest is reported to `onError` (verify will name the batch).
 * Returns true when this call published it.
 */
export async function publishBatchEpoch(log: AuditLog, st: ZoneState, n: number, digest: string, onError: (err: unknown) => void): Promise<boolean> {
  let mine = true;
  try {
    await log.publish(st.namespace, { epoch: n, digest });
  } catch (e) {
    if (!isAudit(e, 'AUDIT_ERR_EPOCH_EXISTS')) throw e;
    mine = false;
    const rec = await log.record(st.namespace, n);
    if (rec.digest !== digest) {
      onError(new Error(`epoch ${n} of ${st.namespace} holds digest ${rec.digest}, not the digest ${digest} of ${batchKey(st.zone, n)}`));
    }
  }
  st.published = n;
  return mine;
}

/**
 * Crash repair: publishes, in order and from their stored bytes, the zone's batches written after its
 * latest epoch. `published(n, mine)` is told of each (mine: this call published it).
 */
export async function publishPendingBatches(
  bucket: StoreBucket,
  log: AuditLog,
  st: ZoneState,
  onError: (err: unknown) => void,
  published: (n: number, mine: boolean) => void = () => {},
): Promise<void> {
  while (st.published < st.written) {
    const n = st.published + 1;
    const obj = await bucket.get(batchKey(st.zone, n));
    if (obj === null) throw new Error(`batch ${batchKey(st.zone, n)} disappeared before its epoch was published`);
    const mine = await publishBatchEpoch(log, st, n, batchDigest(new Uint8Array(await obj.arrayBuffer())), onError);
    published(n, mine);
  }
}

/**
 * Writes format 2 batch `header.batch` of `header.zone` with a create-only put (a batch is never
 * overwritten, whoever else writes the zone). Resolves the digest its epoch must sign, or null when
 * the batch already exists (the caller lost the race, or its numbers were stale).
 * `extraMetadata` goes with the batch's own custom metadata (the fleet's batcher records where in its
 * stream the batch ends).
 */
export async function putBatch(
  bucket: StoreBucket,
  header: BatchHeader,
  events: readonly PendingEvent[],
  extraMetadata: Record<string, string> = {},
): Promise<string | null> {
  const bytes = treeBatchBytes(header, events);
  const put = await bucket.put(batchKey(header.zone, header.batch), bytes, {
    onlyIf: { etagDoesNotMatch: '*' },
    httpMetadata: { contentType: 'application/x-ndjson' },
    customMetadata: { ...extraMetadata, zone: header.zone, batch: String(header.batch), events: String(events.length), format: String(kBatchFormat) },
    sha256: sha256Hex(bytes),
  });
  return put === null ? null : batchDigest(bytes);
}

/**
 * The writer of a data directory's events. One per process (the bucket's lock keeps other processes out).
 * @example
 * const events = new EventLog({ bucket, log: audit.log });
 * await events.recover();
 * events.add(zone, pending);
 * await events.close(); // writes and publishes every buffered event
 */
export class EventLog {
  readonly #bucket: StoreBucket;
  readonly #log: AuditLog;
  readonly #size: number;
  readonly #interval: number;
  readonly #maxBuffered: number;
  readonly #coverageInterval: number;
  readonly #onError: (err: unknown) => void;
  readonly #onPublished: (zone: string, n: number) => void;
  readonly #zones = new Map<string, ZoneBuffer>();
  #buffered = 0;
  #closed = false;
  readonly stats: EventLogStats = {
    eventsAccepted: 0,
    eventsDropped: 0,
    eventsWritten: 0,
    batchesWritten: 0,
    epochsPublished: 0,
    writeErrors: 0,
    publishErrors: 0,
  };

  constructor(options: EventLogOptions) {
    this.#bucket = options.bucket;
    this.#log = options.log;
    this.#size = options.size ?? kBatchDefaults.size;
    this.#interval = options.intervalMs ?? kBatchDefaults.intervalMs;
    this.#maxBuffered = options.maxBuffered ?? kBatchDefaults.maxBuffered;
    this.#coverageInterval = options.coverageIntervalMs ?? kBatchDefaults.coverageIntervalMs;
    this.#onError = options.onError ?? (() => {});
    this.#onPublished = options.onPublished ?? (() => {});
  }

  /** Events buffered and not yet written. */
  get buffered(): number {
    return this.#buffered;
  }

  /**
   * Publishes every batch written but not published (a crash between the two), for every zone with
   * batches. Returns how many epochs it published.
   */
  async recover(): Promise<{ zones: number; published: number }> {
    const zones = await listBatchZones(this.#bucket);
    let published = 0;
    for (const zone of zones) {
      const z = this.#zone(zone);
      await this.#serial(z, async () => {
        let st: ZoneState | null = null;
        let before = 0;
        try {
          st = await this.#state(z, zone);
          before = st.published;
          await this.#publishPending(st);
        } catch (e) {
          // One zone's log refusing (e.g. its namespace was disabled) must not stop the service; its
          // batches stay stored, verify reports them, and the next flush or start tries again.
          this.stats.publishErrors++;
          this.#onError(e);
        }
        if (st) published += st.published - before;
      });
    }
    return { zones: zones.length, published };
  }

  /** Buffers a zone's events; returns how many were accepted (the rest are counted as dropped). */
  add(zone: string, events: readonly PendingEvent[]): number {
    if (events.length === 0) return 0;
    const room = this.#closed ? 0 : Math.max(0, this.#maxBuffered - this.#buffered);
    const take = Math.min(room, events.length);
    this.stats.eventsDropped += events.length - take;
    const z = this.#zone(zone);
    z.since ??= Date.now();
    // Dropped events are part of the zone's coverage, so its batches never claim they were all kept.
    z.coverage.eventsDropped += events.length - take;
    if (take === 0) {
      if (!this.#closed) this.#schedule(zone, z, this.#coverageInterval);
      return 0;
    }
    for (let i = 0; i < take; i++) z.events.push(events[i]!);
    this.#buffered += take;
    this.stats.eventsAccepted += take;
    this.#schedule(zone, z, z.events.length >= this.#size ? 0 : this.#interval);
    return take;
  }

  /**
   * Counts what happened to one response of a zone whose ruleset is deployed (coverage). The counts go
   * into the zone's next batch; with no events to carry them, a coverage-only batch is written
   * `coverageIntervalMs` after the first count.
   */
  count(zone: string, outcome: CoverageOutcome, truncated = false): void {
    if (this.#closed) return;
    const z = this.#zone(zone);
    z.since ??= Date.now();
    const c = z.coverage;
    c.seen++;
    if (outcome === 'scanned') {
      c.scanned++;
      if (truncated) c.truncated++;
    } else {
      c.skipped[outcome]++;
    }
    this.#schedule(zone, z, this.#coverageInterval);
  }

  /** Writes and publishes every buffered event now. */
  async flush(): Promise<void> {
    await Promise.all([...this.#zones.entries()].map(([zone, z]) => this.#flushZone(zone, z)));
  }

  /** Refuses new events, then writes and publishes everything buffered (retrying a failed write once). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const z of this.#zones.values()) {
      if (z.timer) clearTimeout(z.timer);
      z.timer = null;
    }
    await this.flush();
    if (this.#buffered > 0) await this.flush();
    await Promise.all([...this.#zones.values()].map((z) => z.queue));
    if (this.#buffered > 0) this.#onError(new Error(`${this.#buffered} events could not be written and are lost`));
  }

  #zone(zone: string): ZoneBuffer {
    let z = this.#zones.get(zone);
    if (z === undefined) {
      z = { events: [], coverage: emptyCoverage(), since: null, timer: null, due: 0, state: null, queue: Promise.resolve() };
      this.#zones.set(zone, z);
    }
    return z;
  }

  /** Flushes the zone in `ms`, unless a flush is already due by then. */
  #schedule(zone: string, z: ZoneBuffer, ms: number): void {
    const due = Date.now() + ms;
    if (z.timer !== null) {
      if (z.due <= due) return;
      clearTimeout(z.timer);
    }
    z.due = due;
    z.timer = setTimeout(() => {
      z.timer = null;
      void this.#flushZone(zone, z);
    }, ms);
  }

  #serial<T>(z: ZoneBuffer, fn: () => Promise<T>): Promise<T> {
    const run = z.queue.then(fn, fn);
    z.queue = run.catch(() => {});
    return run;
  }

  /** The zone's numbers, read once (readZoneState), then kept up to date by this writer. */
  async #state(z: ZoneBuffer, zone: string): Promise<ZoneState> {
    z.state ??= await readZoneState(this.#bucket, this.#log, zone);
    return z.state;
  }

  async #publishPending(st: ZoneState): Promise<void> {
    await publishPendingBatches(this.#bucket, this.#log, st, this.#onError, (n, mine) => this.#published(st, n, mine));
  }

  async #publish(st: ZoneState, n: number, digest: string): Promise<void> {
    this.#published(st, n, await publishBatchEpoch(this.#log, st, n, digest, this.#onError));
  }

  #published(st: ZoneState, n: number, mine: boolean): void {
    if (mine) this.stats.epochsPublished++;
    this.#onPublished(st.zone, n);
  }

  #flushZone(zone: string, z: ZoneBuffer): Promise<void> {
    if (z.timer !== null) {
      clearTimeout(z.timer);
      z.timer = null;
    }
    return this.#serial(z, async () => {
      let st: ZoneState;
      try {
        st = await this.#state(z, zone);
      } catch (e) {
        this.#writeFailed(zone, z, e);
        return;
      }
      if (st.published < st.written) {
        try {
          await this.#publishPending(st);
        } catch (e) {
          // The batch stays stored; writing goes on, and the next flush or start publishes in order.
          this.stats.publishErrors++;
          this.#onError(e);
        }
      }
      // Counts alone make at most one batch per flush: counted during a write, they wait for their timer.
      let countsDue = true;
      while (z.events.length > 0 || (countsDue && !isCoverageEmpty(z.coverage))) {
        countsDue = false;
        const events = z.events.slice(0, this.#size);
        const n = st.written + 1;
        // The counts so far go in this batch; what is counted while it is written waits for the next.
        const coverage = structuredClone(z.coverage);
        const to = new Date().toISOString();
        const from = st.lastTo ?? new Date(Math.min(z.since ?? Date.now(), Date.parse(to))).toISOString();
        const header: BatchHeader = { version: kBatchFormat, zone, batch: n, from, to, events: events.length, coverage };
        let digest: string | null;
        try {
          // Create-only: a batch is never overwritten, whatever happens to this process's numbers.
          digest = await putBatch(this.#bucket, header, events);
        } catch (e) {
          this.#writeFailed(zone, z, e);
          return;
        }
        if (digest === null) {
          // Batch n exists (written by a run we did not learn of): re-read the numbers and go on.
          z.state = null;
          try {
            st = await this.#state(z, zone);
          } catch (e) {
            this.#writeFailed(zone, z, e);
            return;
          }
          countsDue = true;
          continue;
        }
        z.events.splice(0, events.length);
        this.#buffered -= events.length;
        addCoverage(z.coverage, coverage, -1);
        z.since = null;
        st.written = n;
        st.lastTo = to;
        this.stats.batchesWritten++;
        this.stats.eventsWritten += events.length;
        if (st.published === n - 1) {
          try {
            await this.#publish(st, n, digest);
          } catch (e) {
            this.stats.publishErrors++;
            this.#onError(e);
          }
        }
      }
    });
  }

  /** A flush could not write: the events stay buffered and the zone tries again after the interval. */
  #writeFailed(zone: string, z: ZoneBuffer, err: unknown): void {
    this.stats.writeErrors++;
    this.#onError(err);
    if (!this.#closed && (z.events.length > 0 || !isCoverageEmpty(z.coverage))) this.#schedule(zone, z, this.#interval);
  }
}
