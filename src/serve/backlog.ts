/**
 * The scan backlog: the in-thread `ScanQueue` (src/pool/body-queue.ts), in front of a scanner that is
 * not pooled (`workers: 0`, or a scanner a test injects). Response bodies captured off the response
 * path wait here for the scanner, joined into one buffer as they leave. Memory is bounded by one byte
 * budget shared by bodies still being captured and bodies waiting or scanning, and by a cap on
 * waiting bodies. What does not fit is not scanned, and counted:
 *  - `bodiesSkipped`: a body whose capture ran out of budget (the capture is let go at once);
 *  - `bodiesDropped`: a captured body refused because `maxJobs` already wait.
 * Responses are never slowed down by either: the client's bytes never pass through here.
 */
import type { ScanReport, Scanner } from '../types.js';
import { QueueBudget, kBacklogDefaults, type BacklogOptions, type BacklogStats, type ScanJob, type ScanQueue } from '../pool/index.js';

export { kBacklogDefaults, type BacklogOptions, type BacklogStats, type ScanJob, type ScanQueue };

export class ScanBacklog extends QueueBudget {
  readonly #scanner: Scanner;
  readonly #concurrency: number;
  /** Waiting jobs from `#head` on; the slots before it are cleared. */
  #queue: (ScanJob | undefined)[] = [];
  #head = 0;
  #running = 0;

  constructor(scanner: Scanner, options: BacklogOptions & { onError?: (err: unknown) => void } = {}) {
    super(options);
    this.#scanner = scanner;
    this.#concurrency = Math.max(1, options.concurrency ?? 2);
  }

  protected waitingNow(): number {
    return this.#queue.length - this.#head;
  }

  protected scanningNow(): number {
    return this.#running;
  }

  /** Queues a captured body (its bytes already reserved); false (and counted) when the queue is full. */
  submit(job: ScanJob): boolean {
    if (!this.hasRoom()) return this.refuse(job);
    this.#queue.push(job);
    this.#pump();
    return true;
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
    let scan: Promise<ScanReport>;
    try {
      const body = job.chunks.length === 1 ? job.chunks[0]! : Buffer.concat(job.chunks, job.bytes);
      job.chunks = [];
      scan = this.#scanner.analyze(body, job.meta);
    } catch (e) {
      scan = Promise.reject(e);
    }
    await this.finish(job, scan);
    this.#running--;
    this.#pump();
    this.checkIdle();
  }
}
