/**
 * The pooled scanner behind `createScanner({ workers })`: one body per Piscina task, bodies moved to
 * the worker as ArrayBuffers, a bounded queue, a per-task timeout that terminates a stuck worker, and
 * a close that drains. Design and trade-offs: docs/pool.md.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { BodySource, BodyStream, Finding, ScanMeta, ScanReport, Scanner, ScannerOptions } from '../types.js';
import { LeakscanError } from '../errors.js';
import { allRuleDefs, ruleTags, selectRules } from '../rules/index.js';
import { resolveBackend } from '../engine/index.js';
import { SharedBytes, gatherBody, gatherStream, type GatheredBody } from './body.js';
import type { PackedFindings, PoolResult, PoolTask, RuleOptions, StartBoard, TestHook } from './protocol.js';

/** Default per-task timeout. A body is at most 1 MiB and scans in milliseconds; 30 s means stuck. */
export const kDefaultTaskTimeoutMs = 30_000;
/** Default queued tasks per worker thread (beyond the ones running). */
export const kDefaultQueuePerThread = 64;
/**
 * Tasks handed to a worker at once: the one it scans and the next, which it starts without waiting for
 * a message round trip through the calling thread (docs/pool.md, "Two tasks per worker").
 */
export const kTasksPerWorker = 2;

/** Pool knobs on top of the scanner options. */
export interface PoolScannerOptions extends ScannerOptions {
  /**
   * Milliseconds a task may run on a worker (counted from when the worker starts it, not from
   * queueing). Past it the worker is terminated and replaced, and the scan rejects with
   * `SDD_ERR_WORKER_FAILED`. Checked every tenth of it (at most every second). 0 = no timeout.
   * Default 30,000.
   */
  taskTimeout?: number;
  /**
   * Tasks allowed to wait while every worker is busy; one more rejects with `SDD_ERR_POOL_QUEUE_FULL`
   * at once. 0 = no waiting. Default 64 per worker thread.
   */
  maxQueue?: number;
  /**
   * Move a `Uint8Array` body's ArrayBuffer to the worker instead of copying its first bytes (at most
   * the scan cap, about 0.3 ms per MiB, into memory shared with the worker). Only when the array spans its
   * whole, non-shared buffer; the caller's array is detached (length 0) afterwards, and a body whose
   * worker dies before starting it fails instead of being sent again. Default false.
   */
  transferBodies?: boolean;
}

/** Set on a task by the pool's tests; the worker honours it only when LEAKSCAN_TEST_HOOKS=1 in its env. */
export const kTestHook: unique symbol = Symbol('leakscan.pool.testHook');

interface Running {
  slot: number;
  timedOut: boolean;
}

/**
 * Where the worker module is: next to this file, as `.ts` when running from source (tests, `tsx`),
 * which then needs the tsx loader in the worker, or `.js` in the built package.
 */
/** Young-generation size of each worker (see the pool's resourceLimits); measured in bench/. */
const kYoungGenerationMb = 12;

function workerEntry(): { filename: string; execArgv: string[] | undefined } {
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url));
  if (!fromSource) return { filename, execArgv: undefined };
  // Resolved here rather than by name so the worker finds tsx whatever the process's cwd.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename, execArgv: ['--import', tsx] };
}

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `${name} must be a non-negative integer`);
  return value;
}

/** A scanner whose bodies are scanned on a Piscina pool of worker threads. */
export class PoolScanner implements Scanner {
  readonly #pool: Piscina<PoolTask, PoolResult>;
  readonly #rules: RuleOptions;
  readonly #limits: { maxBytes: number; maxFindings: number };
  readonly #timeoutMs: number;
  readonly #maxQueue: number;
  readonly #threads: number;
  readonly #moveBytes: boolean;
  /** The bodies' shared buffers, reused once their scans settle. */
  readonly #shared = new SharedBytes();
  /** Tasks handed to Piscina and not settled yet (queued or running). */
  readonly #running = new Set<Running>();
  readonly #boardThreads: Int32Array;
  readonly #boardStartedAt: Float64Array;
  readonly #freeSlots: number[];
  #watchdog: NodeJS.Timeout | null = null;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #compiles = new Map<number, number>();
  #closed = false;
  #closing: Promise<void> | null = null;

  private constructor(options: PoolScannerOptions, limits: { maxBytes: number; maxFindings: number }, threads: number) {
    this.#limits = limits;
    this.#rules = {
      ...(options.allRules !== undefined && { allRules: options.allRules }),
      ...(options.enable !== undefined && { enable: [...options.enable] }),
      ...(options.disable !== undefined && { disable: [...options.disable] }),
      ...(options.backend !== undefined && { backend: options.backend }),
    };
    this.#timeoutMs = nonNegativeInteger('taskTimeout', options.taskTimeout, kDefaultTaskTimeoutMs);
    this.#threads = threads;
    this.#maxQueue = nonNegativeInteger('maxQueue', options.maxQueue, kDefaultQueuePerThread * threads);
    this.#moveBytes = options.transferBodies === true;
    // A slot per task that can be in flight: every thread busy and a full queue.
    const slots = threads + this.#maxQueue;
    const board: StartBoard = { threads: new SharedArrayBuffer(4 * slots), startedAt: new SharedArrayBuffer(8 * slots) };
    this.#boardThreads = new Int32Array(board.threads);
    this.#boardStartedAt = new Float64Array(board.startedAt);
    this.#freeSlots = Array.from({ length: slots }, (_, i) => slots - 1 - i);
    const { filename, execArgv } = workerEntry();
    this.#pool = new Piscina<PoolTask, PoolResult>({
      filename,
      ...(execArgv !== undefined && { execArgv }),
      // A fixed set of threads: a crashed or terminated worker is replaced at once, and an idle pool
      // keeps its compiled programs.
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      // Only a backstop: #submit keeps the number of tasks below threads + maxQueue.
      maxQueue: this.#maxQueue + threads,
      // The worker runs its tasks one after the other (worker.ts); the second only saves the round trip.
      concurrentTasksPerWorker: kTasksPerWorker,
      // A scan makes much short-lived garbage (decoded slices, match arrays); with V8's default
      // young generation (3 × 16 MB semi-spaces) a worker's RSS grew about 68 MB while scanning 1 MB
      // bodies. A smaller nursery is collected more often, each time cheaply (little survives a scan).
      resourceLimits: { maxYoungGenerationSizeMb: kYoungGenerationMb },
      workerData: board,
    });
    // A worker that dies with no task (it can only be a bug) is replaced by Piscina; without a
    // listener its 'error' event would crash the process.
    this.#pool.on('error', () => {});
  }

  /**
   * Starts the pool and compiles the program on every worker, so the first bodies do not pay for it
   * and a worker that cannot start fails here rather than on a scan.
   */
  static async create(options: PoolScannerOptions, limits: { maxBytes: number; maxFindings: number }): Promise<PoolScanner> {
    const threads = options.workers ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) {
      throw new LeakscanError('SDD_ERR_INVALID_OPTION', 'workers must be a non-negative integer');
    }
    // Unknown rule ids/tags and unavailable backends throw here, in the caller's thread, as LocalScanner does.
    selectRules({ allRules: options.allRules, enable: options.enable, disable: options.disable });
    resolveBackend(options.backend ?? 'auto');
    const scanner = new PoolScanner(options, limits, threads);
    try {
      await Promise.all(Array.from({ length: threads }, () => scanner.#submit((slot) => ({ kind: 'warm', slot, rules: scanner.#rules }), [])));
    } catch (err) {
      await scanner.#pool.destroy();
      throw err;
    }
    return scanner;
  }

  async analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) throw new LeakscanError('SDD_ERR_SCANNER_CLOSED');
    // Refused before the body is copied or encoded (#submit checks again for streams, read first).
    if (this.#freeSlots.length === 0) throw this.#queueFull();
    return this.#track(this.#scan(gatherBody(body, meta, this.#limits.maxBytes, this.#moveBytes, this.#shared), meta));
  }

  async analyzeStream(body: BodyStream | Iterable<Uint8Array>, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) throw new LeakscanError('SDD_ERR_SCANNER_CLOSED');
    return this.#track(gatherStream(body, meta, this.#limits.maxBytes, this.#shared).then((g) => this.#scan(g, meta)));
  }

  async scan(body: BodySource, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyze(body, meta)).findings;
  }

  async scanStream(body: BodyStream, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyzeStream(body, meta)).findings;
  }

  /** Lets every scan already accepted (queued, running, or still reading its stream) finish, then stops the threads. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= (async () => {
      while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
      await this.#pool.destroy();
    })();
    return this.#closing;
  }

  /**
   * Pool figures for tests and monitoring. `queueSize`: bodies accepted beyond one per thread, the count
   * `maxQueue` bounds (waiting in the queue, or handed to a worker busy with another body).
   */
  stats(): { threads: number; queueSize: number; completed: number; compilesPerThread: number[] } {
    return {
      threads: this.#pool.threads.length,
      queueSize: Math.max(0, this.#running.size - this.#threads),
      completed: this.#pool.completed,
      compilesPerThread: [...this.#compiles.values()],
    };
  }

  /** Test-only: runs one body with a fault hook (ignored unless the worker has LEAKSCAN_TEST_HOOKS=1). */
  [kTestHook](hook: TestHook, body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) return Promise.reject(new LeakscanError('SDD_ERR_SCANNER_CLOSED'));
    return this.#track(this.#scan(gatherBody(body, meta, this.#limits.maxBytes, false, this.#shared), meta, hook));
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inflight.add(p);
    const forget = (): void => {
      this.#inflight.delete(p);
    };
    p.then(forget, forget);
    return p;
  }

  async #scan(g: GatheredBody, meta: ScanMeta | undefined, hook?: TestHook): Promise<ScanReport> {
    const task = (slot: number): PoolTask => ({
      kind: 'scan',
      slot,
      rules: this.#rules,
      limits: this.#limits,
      meta: { ...meta },
      bytes: g.bytes,
      cuts: g.cuts,
      tail: g.tail,
      tailMode: g.tailMode,
      error: g.error,
      ...(hook !== undefined && { __test: hook }),
    });
    // Bytes the scanner copied are in shared memory, still here when the task settles, so a body that
    // never started (its worker died scanning the one before) can be sent again; a caller's buffer moved
    // at its request (transferBodies) cannot.
    const result = await this.#submit(task, g.moved === null ? [] : [g.moved]);
    // The worker returned: it reads the bytes no more. (After a failure the buffer is left to the
    // collector: a terminated worker's thread may not have stopped yet.)
    if (g.moved === null) this.#shared.give(g.bytes);
    if (result.report === null) throw new LeakscanError('SDD_ERR_WORKER_FAILED', 'the worker returned no report');
    if (result.packed !== undefined) result.report.findings = unpackFindings(result.packed);
    return result.report;
  }

  /**
   * Runs a task on the pool. A task that fails because its worker died before starting it is submitted
   * once more, unless it moved a buffer (`transfer`), which is gone with that worker.
   */
  async #submit(task: (slot: number) => PoolTask, transfer: ArrayBuffer[]): Promise<PoolResult> {
    const retry = transfer.length === 0;
    // At most `threads` bodies run and `maxQueue` wait. Counted here rather than left to Piscina's
    // maxQueue, whose count leaves out threads still starting (a replacement after a crash) and whose
    // maxQueue 0 path rejects a task it has already queued (it would still run later).
    const slot = this.#freeSlots.pop();
    if (slot === undefined) throw this.#queueFull();
    Atomics.store(this.#boardThreads, slot, 0);
    const running: Running = { slot, timedOut: false };
    this.#running.add(running);
    this.#startWatchdog();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await this.#pool.run(task(slot), { transferList: transfer });
          this.#compiles.set(result.threadId, result.compiles);
          return result;
        } catch (err) {
          // Not started: no worker marked it on the board (a worker marks a task first thing), so no
          // code of it ran. Only a lost worker fails such a task; a full queue is not retried.
          const started = Atomics.load(this.#boardThreads, slot) !== 0;
          if (!retry || attempt > 1 || started || running.timedOut || isQueueLimit(err)) throw err;
          Atomics.store(this.#boardThreads, slot, 0);
        }
      }
    } catch (err) {
      if (running.timedOut) {
        throw new LeakscanError('SDD_ERR_WORKER_FAILED', `no result within ${this.#timeoutMs} ms; the worker was terminated and replaced`, { cause: err });
      }
      if (isQueueLimit(err)) throw new LeakscanError('SDD_ERR_POOL_QUEUE_FULL', undefined, { cause: err });
      const message = (err as Error)?.message ?? String(err);
      const started = Atomics.load(this.#boardThreads, slot) !== 0;
      throw new LeakscanError('SDD_ERR_WORKER_FAILED', started || retry ? message : `${message} (the worker was lost before it started this body, which was moved to it and cannot be sent again)`, { cause: err });
    } finally {
      this.#running.delete(running);
      Atomics.store(this.#boardThreads, slot, 0);
      this.#freeSlots.push(slot);
      if (this.#running.size === 0) this.#stopWatchdog();
    }
  }

  #queueFull(): LeakscanError {
    return new LeakscanError('SDD_ERR_POOL_QUEUE_FULL', `${this.#running.size - this.#threads} bodies already wait (maxQueue ${this.#maxQueue})`);
  }

  /** Runs while tasks are in flight: terminates the thread of any task started longer than the timeout ago. */
  #startWatchdog(): void {
    if (this.#watchdog !== null || this.#timeoutMs === 0) return;
    const every = Math.max(5, Math.min(1000, Math.floor(this.#timeoutMs / 10)));
    this.#watchdog = setInterval(() => this.#checkTimeouts(), every);
    // The pending scans keep the process alive, not the watchdog.
    this.#watchdog.unref();
  }

  #stopWatchdog(): void {
    if (this.#watchdog !== null) clearInterval(this.#watchdog);
    this.#watchdog = null;
  }

  #checkTimeouts(): void {
    const now = Date.now();
    for (const running of this.#running) {
      const threadId = Atomics.load(this.#boardThreads, running.slot);
      if (threadId === 0 || running.timedOut) continue;
      if (now - this.#boardStartedAt[running.slot]! < this.#timeoutMs) continue;
      running.timedOut = true;
      // Terminating the thread makes Piscina fail the task ("worker exited") and start a replacement.
      const worker = this.#pool.threads.find((w) => w.threadId === threadId);
      void worker?.terminate();
    }
  }
}

/** Piscina's refusals for a full queue (a backstop only: #submit counts slots first). */
function isQueueLimit(err: unknown): boolean {
  const message = (err as Error)?.message;
  return message === 'Task queue is at limit' || message === 'No task queue available and all Workers are busy';
}

/** Per rule id, the finding fields that come from the rule (shared by all its findings, as in-thread). */
const kRuleFields = new Map(allRuleDefs.map((r) => [r.id, { description: r.description, tags: ruleTags(r) }]));

function unpackFindings(p: PackedFindings): Finding[] {
  const rules = p.ids.map((id) => {
    const f = kRuleFields.get(id);
    if (f === undefined) throw new LeakscanError('SDD_ERR_WORKER_FAILED', `the worker reported an unknown rule ${JSON.stringify(id)}`);
    return { id, ...f };
  });
  const out = new Array<Finding>(p.redacted.length);
  const spans = p.spans;
  for (let i = 0; i < out.length; i++) {
    const r = rules[spans[3 * i]!]!;
    out[i] = { ruleId: r.id, description: r.description, tags: r.tags, start: spans[3 * i + 1]!, end: spans[3 * i + 2]!, redacted: p.redacted[i]! };
  }
  return out;
}
