/**
 * The one queue between capture and scan (docs/serve.md, "The scan queue"). Response bodies captured
 * off the response path wait here for a pooled scanner, in the pool's own queue, as the chunks they
 * were captured in; each is copied once, chunk by chunk, into memory shared with the workers as the
 * pool hands it to a worker, and its chunks are let go then.
 * Memory is bounded by one byte budget shared by bodies still being captured and bodies waiting or
 * scanning, and by a cap on waiting bodies. What does not fit is not scanned, and counted:
 *  - `bodiesSkipped`: a body whose capture ran out of budget (the capture is let go at once);
 *  - `bodiesDropped`: a captured body refused because `maxJobs` already wait.
 * Responses are never slowed down by either: the client's bytes never pass through here.
 *
 * `ScanBacklog` (src/serve/backlog.ts) is the same interface in front of a scanner that is not pooled.
 */
import type { ScanMeta, ScanReport, Scanner } from '../types.js';
import { PoolScanner, kEnqueue, kHandOver } from './pool-scanner.js';

export interface BacklogOptions {
  /** Bytes held by captures and queued bodies together. Default 64 MiB. */
  maxBytes?: number;
  /** Bodies waiting for the scanner (not counting the ones it is scanning). Default 1,024. */
  maxJobs?: number;
  /**
   * Bodies handed to a scanner that is not pooled at once (`ScanBacklog`). Default 2. A pooled scanner
   * takes bodies from the queue as its workers have room, so the body queue has no such knob.
   */
  concurrency?: number;
}

export const kBacklogDefaults = { maxBytes: 64 * 1024 * 1024, maxJobs: 1024 } as const;

export interface BacklogStats {
  bodiesScanned: number;
  bodiesSkipped: number;
  bodiesDropped: number;
  scanErrors: number;
  /** Bytes held now (captures and queue). */
  bytesHeld: number;
  /** Bodies waiting now. */
  waiting: number;
  /** Bodies being scanned now. */
  scanning: number;
}

export interface ScanJob {
  chunks: Buffer[];
  /** Bytes of `chunks`, reserved from the budget by the capture. */
  bytes: number;
  meta: ScanMeta;
  /**
   * Called once with the report (or null when the scan failed). A promise it returns keeps the job's
   * place until it settles (the proxy scans the exchange's request fields there), so `idle()` waits for it.
   */
  done(report: ScanReport | null): void | Promise<void>;
}

/** What the proxy needs of the queue in front of the scanner: a byte budget, submission, counters. */
export interface ScanQueue {
  stats(): BacklogStats;
  /** Reserves `n` bytes for a capture; false when the budget is spent. */
  reserve(n: number): boolean;
  release(n: number): void;
  /** Counts a body whose capture was abandoned for lack of budget. */
  skipped(): void;
  /** Whether `submit` would take one more body now (`serve --scan overflow` sends it elsewhere when not). */
  hasRoom(): boolean;
  /** Queues a captured body (its bytes already reserved); false (and counted) when the queue is full. */
  submit(job: ScanJob): boolean;
  /** Resolves once nothing is waiting, scanning or being captured. */
  idle(): Promise<void>;
}

/** Whether `scanner` scans on a pool, so a `BodyQueue` can feed it. */
export function isPooled(scanner: Scanner): boolean {
  return scanner instanceof PoolScanner;
}

/**
 * Moves the body queue's waiting bodies from one pooled scanner to the next (no-op unless both are
 * pooled): the service's confidence swap replaces its pool, and the queue must outlive it.
 */
export function handOverQueue(from: Scanner, to: Scanner): void {
  if (from instanceof PoolScanner && to instanceof PoolScanner) from[kHandOver](to);
}

/**
 * What both queues share: the byte budget, the `BacklogStats` counters, the bound on waiting bodies,
 * a job's end (its bytes back to the budget before its `done` runs) and `idle()`.
 */
export abstract class QueueBudget implements ScanQueue {
  readonly #maxBytes: number;
  readonly #maxJobs: number;
  /** Unexpected errors: a scan that failed, a `done` that threw. */
  protected readonly onError: (err: unknown) => void;
  #held = 0;
  #idle: Array<() => void> = [];
  protected readonly counts: { bodiesScanned: number; bodiesSkipped: number; bodiesDropped: number; scanErrors: number } = { bodiesScanned: 0, bodiesSkipped: 0, bodiesDropped: 0, scanErrors: 0 };

  constructor(options: BacklogOptions & { onError?: (err: unknown) => void }) {
    this.#maxBytes = options.maxBytes ?? kBacklogDefaults.maxBytes;
    this.#maxJobs = options.maxJobs ?? kBacklogDefaults.maxJobs;
    this.onError = options.onError ?? (() => {});
  }

  /** Bodies waiting now. */
  protected abstract waitingNow(): number;
  /** Bodies being scanned now (or whose `done` has not settled). */
  protected abstract scanningNow(): number;
  abstract submit(job: ScanJob): boolean;

  stats(): BacklogStats {
    return { ...this.counts, bytesHeld: this.#held, waiting: this.waitingNow(), scanning: this.scanningNow() };
  }

  reserve(n: number): boolean {
    if (this.#held + n > this.#maxBytes) return false;
    this.#held += n;
    return true;
  }

  release(n: number): void {
    this.#held -= n;
    this.checkIdle();
  }

  skipped(): void {
    this.counts.bodiesSkipped++;
  }

  hasRoom(): boolean {
    return this.waitingNow() < this.#maxJobs;
  }

  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** A body refused because `maxJobs` already wait: counted, and its bytes given back. */
  protected refuse(job: ScanJob): false {
    this.counts.bodiesDropped++;
    this.release(job.bytes);
    return false;
  }

  /** Counts a job's scan, lets its bytes go (`done` only needs the report), then waits for its `done`. */
  protected async finish(job: ScanJob, scan: Promise<ScanReport>): Promise<void> {
    let report: ScanReport | null = null;
    try {
      report = await scan;
      this.counts.bodiesScanned++;
    } catch (e) {
      this.counts.scanErrors++;
      this.onError(e);
    }
    this.#held -= job.bytes;
    try {
      await job.done(report);
    } catch (e) {
      this.onError(e);
    }
  }

  protected checkIdle(): void {
    if (this.#idle.length > 0 && this.#isIdle()) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const w of waiters) w();
    }
  }

  #isIdle(): boolean {
    return this.scanningNow() === 0 && this.waitingNow() === 0 && this.#held === 0;
  }
}

/**
 * The queue in front of a pooled scanner.
 * @example
 * const queue = new BodyQueue(() => scanner, { maxBytes: 64 * 1024 * 1024 });
 * if (queue.reserve(body.length)) queue.submit({ chunks: [body], bytes: body.length, meta: {}, done: (r) => console.log(r?.findings) });
 */
export class BodyQueue extends QueueBudget {
  /** The pool bodies go to now (the service's scanner changes pool at most once, levels.ts). */
  readonly #scanner: () => Scanner;
  #waiting = 0;
  #scanning = 0;

  constructor(scanner: () => Scanner, options: BacklogOptions & { onError?: (err: unknown) => void } = {}) {
    super(options);
    this.#scanner = scanner;
  }

  protected waitingNow(): number {
    return this.#waiting;
  }

  protected scanningNow(): number {
    return this.#scanning;
  }

  submit(job: ScanJob): boolean {
    if (!this.hasRoom()) return this.refuse(job);
    this.#waiting++;
    let sent = false;
    const onSend = (): void => {
      sent = true;
      this.#waiting--;
      this.#scanning++;
    };
    const scanner = this.#scanner();
    let report: Promise<ScanReport>;
    if (scanner instanceof PoolScanner) {
      report = scanner[kEnqueue](job.chunks, job.meta, onSend);
    } else {
      // Not a pool (the service's scanner is made by one factory, so it does not happen there): scanned
      // as `ScanBacklog` would, joined.
      onSend();
      report = scanner.analyze(job.chunks.length === 1 ? job.chunks[0]! : Buffer.concat(job.chunks, job.bytes), job.meta);
    }
    // The pool holds the chunks now, until it copies them: they must not stay reachable from the job,
    // whose `done` runs after the bytes went back to the budget.
    job.chunks = [];
    // Refused before it was sent (a closed scanner): counted as scanning until its `done` has run.
    const settled = report.finally(() => sent || onSend());
    void this.finish(job, settled).then(() => {
      this.#scanning--;
      this.checkIdle();
    });
    return true;
  }
}
