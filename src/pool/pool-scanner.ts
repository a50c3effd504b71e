/**
 * The pooled scanner behind `createScanner({ workers })`: bodies in memory shared with the workers,
 * queued bodies handed over several to a Piscina task, a bounded queue, a per-body timeout that
 * terminates a stuck worker, and a close that drains. Design and trade-offs: docs/pool.md.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { BodySource, BodyStream, Finding, ScanMeta, ScanReport, Scanner, ScannerOptions } from '../types.js';
import { LeakscanError } from '../errors.js';
import { allRuleDefs, checkConfidence, kConfidenceByRank, ruleTags, selectRules } from '../rules/index.js';
import { resolveBackend } from '../engine/index.js';
import { SharedBytes, gatherBody, gatherChunks, gatherStream, type GatheredBody } from './body.js';
import { bodyPlan, type PackedFindings, type PoolResult, type PoolTask, type RuleOptions, type ScanItem, type StartBoard, type TestHook } from './protocol.js';

/** Default per-task timeout. A body is at most 1 MiB and scans in milliseconds; 30 s means stuck. */
export const kDefaultTaskTimeoutMs = 30_000;
/** Default queued tasks per worker thread (beyond the ones running). */
export const kDefaultQueuePerThread = 64;
/**
 * Tasks handed to a worker at once: the one it scans and the next, which it starts without waiting for
 * a message round trip through the calling thread (docs/pool.md, "Two tasks per worker").
 */
export const kTasksPerWorker = 2;
/**
 * A task takes queued bodies up to these bounds (always at least one): one message, one Piscina task and
 * one wake-up of each thread for several bodies, whose reports come back together, so the byte bound
 * also bounds how long a report waits for its task's other bodies (docs/pool.md, "Queued bodies travel
 * together").
 */
export const kTaskMaxBodies = 32;
export const kTaskMaxBytes = 256 * 1024;
/**
 * As the queue runs down, a task takes at most the queue's bytes ÷ (threads × kTasksPerWorker), down
 * to this bound: the last tasks of a batch are small, so the workers finish together instead of one
 * idling while the other scans its last 256 KiB (docs/pool.md, "Queued bodies travel together").
 */
export const kTaskMinBytes = 32 * 1024;

/** The byte bound of the next task when `queuedBytes` wait for `slots` task slots (see kTaskMinBytes). */
export function taskByteBound(queuedBytes: number, slots: number): number {
  return Math.min(kTaskMaxBytes, Math.max(kTaskMinBytes, Math.ceil(queuedBytes / slots)));
}

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
/** The body queue's way in (body-queue.ts): a captured body queued without a maxQueue slot. */
export const kEnqueue: unique symbol = Symbol('leakscan.pool.enqueue');
/** Moves the body queue's waiting bodies to another pool (the service's confidence swap, levels.ts). */
export const kHandOver: unique symbol = Symbol('leakscan.pool.handOver');

interface Running {
  slot: number;
  timedOut: boolean;
}

/** A body accepted and not settled: waiting in the scanner's queue, or in a task handed to Piscina. */
interface Pending {
  /** Its start-board slot, taken when it is sent in a task (null while it waits). */
  running: Running | null;
  /**
   * Its bytes in shared memory; null for a body of the body queue until it is sent: it waits as the
   * chunks it was captured in, and is copied once, as its task is made (so the shared buffers are only
   * those of bodies out in tasks, reused from one body to the next).
   */
  g: GatheredBody | null;
  chunks: readonly Uint8Array[] | null;
  /** Bytes it sends (`g.bytes.length`, known before the copy). */
  size: number;
  meta: ScanMeta;
  hook: TestHook | undefined;
  /** Tasks it has been sent in (at most 2: a body is sent again once, see #failed). */
  sent: number;
  /** Set for a body of the body queue (body-queue.ts): called when it is first sent. Direct callers' bodies have none. */
  onSend: (() => void) | null;
  resolve: (report: ScanReport) => void;
  reject: (err: unknown) => void;
}

/** Young-generation size of each worker (see the pool's resourceLimits); measured in bench/. */
export const kYoungGenerationMb = 32;

/**
 * Where the worker module is: next to this file, as `.ts` when running from source (tests, `tsx`),
 * which then needs the tsx loader in the worker, or `.js` in the built package.
 */
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

/**
 * A scanner whose bodies are scanned on a Piscina pool of worker threads.
 *
 * Nothing old leads to a report. The calling thread's young-generation collections (scavenges) keep
 * whatever an object in the old generation points to, even an old object that is itself garbage: it is
 * only found dead at the next full collection. A V8 Map or Set that grows, shrinks or clears its deleted
 * entries moves to a new table and leaves the old one pointing to it, with the entries it held; so a
 * Set of the scans in flight, once its table had aged, kept every report of the following tables alive
 * through each scavenge, and so did Piscina's record of each task (its result holds the task's reports).
 * Survivors get copied, then promoted, then pin the next ones. On the bench's batch corpus with two
 * workers, the calling thread's scavenges kept about 2 MB of every round's 3.2 MB (measured with a
 * minor collection at the end of each round, after a full one at its start); with the scans counted
 * instead of kept in a Set and each task's results dropped once settled, 0.1 MB (docs/pool.md,
 * "The calling thread's collector").
 */
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
  /**
   * Bodies (and warm-ups) accepted and not settled yet, by start-board slot, for the watchdog (how many:
   * `#runningCount`, the slots not free). An array by slot rather than a Set, as `#inflight` is a
   * count: see "Nothing old leads to a report" in the class comment.
   */
  readonly #running: (Running | undefined)[];
  /**
   * Bodies waiting for a task, oldest first (`#queueHead` is the next one). A body's slot is cleared as
   * it leaves for a task: a taken entry left in place kept its settled promise, and so its report and
   * findings, alive until the queue next ran empty (see #pump).
   */
  #queue: (Pending | undefined)[] = [];
  #queueHead = 0;
  /** Bytes of the bodies in the queue. */
  #queuedBytes = 0;
  /** Bodies of direct callers (`analyze`…) accepted and not settled: what `maxQueue` bounds. */
  #direct = 0;
  /** Bodies of the body queue accepted and not settled (its own `maxJobs` bounds them). */
  #queued = 0;
  /** Scan tasks handed to Piscina and not settled: at most kTasksPerWorker per thread. */
  #tasks = 0;
  /** Scan tasks handed to Piscina since the start (a task carries one or more bodies). */
  #tasksSent = 0;
  readonly #boardThreads: Int32Array;
  readonly #boardStartedAt: Float64Array;
  readonly #freeSlots: number[];
  #watchdog: NodeJS.Timeout | null = null;
  /** Scans accepted and not settled (queued, running, or still reading their stream), for close(). */
  #inflight = 0;
  /** close() waiting for `#inflight` to reach 0. */
  #drained: (() => void) | null = null;
  readonly #compiles = new Map<number, number>();
  #closed = false;
  #closing: Promise<void> | null = null;

  private constructor(options: PoolScannerOptions, limits: { maxBytes: number; maxFindings: number }, threads: number) {
    this.#limits = limits;
    this.#rules = {
      ...(options.allRules !== undefined && { allRules: options.allRules }),
      ...(options.enable !== undefined && { enable: [...options.enable] }),
      ...(options.disable !== undefined && { disable: [...options.disable] }),
      ...(options.minConfidence !== undefined && { minConfidence: checkConfidence(options.minConfidence) }),
      ...(options.backend !== undefined && { backend: options.backend }),
    };
    this.#timeoutMs = nonNegativeInteger('taskTimeout', options.taskTimeout, kDefaultTaskTimeoutMs);
    this.#threads = threads;
    this.#maxQueue = nonNegativeInteger('maxQueue', options.maxQueue, kDefaultQueuePerThread * threads);
    this.#moveBytes = options.transferBodies === true;
    // A slot per body that can be out in a task (slots are taken as a task is made, so bodies waiting
    // in the queue need none), and one per thread for the warm-ups.
    const slots = threads * (kTasksPerWorker * kTaskMaxBodies + 1);
    const board: StartBoard = { threads: new SharedArrayBuffer(4 * slots), startedAt: new SharedArrayBuffer(8 * slots) };
    this.#boardThreads = new Int32Array(board.threads);
    this.#boardStartedAt = new Float64Array(board.startedAt);
    this.#freeSlots = Array.from({ length: slots }, (_, i) => slots - 1 - i);
    this.#running = new Array<Running | undefined>(slots).fill(undefined);
    const { filename, execArgv } = workerEntry();
    this.#pool = new Piscina<PoolTask, PoolResult>({
      filename,
      ...(execArgv !== undefined && { execArgv }),
      // A fixed set of threads: a crashed or terminated worker is replaced at once, and an idle pool
      // keeps its compiled programs.
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      // Only a backstop: #pump keeps the tasks out at threads × kTasksPerWorker.
      maxQueue: this.#maxQueue + threads,
      // The worker runs its tasks one after the other (worker.ts); the second only saves the round trip.
      concurrentTasksPerWorker: kTasksPerWorker,
      // A scan makes much short-lived garbage (decoded text, slices, match objects: about 8 bytes per
      // byte scanned). With V8's default young generation (3 × 16 MB semi-spaces) a worker's RSS once
      // grew about 68 MB while scanning 1 MB bodies, so it was held to 12 MB; since the engine
      // allocates less, 32 MB costs +41.5 MB per worker there (the goal is < 64) and a third of the
      // collections of 12 MB (8 against 27 scavenges per pass over the bench's batch corpus,
      // `--trace-gc`): the pooled scan took 3-10% less CPU (pools of both sizes in one process,
      // measured in turns; docs/pool.md, "Young generation").
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
    checkConfidence(options.minConfidence);
    resolveBackend(options.backend ?? 'auto');
    const scanner = new PoolScanner(options, limits, threads);
    try {
      await Promise.all(Array.from({ length: threads }, () => scanner.#warm()));
    } catch (err) {
      await scanner.#pool.destroy();
      throw err;
    }
    return scanner;
  }

  async analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) throw new LeakscanError('SDD_ERR_SCANNER_CLOSED');
    // Refused before the body is copied or encoded (#scan checks again, also for streams, read first).
    if (this.#direct >= this.#threads + this.#maxQueue) throw this.#queueFull();
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
      while (this.#inflight > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
      await this.#pool.destroy();
    })();
    return this.#closing;
  }

  /**
   * Pool figures for tests and monitoring. `queueSize`: bodies accepted beyond one per thread (waiting
   * in the queue, or handed to a worker busy with another body); `maxQueue` bounds those of direct callers. `tasks`:
   * scan tasks handed to the workers so far (queued bodies travel several to a task); `completed`:
   * Piscina's count of tasks that returned, warm-ups included.
   */
  stats(): { threads: number; queueSize: number; tasks: number; completed: number; compilesPerThread: number[] } {
    return {
      threads: this.#pool.threads.length,
      queueSize: Math.max(0, this.#direct + this.#queued - this.#threads),
      tasks: this.#tasksSent,
      completed: this.#pool.completed,
      compilesPerThread: [...this.#compiles.values()],
    };
  }

  /** Test-only: runs one body with a fault hook (ignored unless the worker has LEAKSCAN_TEST_HOOKS=1). */
  [kTestHook](hook: TestHook, body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    if (this.#closed) return Promise.reject(new LeakscanError('SDD_ERR_SCANNER_CLOSED'));
    return this.#track(this.#scan(gatherBody(body, meta, this.#limits.maxBytes, false, this.#shared), meta, hook));
  }

  /**
   * A body captured in chunks, from the body queue, queued with no `maxQueue` check (the body queue
   * bounds its own). It waits as its chunks and is copied once into shared memory as it is sent
   * (`gatherChunks`); `onSend` is called then.
   */
  [kEnqueue](chunks: readonly Uint8Array[], meta: ScanMeta, onSend: () => void): Promise<ScanReport> {
    if (this.#closed) return Promise.reject(new LeakscanError('SDD_ERR_SCANNER_CLOSED'));
    let total = 0;
    for (const c of chunks) total += c.length;
    const size = Math.min(total, bodyPlan(meta, this.#limits.maxBytes).keep);
    return this.#track(this.#push(null, [...chunks], size, meta, undefined, onSend));
  }

  /**
   * Hands the body queue's bodies still waiting here to `to`, ahead of its own (they are older), so the
   * queue outlives a swap of pools. They stay counted by this scanner's close(), which waits for them.
   */
  [kHandOver](to: PoolScanner): void {
    if (to === this) return;
    const moved: Pending[] = [];
    const kept: Pending[] = [];
    for (let i = this.#queueHead; i < this.#queue.length; i++) {
      const p = this.#queue[i]!;
      (p.onSend === null ? kept : moved).push(p);
    }
    if (moved.length === 0) return;
    let bytes = 0;
    for (const p of moved) bytes += p.size;
    this.#queue = kept;
    this.#queueHead = 0;
    this.#queuedBytes -= bytes;
    this.#queued -= moved.length;
    to.#queue.splice(to.#queueHead, 0, ...moved);
    to.#queuedBytes += bytes;
    to.#queued += moved.length;
    to.#pump();
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inflight++;
    const forget = (): void => {
      if (--this.#inflight === 0 && this.#drained !== null) {
        const drained = this.#drained;
        this.#drained = null;
        drained();
      }
    };
    p.then(forget, forget);
    return p;
  }

  /**
   * Queues the body (a direct caller's is refused past `maxQueue`) and resolves with its report. Its
   * start-board slot is taken when it is sent (#send).
   */
  #scan(g: GatheredBody, meta: ScanMeta | undefined, hook?: TestHook): Promise<ScanReport> {
    return this.#push(g, null, g.bytes.length, meta, hook, null);
  }

  #push(g: GatheredBody | null, chunks: readonly Uint8Array[] | null, size: number, meta: ScanMeta | undefined, hook: TestHook | undefined, onSend: (() => void) | null): Promise<ScanReport> {
    return new Promise<ScanReport>((resolve, reject) => {
      if (onSend === null) {
        if (this.#direct >= this.#threads + this.#maxQueue) throw this.#queueFull();
        this.#direct++;
      } else {
        this.#queued++;
      }
      this.#queue.push({ running: null, g, chunks, size, meta: { ...meta }, hook, sent: 0, onSend, resolve, reject });
      this.#queuedBytes += size;
      this.#pump();
    });
  }

  /** A body settles (report or failure): it no longer counts as accepted. */
  #forget(p: Pending): void {
    if (p.onSend === null) this.#direct--;
    else this.#queued--;
  }

  /**
   * A slot on the start board for a body being sent or a warm-up. The bodies accepted are counted by
   * #scan rather than left to Piscina's maxQueue, whose count leaves out threads still starting (a
   * replacement after a crash) and whose maxQueue 0 path rejects a task it has already queued (it would
   * still run later); #pump sends no more bodies than there are free slots.
   */
  #take(): Running {
    const slot = this.#freeSlots.pop();
    if (slot === undefined) throw new LeakscanError('SDD_ERR_WORKER_FAILED', 'no start-board slot is free');
    Atomics.store(this.#boardThreads, slot, 0);
    const running: Running = { slot, timedOut: false };
    this.#running[slot] = running;
    this.#startWatchdog();
    return running;
  }

  /** Slots taken: bodies sent and warm-ups, not settled. */
  get #runningCount(): number {
    return this.#running.length - this.#freeSlots.length;
  }

  #release(running: Running): void {
    this.#running[running.slot] = undefined;
    Atomics.store(this.#boardThreads, running.slot, 0);
    this.#freeSlots.push(running.slot);
    if (this.#runningCount === 0) this.#stopWatchdog();
  }

  /**
   * Hands queued bodies to Piscina while fewer than kTasksPerWorker tasks per thread are out. A task
   * takes the queue's share per free task (so an idle pool spreads a few bodies over its workers), at
   * most kTaskMaxBodies and taskByteBound's bytes (its first body whatever its size).
   */
  #pump(): void {
    const limit = this.#threads * kTasksPerWorker;
    while (this.#tasks < limit && this.#queueHead < this.#queue.length && this.#freeSlots.length > 0) {
      const waiting = this.#queue.length - this.#queueHead;
      const share = Math.min(kTaskMaxBodies, this.#freeSlots.length, Math.ceil(waiting / (limit - this.#tasks)));
      const maxBytes = taskByteBound(this.#queuedBytes, limit);
      const batch: Pending[] = [];
      let bytes = 0;
      while (batch.length < share && this.#queueHead < this.#queue.length) {
        const next = this.#queue[this.#queueHead]!;
        if (batch.length > 0 && bytes + next.size > maxBytes) break;
        batch.push(next);
        bytes += next.size;
        this.#queue[this.#queueHead++] = undefined;
      }
      this.#queuedBytes -= bytes;
      if (this.#queueHead === this.#queue.length) {
        this.#queue = [];
        this.#queueHead = 0;
      } else if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#queueHead);
        this.#queueHead = 0;
      }
      this.#send(batch);
    }
  }

  #send(batch: Pending[]): void {
    const items: ScanItem[] = [];
    const transfer: ArrayBuffer[] = [];
    for (const p of batch) {
      p.running = this.#take();
      if (++p.sent === 1) p.onSend?.();
      if (p.g === null) {
        p.g = gatherChunks(p.chunks!, p.meta, this.#limits.maxBytes, this.#shared);
        p.chunks = null;
      }
      const { g } = p;
      items.push({ slot: p.running.slot, meta: p.meta, bytes: g.bytes, cuts: g.cuts, tail: g.tail, tailMode: g.tailMode, error: g.error, ...(p.hook !== undefined && { __test: p.hook }) });
      if (g.moved !== null) transfer.push(g.moved);
    }
    this.#tasks++;
    this.#tasksSent++;
    this.#pool.run({ kind: 'scan', rules: this.#rules, limits: this.#limits, items }, { transferList: transfer }).then(
      (result) => {
        this.#tasks--;
        // A result without its items (not a shape the worker sends) fails each body rather than
        // leaving it unsettled.
        const items = Array.isArray(result?.items) ? result.items : [];
        if (typeof result?.threadId === 'number') this.#compiles.set(result.threadId, result.compiles);
        batch.forEach((p, i) => this.#settle(p, items[i]));
        // The reports are the callers' now; Piscina's objects for the task would lead to them until a
        // full collection (see "Nothing old leads to a report" in the class comment).
        if (items.length > 0) result.items = [];
        this.#pump();
      },
      (err: unknown) => {
        this.#tasks--;
        const again = batch.filter((p) => this.#failed(p, err));
        this.#queue.splice(this.#queueHead, 0, ...again);
        for (const p of again) this.#queuedBytes += p.size;
        this.#pump();
      },
    );
  }

  #settle(p: Pending, r: PoolResult['items'][number] | undefined): void {
    this.#release(p.running!);
    this.#forget(p);
    // The worker returned: it reads the bytes no more. (After a failure the buffer is left to the
    // collector: a terminated worker's thread may not have stopped yet.)
    if (p.g!.moved === null) this.#shared.give(p.g!.bytes);
    if (r === undefined) return p.reject(new LeakscanError('SDD_ERR_WORKER_FAILED', 'the worker returned no report'));
    if ('error' in r) return p.reject(new LeakscanError('SDD_ERR_WORKER_FAILED', r.error));
    try {
      r.report.findings = unpackFindings(r.packed);
      p.resolve(r.report);
    } catch (err) {
      p.reject(err);
    }
  }

  /**
   * A task failed (its worker exited, threw outside a scan, or was terminated at a timeout). Its bodies
   * are told apart by the start board: the one being scanned (marked, not ended) fails; one that never
   * started, or whose scan ended but whose report was lost with the worker, is queued again at the
   * front, unless it was already sent twice or its buffer was moved to the dead worker (transferBodies).
   * A body that hung or crashed one worker would most likely take a second one with it, so it is not
   * retried; the caller still has it and can decide. Returns true for a body to queue again.
   */
  #failed(p: Pending, err: unknown): boolean {
    const running = p.running!;
    const state = Atomics.load(this.#boardThreads, running.slot);
    // Either way the slot is let go: a body sent again takes a new one.
    this.#release(running);
    p.running = null;
    const moved = p.g!.moved !== null;
    if (state <= 0 && !running.timedOut && !isQueueLimit(err) && !moved && p.sent < 2) return true;
    this.#forget(p);
    let why = '';
    if (moved && state === 0) why = ' (the worker was lost before it started this body, which was moved to it and cannot be sent again)';
    if (moved && state < 0) why = ' (the worker was lost after scanning this body, before returning its report; the body was moved to it and cannot be sent again)';
    p.reject(this.#failure(err, running, why));
    return false;
  }

  #failure(err: unknown, running: Running, why = ''): LeakscanError {
    if (running.timedOut) {
      return new LeakscanError('SDD_ERR_WORKER_FAILED', `no result within ${this.#timeoutMs} ms; the worker was terminated and replaced`, { cause: err });
    }
    if (isQueueLimit(err)) return new LeakscanError('SDD_ERR_POOL_QUEUE_FULL', undefined, { cause: err });
    return new LeakscanError('SDD_ERR_WORKER_FAILED', `${(err as Error)?.message ?? String(err)}${why}`, { cause: err });
  }

  /** A warm-up task (compiles the program on a worker), on its own slot, outside the body queue. */
  async #warm(): Promise<void> {
    const running = this.#take();
    try {
      const result = await this.#pool.run({ kind: 'warm', slot: running.slot, rules: this.#rules } satisfies PoolTask);
      this.#compiles.set(result.threadId, result.compiles);
    } catch (err) {
      throw this.#failure(err, running);
    } finally {
      this.#release(running);
    }
  }

  #queueFull(): LeakscanError {
    return new LeakscanError('SDD_ERR_POOL_QUEUE_FULL', `${this.#direct - this.#threads} bodies already wait (maxQueue ${this.#maxQueue})`);
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
      if (running === undefined) continue;
      // 0: not started; < 0: its scan ended (the task's other bodies may still run).
      const threadId = Atomics.load(this.#boardThreads, running.slot);
      if (threadId <= 0 || running.timedOut) continue;
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
    const r = rules[spans[4 * i]!]!;
    out[i] = { ruleId: r.id, description: r.description, tags: r.tags, start: spans[4 * i + 1]!, end: spans[4 * i + 2]!, redacted: p.redacted[i]!, confidence: kConfidenceByRank[spans[4 * i + 3]!]! };
  }
  return out;
}
