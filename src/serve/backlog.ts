/**
 * The scan backlog: response bodies captured off the response path wait here for the scanner. Memory
 * is bounded by one byte budget shared by bodies still being captured and bodies waiting or scanning,
 * and by a cap on waiting bodies. What does not fit is not scanned, and counted:
 *  - `bodiesSkipped`: a body whose capture ran out of budget (the capture is let go at once);
 *  - `bodiesDropped`: a captured body refused because `maxJobs` already wait.
 * Responses are never slowed down by either: the client's bytes never pass through here.
 */
import type { ScanMeta, ScanReport, Scanner } from '../types.js';

export interface BacklogOptions {
  /** Bytes held by captures and queued bodies together. Default 64 MiB. */
  maxBytes?: number;
  /** Bodies waiting for the scanner (not counting the ones it is scanning). Default 1,024. */
  maxJobs?: number;
  /** Bodies handed to the scanner at once. Default 2 (the service passes 8 per worker thread). */
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

export class ScanBacklog {
  readonly #scanner: Scanner;
  readonly #maxBytes: number;
  readonly #maxJobs: number;
  readonly #concurrency: number;
  readonly #onError: (err: unknown) => void;
  /** Waiting jobs from `#head` on; the slots before it are cleared. */
  #queue: (ScanJob | undefined)[] = [];
  #head = 0;
  #running = 0;
  #held = 0;
  #idle: Array<() => void> = [];
  readonly #stats = { bodiesScanned: 0, bodiesSkipped: 0, bodiesDropped: 0, scanErrors: 0 };

  constructor(scanner: Scanner, options: BacklogOptions & { onError?: (err: unknown) => void } = {}) {
    this.#scanner = scanner;
    this.#maxBytes = options.maxBytes ?? kBacklogDefaults.maxBytes;
    this.#maxJobs = options.maxJobs ?? kBacklogDefaults.maxJobs;
    this.#concurrency = Math.max(1, options.concurrency ?? 2);
    this.#onError = options.onError ?? (() => {});
  }

  stats(): BacklogStats {
    return { ...this.#stats, bytesHeld: this.#held, waiting: this.#queue.length - this.#head, scanning: this.#running };
  }

  /** Reserves `n` bytes for a capture; false when the budget is spent. */
  reserve(n: number): boolean {
    if (this.#held + n > this.#maxBytes) return false;
    this.#held += n;
    return true;
  }

  release(n: number): void {
    this.#held -= n;
    this.#checkIdle();
  }

  /** Counts a body whose capture was abandoned for lack of budget. */
  skipped(): void {
    this.#stats.bodiesSkipped++;
  }

  /** Whether `submit` would take one more body now (`serve --scan overflow` sends it elsewhere when not). */
  hasRoom(): boolean {
    return this.#queue.length - this.#head < this.#maxJobs;
  }

  /** Queues a captured body (its bytes already reserved); false (and counted) when the queue is full. */
  submit(job: ScanJob): boolean {
    if (!this.hasRoom()) {
      this.#stats.bodiesDropped++;
      this.release(job.bytes);
      return false;
    }
    this.#queue.push(job);
    this.#pump();
    return true;
  }

  /** Resolves once nothing is waiting, scanning or being captured. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #isIdle(): boolean {
    return this.#running === 0 && this.#queue.length === this.#head && this.#held === 0;
  }

  #checkIdle(): void {
    if (this.#idle.length > 0 && this.#isIdle()) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const w of waiters) w();
    }
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#head < this.#queue.length) {
      const job = this.#queue[this.#head]!;
      // A job's slot is cleared as it leaves: left in place, a scanned job kept its body (the chunks its
      // `done` closure reaches) until 1,024 more had gone through, hundreds of MB outside the budget.
      this.#queue[this.#head++] = undefined;
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      } else if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      this.#running++;
      void this.#run(job);
    }
  }

  async #run(job: ScanJob): Promise<void> {
    let report: ScanReport | null = null;
    try {
      const body = job.chunks.length === 1 ? job.chunks[0]! : Buffer.concat(job.chunks, job.bytes);
      job.chunks = [];
      report = await this.#scanner.analyze(body, job.meta);
      this.#stats.bodiesScanned++;
    } catch (e) {
      this.#stats.scanErrors++;
      this.#onError(e);
    }
    // The body's bytes are let go before `done` runs: it only needs the report.
    this.#held -= job.bytes;
    try {
      await job.done(report);
    } catch (e) {
      this.#onError(e);
    }
    this.#running--;
    this.#pump();
    this.#checkIdle();
  }
}
