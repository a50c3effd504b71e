/**
 * Delivery of stored batches to each job's destination, at least once and in batch order.
 *
 * The stored batches are the queue: a job's backlog is every batch of its zone after its cursor and
 * up to the zone's latest published epoch, read from the events bucket when it is sent. So memory per
 * job is constant, however far behind its destination is, and nothing a destination does can hold up
 * scanning or the batch writer, which only call `notify()` (O(1), never waits).
 *
 * `notify()` puts a notice in a bounded queue (1,024 by default; a full queue drops the notice and
 * counts it). A notice only wakes the jobs of its zone; a dropped one loses nothing, because every
 * job is also woken by a sweep (every 30 s) and at start, and a woken job sends everything after its
 * cursor. The cursor moves, and is written to disk, only after the destination answered 2xx, so a
 * file in flight at a stop or crash is sent again after the restart: the only duplicate, and the file
 * name (`firewall_events/{zone}/{batch:10 digits}.log.gz`) lets the receiver drop it.
 */
import { Agent, request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { LeakscanError } from '../errors.js';
import { eventsOfBatch, recordLine, type StoredEvent } from './fields.js';
import { parseDestination, type JobStore, type StoredJob } from './jobs.js';

/** Where delivery reads batches, and how far each zone's batches are published. */
export interface DeliverySource {
  /** Batch n of the zone (its stored bytes), or null when missing. */
  read(zone: string, n: number): Promise<Uint8Array | null>;
  /** The zone's latest published epoch, which is its latest durable and signed batch (0: none). */
  published(zone: string): Promise<number>;
}

export interface DeliveryOptions {
  /** Notices waiting to wake jobs; more are dropped and counted. Default 1,024. */
  queueSize?: number;
  /** First retry after this many ms, doubling per failure up to `retryMaxMs`. Defaults 1,000 and 60,000. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Every job is woken this often, whatever the notices. Default 30,000. */
  sweepMs?: number;
  /** A destination that has not answered in this many ms has failed. Default 30,000. */
  timeoutMs?: number;
  /** PEM CA certificate(s) trusted for destinations in addition to the system's CAs. */
  ca?: string | Buffer;
}

export const kDeliveryDefaults = { queueSize: 1024, retryBaseMs: 1000, retryMaxMs: 60_000, sweepMs: 30_000, timeoutMs: 30_000 } as const;

export interface LogpushStats {
  /** Notices refused because the queue was full (recovered by the sweep). */
  noticesDropped: number;
  filesDelivered: number;
  /** Batches with no events (coverage only): nothing is sent for them; the cursor moves on. */
  emptyBatches: number;
  /** Deliveries that failed (each is retried with backoff). */
  deliveryErrors: number;
}

interface Runner {
  running: Promise<void> | null;
  again: boolean;
  timer: NodeJS.Timeout | null;
  attempt: number;
  abort: AbortController | null;
}

/** The name of batch n's file: zone and batch number, so a receiver can drop a file it already has. */
export function fileName(zone: string, n: number): string {
  return `firewall_events/${zone}/${String(n).padStart(10, '0')}.log.gz`;
}

/** The destination URL without its `header_*` parameters, and the headers they set (Cloudflare's convention). */
export function destinationOf(conf: string): { url: URL; headers: Record<string, string> } {
  const url = parseDestination(conf);
  const headers: Record<string, string> = {};
  for (const [k, v] of [...url.searchParams]) {
    if (!k.startsWith('header_')) continue;
    headers[k.slice('header_'.length).toLowerCase()] = v;
    url.searchParams.delete(k);
  }
  return { url, headers };
}

export class LogpushDelivery {
  readonly stats: LogpushStats = { noticesDropped: 0, filesDelivered: 0, emptyBatches: 0, deliveryErrors: 0 };
  readonly #store: JobStore;
  readonly #source: DeliverySource;
  readonly #onError: (err: unknown) => void;
  readonly #o: Required<Omit<DeliveryOptions, 'ca'>>;
  readonly #agent: Agent;
  readonly #runners = new Map<number, Runner>();
  #queue: string[] = [];
  #draining = false;
  #sweep: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(store: JobStore, source: DeliverySource, options: DeliveryOptions & { onError?: (err: unknown) => void } = {}) {
    this.#store = store;
    this.#source = source;
    this.#onError = options.onError ?? (() => {});
    const { ca, onError: _onError, ...rest } = options;
    this.#o = { ...kDeliveryDefaults, ...rest };
    // Extra CAs are added to the system's, never instead of them, and verification stays on.
    this.#agent = new Agent({ keepAlive: true, ...(ca === undefined ? {} : { ca: [...rootCertificates, ca.toString()] }) });
  }

  /** Wakes every job now and then every `sweepMs`. */
  start(): void {
    this.#wakeAll();
    this.#sweep = setInterval(() => this.#wakeAll(), this.#o.sweepMs);
    this.#sweep.unref();
  }

  /** Batch `batch` of `zone` is durable and published (the batch writer's hook): wakes the zone's jobs. */
  notify(zone: string, _batch: number): void {
    if (this.#closed) return;
    if (this.#queue.length >= this.#o.queueSize) {
      this.stats.noticesDropped++;
      return;
    }
    this.#queue.push(zone);
    if (!this.#draining) {
      this.#draining = true;
      setImmediate(() => this.#drain());
    }
  }

  /** Wakes one job (after it was created, enabled or changed). */
  wake(job: StoredJob): void {
    this.#wake(job.zone, job.id, true);
  }

  /** Stops: no new deliveries; a file in flight is cut off (and sent again after the next start). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    for (const r of this.#runners.values()) {
      if (r.timer) clearTimeout(r.timer);
      r.abort?.abort();
    }
    await Promise.all([...this.#runners.values()].map((r) => r.running));
    this.#agent.destroy();
  }

  #drain(): void {
    this.#draining = false;
    const zones = new Set(this.#queue);
    this.#queue = [];
    for (const zone of zones) for (const j of this.#store.list(zone)) this.#wake(zone, j.id, false);
  }

  #wakeAll(): void {
    for (const j of this.#store.list()) this.#wake(j.zone, j.id, false);
  }

  #runner(id: number): Runner {
    let r = this.#runners.get(id);
    if (r === undefined) {
      r = { running: null, again: false, timer: null, attempt: 0, abort: null };
      this.#runners.set(id, r);
    }
    return r;
  }

  /** Runs the job unless it runs already (then once more after) or waits for a retry (unless `now`). */
  #wake(zone: string, id: number, now: boolean): void {
    if (this.#closed) return;
    const r = this.#runner(id);
    if (r.running) {
      r.again = true;
      return;
    }
    if (r.timer) {
      if (!now) return;
      clearTimeout(r.timer);
      r.timer = null;
    }
    r.running = this.#run(zone, id, r)
      .catch((e: unknown) => this.#onError(e))
      .finally(() => {
        r.running = null;
        if (r.again) {
          r.again = false;
          this.#wake(zone, id, false);
        }
      });
  }

  /** Sends every published batch after the job's cursor, in order; on a failure, schedules a retry. */
  async #run(zone: string, id: number, r: Runner): Promise<void> {
    let job: StoredJob;
    try {
      job = this.#store.get(zone, id);
    } catch {
      this.#runners.delete(id);
      return;
    }
    if (!job.enabled) return;
    const target = await this.#source.published(zone);
    while (job.cursor < target && !this.#closed && job.enabled) {
      const n = job.cursor + 1;
      const bytes = await this.#source.read(zone, n);
      const events = bytes === null ? [] : eventsOfBatch(bytes, zone, n);
      let sent = false;
      if (bytes === null) {
        // A published batch that is gone was deleted from the bucket: nothing can be sent for it.
        this.#onError(new Error(`logpush job ${id}: batch ${n} of zone ${zone} is missing from the events bucket; skipped`));
      } else if (events.length === 0) {
        this.stats.emptyBatches++;
      } else {
        try {
          await this.#send(job, n, events, r);
          sent = true;
        } catch (e) {
          await this.#failed(zone, id, r, e);
          return;
        }
      }
      r.attempt = 0;
      try {
        job = await this.#store.update(zone, id, (j) => {
          j.cursor = Math.max(j.cursor, n);
          if (sent) j.last_complete = new Date().toISOString();
        });
      } catch (e) {
        if (e instanceof LeakscanError && e.code === 'SDD_ERR_LOGPUSH_JOB_NOT_FOUND') return;
        throw e;
      }
    }
  }

  async #failed(zone: string, id: number, r: Runner, e: unknown): Promise<void> {
    // A file cut off by close() is not the destination's failure: it is sent again after the next start.
    if (this.#closed) return;
    this.stats.deliveryErrors++;
    const message = e instanceof LeakscanError ? `${e.code}: ${e.message}` : `SDD_ERR_LOGPUSH_DELIVERY: ${(e as Error)?.message ?? String(e)}`;
    await this.#store
      .update(zone, id, (j) => {
        j.last_error = new Date().toISOString();
        j.error_message = message;
      })
      .catch(() => {});
    const delay = Math.min(this.#o.retryMaxMs, this.#o.retryBaseMs * 2 ** r.attempt);
    r.attempt = Math.min(r.attempt + 1, 30);
    // Jitter, so jobs behind one failing destination do not retry in step.
    r.timer = setTimeout(() => {
      r.timer = null;
      this.#wake(zone, id, false);
    }, delay * (0.5 + Math.random() / 2));
    r.timer.unref();
  }

  /** POSTs batch n's events, gzipped NDJSON, to the job's destination; resolves on a 2xx answer. */
  #send(job: StoredJob, n: number, events: readonly StoredEvent[], r: Runner): Promise<void> {
    const { url, headers } = destinationOf(job.destination_conf);
    const text = events.map((e) => recordLine(e, job.output_options.field_names, job.output_options.timestamp_format)).join('');
    const body = gzipSync(Buffer.from(text, 'utf8'));
    const name = fileName(job.zone, n);
    const where = `${url.origin}${url.pathname}`;
    r.abort = new AbortController();
    const signal = r.abort.signal;
    return new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: this.#agent,
          signal,
          timeout: this.#o.timeoutMs,
          headers: {
            ...headers,
            'content-type': 'application/x-ndjson',
            'content-encoding': 'gzip',
            'content-length': body.length,
            'x-logpush-file': name,
            'x-logpush-job': String(job.id),
            'x-logpush-dataset': 'firewall_events',
          },
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              this.stats.filesDelivered++;
              resolve();
            } else {
              reject(new LeakscanError('SDD_ERR_LOGPUSH_DELIVERY', `${where} answered HTTP ${status} to ${name}`));
            }
          });
          res.once('error', (e) => reject(new LeakscanError('SDD_ERR_LOGPUSH_DELIVERY', `${where}: ${e.message} while sending ${name}`)));
        },
      );
      req.once('timeout', () => req.destroy(new Error(`no answer in ${this.#o.timeoutMs} ms`)));
      req.once('error', (e: NodeJS.ErrnoException) => reject(new LeakscanError('SDD_ERR_LOGPUSH_DELIVERY', `${where}: ${e.code ?? e.message} while sending ${name}`, { cause: e })));
      req.end(body);
    }).finally(() => {
      r.abort = null;
    });
  }
}
