/**
 * The Piscina worker entry: a task scans its bodies one after the other with the in-thread engine
 * (`scanStream`), so a pooled report is the in-thread report by construction. Programs are compiled once per worker per
 * distinct rule option set and reused for every later task.
 */
import { threadId, workerData } from 'node:worker_threads';
import { scanStream, type Program } from '../engine/index.js';
import { programFor } from '../scanner.js';
import type { Finding } from '../types.js';
import { kConfidenceRank } from '../rules/types.js';
import { isStartBoard, type ItemResult, type PackedFindings, type PoolResult, type PoolTask, type RuleOptions, type ScanItem, type TestHook } from './protocol.js';

const board = isStartBoard(workerData) ? { threads: new Int32Array(workerData.threads), startedAt: new Float64Array(workerData.startedAt) } : null;

const programs = new Map<string, Program>();
let compiles = 0;

/** The scanner's own `programFor`, compiled on first use in this worker and kept for its lifetime. */
function cachedProgram(rules: RuleOptions): Program {
  const key = JSON.stringify([rules.allRules === true, rules.enable ?? [], rules.disable ?? [], rules.minConfidence ?? 'high', rules.backend ?? 'auto']);
  let program = programs.get(key);
  if (program === undefined) {
    program = programFor(rules);
    programs.set(key, program);
    compiles += 1;
  }
  return program;
}

/** Zero bytes standing for the ones received past the cap: the engine only counts them (see TailMode). */
let zeros: Uint8Array | null = null;

/** The chunks as the main thread received them, then the counted tail, then the source's failure. */
function* chunksOf(task: ScanItem): Generator<Uint8Array> {
  const { bytes, cuts } = task;
  if (cuts === null) {
    yield bytes;
  } else {
    let at = 0;
    for (const len of cuts) {
      yield bytes.subarray(at, at + len);
      at += len;
    }
  }
  if (task.tailMode === 'push') {
    zeros ??= new Uint8Array(1024 * 1024);
    for (let left = task.tail; left > 0; left -= zeros.length) yield left >= zeros.length ? zeros : zeros.subarray(0, left);
  }
  if (task.error !== null) throw new Error(task.error);
}

function runHook(hook: TestHook): Promise<never> | undefined {
  if (hook === 'exit') process.exit(70);
  if (hook === 'uncaught') {
    setImmediate(() => {
      throw new Error('leakscan test hook: uncaught exception in a scan worker');
    });
    return new Promise<never>(() => {});
  }
  // 'hang': a synchronous loop, the worst case: the worker's event loop never turns again.
  for (;;);
}

/** The task this worker runs or last ran: the next one starts when it settles. */
let previous: Promise<unknown> = Promise.resolve();
/** What `previous` keeps of a task: its turn, not its result or failure. */
const ignore = (): void => {};

/**
 * Piscina's handler. The pool hands a worker two tasks at once (the next one waits here, not behind a
 * message round trip); they run one after the other.
 */
export default function scanTask(task: PoolTask): Promise<PoolResult> {
  const run = previous.then(() => runTask(task));
  // Only the turn is kept, not the result (`run.catch` would hold the last task's reports until the next).
  previous = run.then(ignore, ignore);
  return run;
}

/** Marks a slot on the board: `threadId` when its body starts, `-threadId` when its scan has ended. */
function mark(slot: number, state: number): void {
  if (board === null) return;
  if (state > 0) board.startedAt[slot] = Date.now();
  Atomics.store(board.threads, slot, state);
}

async function runTask(task: PoolTask): Promise<PoolResult> {
  if (task.kind === 'warm') {
    mark(task.slot, threadId);
    const pending = hookOf(task.__test);
    if (pending) return pending;
    cachedProgram(task.rules);
    return { items: [], threadId, compiles };
  }
  const program = cachedProgram(task.rules);
  const items: ItemResult[] = [];
  for (const item of task.items) {
    mark(item.slot, threadId);
    const pending = hookOf(item.__test);
    if (pending) return pending;
    items.push(await scanItem(program, item, task.limits));
    mark(item.slot, -threadId);
  }
  return { items, threadId, compiles };
}

function hookOf(hook: TestHook | undefined): Promise<never> | undefined {
  return hook !== undefined && process.env.LEAKSCAN_TEST_HOOKS === '1' ? runHook(hook) : undefined;
}

/** One body's report; what the engine threw (a bug: it does not throw on content) fails this body only. */
async function scanItem(program: Program, item: ScanItem, limits: { maxBytes: number; maxFindings: number }): Promise<ItemResult> {
  try {
    const report = await scanStream(program, chunksOf(item), item.meta, limits);
    if (item.tailMode === 'received') report.bytesReceived += item.tail;
    const packed = packFindings(report.findings);
    return { report: { ...report, findings: [] }, packed };
  } catch (err) {
    return { error: (err as Error)?.message ?? String(err) };
  }
}

function packFindings(findings: readonly Finding[]): PackedFindings {
  const n = findings.length;
  const ids: string[] = [];
  const index = new Map<string, number>();
  const packed: PackedFindings = { ids, spans: new Float64Array(4 * n), redacted: new Array<string>(n) };
  for (let i = 0; i < n; i++) {
    const f = findings[i]!;
    let k = index.get(f.ruleId);
    if (k === undefined) {
      k = ids.length;
      ids.push(f.ruleId);
      index.set(f.ruleId, k);
    }
    packed.spans[4 * i] = k;
    packed.spans[4 * i + 1] = f.start;
    packed.spans[4 * i + 2] = f.end;
    packed.spans[4 * i + 3] = kConfidenceRank[f.confidence];
    packed.redacted[i] = f.redacted;
  }
  return packed;
}
