/**
 * The pool phase of `npm run bench`: `createScanner({ workers: 1 })` against `{ workers: 2 }` on a batch
 * corpus of many mixed bodies (throughput, all bodies submitted at once), and each worker's memory while
 * it scans 1 MiB bodies.
 *
 * Every measurement runs in a child process of its own (this file, forked by `runPoolPhase`): the main
 * bench process carries the engine phase's heap, programs and garbage, which would blur an RSS
 * difference of a few tens of MB, and one memory run per process keeps the allocator arenas a closed
 * scanner's threads leave behind from being reused (and hidden) by the next one.
 *
 * Worker memory cannot be read per thread (threads share one address space, and the pool exposes no
 * hook into its workers), so it is read on the whole child process: RSS sampled every 5 ms while the
 * workers scan 1 MiB bodies, against the same process idle with the same warmed workers, divided by
 * the number of workers. The main thread's own isolate (`heapTotal + external` of
 * `process.memoryUsage()`, which are per isolate) is taken out of each reading: it holds the bodies'
 * copies waiting for a worker and the reports coming back, which are not the workers' memory. A copy
 * handed to a worker (its ArrayBuffer is moved) leaves the main isolate and counts as the worker's, as
 * it should, until the worker's GC frees it. Both figures are kept: workers only (the goal's) and the
 * whole process (the queued copies and the reports included).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Scanner } from '../src/index.js';
import { kContentKinds, kDensities, makeBody, makeSizedBody, type Body, type Density } from './bodies.js';
import { BareThreads } from './bare.js';
import { median } from './measure.js';
import { Rng, seedOf } from './prng.js';
import { medianSplit, threadCpuNs, threadSplit, type ThreadSplit } from './threads.js';

/** Backend names the pool accepts (`createScanner({ backend })`). */
export type PoolBackend = 'auto' | 're2' | 're2-wasm';

export interface PoolOptions {
  quick: boolean;
  backend: PoolBackend;
  /** Hard bound of each child process; past it the child is killed and the phase reports a timeout. */
  childTimeoutMs: number;
}

/** One scanner on one corpus: every round submits all bodies at once and waits for all reports. */
export interface PoolThroughput {
  /**
   * Absent for the pool itself; `bare`: the in-thread engine in `workers` plain threads sharing the
   * corpus through one counter (bench/bare.ts), in the same rounds: what the machine gives two
   * scanning threads over one, with no pool at all; `compute`: the same threads running a compute loop
   * with no engine and nothing allocated (bench/bare.ts): what the host gives any two threads then.
   */
  kind?: 'bare' | 'compute';
  workers: number;
  corpus: 'batch' | '1MB';
  bodies: number;
  bytes: number;
  /**
   * Per round: wall milliseconds, MB/s, process CPU time / wall time (cores this process kept busy on
   * average), and the cores kept busy by everything else on the machine meanwhile (from /proc/stat;
   * absent where it cannot be read).
   */
  rounds: Array<{ ms: number; mbps: number; cpuPerWall: number; otherCores?: number; threads?: ThreadSplit }>;
  /** Medians of the rounds. */
  mbps: number;
  cpuPerWall: number;
  otherCores?: number;
  /**
   * The process's CPU by thread, in cores (bench/threads.ts): the scan threads (`workers` of them),
   * the calling thread, all others (V8's helpers...); each the median of the rounds' figures. Absent
   * where /proc cannot be read.
   */
  threads?: ThreadSplit;
  /** Findings of one round: the same for 1 and 2 workers, or the reports differ. */
  findings: number;
}

export interface PoolMemory {
  workers: number;
  /** RSS of the child before the scanner was created (bodies generated), MB = 2^20 bytes. */
  baseMB: number;
  /** RSS with the workers warmed up and idle. */
  idleMB: number;
  /** Highest RSS sampled while the workers scanned the 1 MiB bodies. */
  peakMB: number;
  /** (idle − base) / workers, main isolate taken out: what an idle, warmed worker costs. */
  idlePerWorkerMB: number;
  /** Highest (RSS − main isolate) while scanning, minus the same idle, / workers: the goal's figure. */
  scanPerWorkerMB: number;
  /** (peak RSS − idle RSS) / workers, main isolate included. */
  processScanPerWorkerMB: number;
  /** Main isolate (heapTotal + external) at its highest while scanning, minus idle. */
  mainGrowthMB: number;
  bodies: number;
  rounds: number;
  samples: number;
}

export type PoolPhaseResult =
  | {
      status: 'ok';
      backend: string;
      /** os.cpus().length of the machine. */
      cores: number;
      corpus: { batch: { bodies: number; bytes: number; minBytes: number; maxBytes: number; dense: number }; big: { bodies: number; bytes: number } };
      throughput: PoolThroughput[];
      /** Warm-up passes before the rounds: over the batch corpus per worker, over the 1 MiB corpus per scanner. */
      warmup: { batchPerWorker: number; big: number };
      memory: PoolMemory[];
      /** os.loadavg() (1, 5, 15 minutes) when the phase started and ended: the machine is shared. */
      loadavg: { start: number[]; end: number[] };
      seconds: number;
      memoryMethod: string;
    }
  | { status: 'error' | 'timeout'; message: string; loadavg: { start: number[]; end: number[] } };

export const kMemoryMethod =
  'process RSS less the main thread\'s isolate (process.memoryUsage() heapTotal + external), sampled every 5 ms while the workers scan 1 MiB bodies, ' +
  'minus the same reading idle with the same warmed workers, ÷ workers; one fresh child process per worker count. ' +
  '"process" = the same with the main isolate left in (queued body copies, reports)';

/** Warm-up passes over the 1 MiB corpus per scanner before any round is measured (see childThroughput). */
const kWarmPasses = 4;
/**
 * Warm-up passes over the batch corpus per worker (per thread for the bare and compute threads): a
 * runner with two workers makes twice as many, so that each worker has scanned as many bodies as a
 * lone one before the rounds (see childThroughput).
 */
const kWarmBatchPassesPerWorker = 24;

function warmBatchPasses(quick: boolean): number {
  return quick ? 2 : kWarmBatchPassesPerWorker;
}

/**
 * Corpus sizes (the full run's batch is about 12 MB; quick keeps the same mix, fewer bodies) and
 * rounds. The rounds are a ceiling: a child measures one warm-up pass first and keeps only as many
 * rounds as fit in its budget (a slow backend, e.g. `--backend re2-wasm`, gets one).
 */
function corpusPlan(quick: boolean): { batchBodies: number; bigCopies: number; batchRounds: number; bigRounds: number; memoryRounds: number } {
  return quick
    ? { batchBodies: 80, bigCopies: 1, batchRounds: 2, bigRounds: 1, memoryRounds: 1 }
    : { batchBodies: 200, bigCopies: 2, batchRounds: 9, bigRounds: 3, memoryRounds: 2 };
}

const kBatchMin = 16 * 1024;
const kBatchMax = 128 * 1024;

/**
 * The batch corpus: `count` bodies of mixed kinds, sizes log-uniform from 16 to 128 KiB (more small
 * bodies than large, as in traffic; mean about 54 KiB), a quarter of them dense. Seeded: same bytes on
 * every run.
 */
export function batchCorpus(count: number): Body[] {
  const rng = new Rng(seedOf('pool/batch'));
  const out: Body[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(kContentKinds);
    const density: Density = rng.chance(0.25) ? 'dense' : 'sparse';
    const size = Math.round(kBatchMin * Math.pow(kBatchMax / kBatchMin, rng.next()));
    out.push(makeSizedBody(kind, density, size, `pool/${i}/${kind}/${density}/${size}`));
  }
  return out;
}

/** The 1 MiB bodies of the engine cases (each kind, both densities), `copies` times over. */
export function bigCorpus(copies: number): Body[] {
  const one = kContentKinds.flatMap((k) => kDensities.map((d) => makeBody(k, d, '1MB')));
  return Array.from({ length: copies }, () => one).flat();
}

/** Small bodies that wake most rules, scanned once before any reading (re2-wasm compiles patterns lazily). */
function warmCorpus(): Body[] {
  return kContentKinds.flatMap((k) => kDensities.map((d) => makeBody(k, d, '16KB')));
}

function bytesOf(bodies: readonly Body[]): number {
  return bodies.reduce((n, b) => n + b.bytes.length, 0);
}

const kMiB = 2 ** 20;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function log(msg: string): void {
  process.stderr.write(`${msg}\n`);
}

// ---- Child side ---------------------------------------------------------------------------------------

/** `budgetMs`: the child sizes its rounds to end within it (the parent kills it at `childTimeoutMs`). */
type ChildRequest = { mode: 'throughput' | 'memory'; workers: number; quick: boolean; backend: PoolBackend; budgetMs: number };
type CorpusInfo = Extract<PoolPhaseResult, { status: 'ok' }>['corpus'];
type ChildReply = { type: 'throughput'; items: PoolThroughput[]; corpus: CorpusInfo } | { type: 'memory'; item: PoolMemory } | { type: 'error'; message: string };

/** Machine-wide CPU ticks (busy, total) from the first line of /proc/stat; null off Linux. */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return Number.isFinite(total) && total > 0 ? { busy: total - idle, total } : null;
  } catch {
    return null;
  }
}

/**
 * All bodies submitted at once; resolves with the wall time, process CPU time, total findings, and the
 * cores the rest of the machine kept busy meanwhile (the machine is shared: a 2-worker figure means
 * little when another process holds a core).
 */
function scanAll(
  s: Scanner,
  workers: number,
  bodies: readonly { bytes: Uint8Array; contentType: string }[],
): Promise<Measured> {
  // Only the count is kept: a report of a dense body holds thousands of findings.
  return measured(workers, async () => {
    const counts = await Promise.all(bodies.map((b) => s.analyze(b.bytes, { contentType: b.contentType }).then((r) => r.findings.length)));
    return counts.reduce((a, b) => a + b, 0);
  });
}

/** A measured pass: wall and process CPU milliseconds, findings, the other processes' cores meanwhile, and this process's CPU by thread. */
type Measured = { ms: number; cpuMs: number; findings: number; otherCores?: number; threads?: ThreadSplit };

/**
 * Wall and process CPU time of `run` (which resolves with a findings count) on `scanThreads` scanning
 * threads, the other processes' cores meanwhile, and the process's CPU split by thread.
 */
async function measured(scanThreads: number, run: () => Promise<number>): Promise<Measured> {
  const ticks0 = machineTicks();
  const threads0 = threadCpuNs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const findings = await run();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const threads1 = threadCpuNs();
  const ticks1 = machineTicks();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const out: Measured = { ms, cpuMs, findings };
  // The main thread's id is the process id on Linux.
  if (threads0 !== null && threads1 !== null) out.threads = threadSplit(threads0, threads1, ms, process.pid, scanThreads);
  if (ticks0 !== null && ticks1 !== null && ticks1.total > ticks0.total) {
    const busyCores = ((ticks1.busy - ticks0.busy) / (ticks1.total - ticks0.total)) * cpus().length;
    out.otherCores = Math.max(0, busyCores - cpuMs / ms);
  }
  return out;
}

/** RSS, and RSS less the main thread's isolate (heap and external memory, both per isolate in Node). */
function memoryReading(): { rss: number; rest: number; main: number } {
  const m = process.memoryUsage();
  const main = m.heapTotal + m.external;
  return { rss: m.rss, rest: m.rss - main, main };
}

/** The readings of a quiet process: medians of a few. */
async function quietReading(): Promise<{ rss: number; rest: number; main: number }> {
  const xs: Array<{ rss: number; rest: number; main: number }> = [];
  for (let i = 0; i < 9; i++) {
    xs.push(memoryReading());
    await sleep(25);
  }
  return { rss: median(xs.map((x) => x.rss)), rest: median(xs.map((x) => x.rest)), main: median(xs.map((x) => x.main)) };
}

function collectGarbage(): void {
  // The child runs with --expose-gc; only the main thread's heap (bodies' generation garbage) is collected.
  (globalThis as { gc?: () => void }).gc?.();
}

async function childThroughput(req: ChildRequest): Promise<{ items: PoolThroughput[]; corpus: CorpusInfo }> {
  const { createScanner } = await import('../src/index.js');
  const plan = corpusPlan(req.quick);
  const batch = batchCorpus(plan.batchBodies);
  const big = bigCorpus(plan.bigCopies);
  const maxQueue = Math.max(batch.length, big.length);
  const t0 = performance.now();
  const corpora = { batch, '1MB': big } as const;
  // Both scanners live through the whole run and take turns, round by round, so a change of the
  // machine's load falls on both instead of on whichever ran second; the bare engine threads and the
  // compute-loop threads (bench/bare.ts) take their turn in the same rounds, on the batch corpus only.
  const runners: Runner[] = [];
  try {
    for (const workers of [1, 2]) {
      const s = await createScanner({ workers, backend: req.backend, maxQueue });
      runners.push({ workers, noun: 'worker', corpora: ['batch', '1MB'], run: (c) => scanAll(s, workers, corpora[c]), close: () => s.close() });
    }
    for (const workers of [1, 2]) {
      const b = await BareThreads.start(workers, req.backend, batch);
      runners.push({ kind: 'bare', workers, noun: 'bare thread', corpora: ['batch'], run: () => measured(workers, () => b.pass()), close: () => b.close() });
    }
    for (const workers of [1, 2]) {
      const b = await BareThreads.start(workers, req.backend, batch, 'compute');
      runners.push({ kind: 'compute', workers, noun: 'compute thread', corpora: ['batch'], run: () => measured(workers, () => b.pass()), close: () => b.close() });
    }
    // The warm-up: every worker compiles its patterns (re2-wasm: lazily) and its code warms up. Each
    // worker is an isolate that JIT-compiles the engine on its own, and V8 goes on optimising the
    // engine's functions for about 20 passes over the batch corpus (in one thread, `--trace-opt`: 336
    // optimising compiles in the first pass, then 30, 24, 22, 14, ... and none from about the 20th),
    // each compile on a helper thread: with one worker on the otherwise idle core, with two taking CPU
    // from the workers. A pool of two whose workers had each scanned half the bodies a lone worker had
    // was measured in its start-up: after 4 and 12 passes two bare engine threads made 0.78-0.81 of the
    // host's two-thread figure in the same rounds (the compute loop), after 24 to 60 passes 0.83-1.03.
    // So each worker scans the batch corpus kWarmBatchPassesPerWorker times' worth (the pool of two
    // twice as many passes), and the 1 MiB corpus kWarmPasses times. The last pass sizes the rounds.
    const pass = { batch: 0, '1MB': 0 };
    for (const r of runners) {
      const w0 = performance.now();
      for (const c of r.corpora) {
        const passes = c === 'batch' ? warmBatchPasses(req.quick) * r.workers : kWarmPasses;
        for (let k = 0; k < passes; k++) {
          const { ms } = await r.run(c);
          if (k === passes - 1) pass[c] += ms;
        }
      }
      log(`pool     warm-up ${r.workers} ${r.noun}${r.workers > 1 ? 's' : ''}: ${((performance.now() - w0) / 1000).toFixed(1)} s`);
    }
    let batchRounds = plan.batchRounds;
    let bigRounds = plan.bigRounds;
    const left = req.budgetMs - (performance.now() - t0);
    while (batchRounds * pass.batch + bigRounds * pass['1MB'] > left && (batchRounds > 1 || bigRounds > 1)) {
      if (bigRounds > 1) bigRounds--;
      else batchRounds--;
    }
    if (batchRounds < plan.batchRounds || bigRounds < plan.bigRounds) log(`pool     time budget: ${batchRounds} batch and ${bigRounds} 1 MB rounds`);
    const out: PoolThroughput[] = [];
    for (const [corpus, rounds] of [
      ['batch', batchRounds],
      ['1MB', bigRounds],
    ] as const) {
      const bodies = corpora[corpus];
      const items = runners.filter((r) => r.corpora.includes(corpus)).map((runner) => ({ runner, workers: runner.workers, rounds: [] as PoolThroughput['rounds'], findings: 0 }));
      for (let r = 0; r < rounds; r++) {
        for (const item of items) {
          const { ms, cpuMs, findings, otherCores, threads } = await item.runner.run(corpus);
          const mbps = bytesOf(bodies) / 1e6 / (ms / 1000);
          item.rounds.push({ ms, mbps, cpuPerWall: cpuMs / ms, ...(otherCores !== undefined && { otherCores }), ...(threads !== undefined && { threads }) });
          item.findings = findings;
          const others = otherCores === undefined ? '' : `  other processes ${otherCores.toFixed(2)} cores`;
          const split = threads === undefined ? '' : `  threads: scan ${threads.scan.toFixed(2)} calling ${threads.calling.toFixed(2)} other ${threads.other.toFixed(2)}`;
          const who = `${item.workers} ${item.runner.noun}${item.workers > 1 ? 's' : ' '}`;
          log(`pool     ${corpus.padEnd(5)} ${who} round ${r + 1}: ${mbps.toFixed(2).padStart(7)} MB/s  CPU/wall ${(cpuMs / ms).toFixed(2)}${split}${others}`);
        }
      }
      for (const item of items) out.push({ ...(item.runner.kind !== undefined && { kind: item.runner.kind }), ...summary(item, corpus, bodies) });
    }
    const sizes = batch.map((b) => b.bytes.length);
    const corpus: CorpusInfo = {
      batch: { bodies: batch.length, bytes: bytesOf(batch), minBytes: Math.min(...sizes), maxBytes: Math.max(...sizes), dense: batch.filter((b) => b.name.includes('/dense/')).length },
      big: { bodies: big.length, bytes: bytesOf(big) },
    };
    return { items: out, corpus };
  } finally {
    for (const r of runners) await r.close();
  }
}

/** One side of the throughput rounds: a pool scanner, bare engine threads, or compute-loop threads. */
interface Runner {
  kind?: 'bare' | 'compute';
  workers: number;
  /** For the log: "worker", "bare thread", "compute thread". */
  noun: string;
  corpora: ReadonlyArray<PoolThroughput['corpus']>;
  /** One pass over a corpus, every body at once, measured. */
  run(corpus: PoolThroughput['corpus']): Promise<Measured>;
  close(): Promise<void>;
}

/** A runner's rounds on one corpus (a pool scanner's, the bare or the compute threads'), with their medians. */
function summary(item: { workers: number; rounds: PoolThroughput['rounds']; findings: number }, corpus: PoolThroughput['corpus'], bodies: readonly Body[]): PoolThroughput {
  const others = item.rounds.flatMap((x) => (x.otherCores === undefined ? [] : [x.otherCores]));
  const threads = item.rounds.flatMap((x) => (x.threads === undefined ? [] : [x.threads]));
  return {
    ...(others.length > 0 && { otherCores: median(others) }),
    ...(threads.length > 0 && { threads: medianSplit(threads) }),
    workers: item.workers,
    corpus,
    bodies: bodies.length,
    bytes: bytesOf(bodies),
    rounds: item.rounds,
    mbps: median(item.rounds.map((x) => x.mbps)),
    cpuPerWall: median(item.rounds.map((x) => x.cpuPerWall)),
    findings: item.findings,
  };
}

async function childMemory(req: ChildRequest): Promise<PoolMemory> {
  const { createScanner } = await import('../src/index.js');
  const plan = corpusPlan(req.quick);
  const warm = warmCorpus();
  // One of each 1 MiB body per round: with 2 workers each scans 4, so both are busy on one at a time.
  const big = bigCorpus(1);
  const t0 = performance.now();
  collectGarbage();
  await sleep(200);
  const base = await quietReading();
  // The default body path, as a caller gets it: the main thread copies each body into a buffer of its own, moved to the worker.
  const s = await createScanner({ workers: req.workers, backend: req.backend, maxQueue: big.length });
  try {
    await scanAll(s, req.workers, warm);
    collectGarbage();
    await sleep(300);
    const idle = await quietReading();
    const peak = { ...idle };
    let samples = 0;
    const sample = (): void => {
      const r = memoryReading();
      peak.rss = Math.max(peak.rss, r.rss);
      peak.rest = Math.max(peak.rest, r.rest);
      peak.main = Math.max(peak.main, r.main);
      samples++;
    };
    const sampler = setInterval(sample, 5);
    let done = 0;
    try {
      for (let r = 0; r < plan.memoryRounds; r++) {
        const r0 = performance.now();
        await scanAll(s, req.workers, big);
        done++;
        // Another round only if it fits the budget (a slow backend gets one).
        if (performance.now() - t0 + (performance.now() - r0) > req.budgetMs) break;
      }
    } finally {
      clearInterval(sampler);
    }
    sample();
    const w = req.workers;
    const item: PoolMemory = {
      workers: w,
      baseMB: base.rss / kMiB,
      idleMB: idle.rss / kMiB,
      peakMB: peak.rss / kMiB,
      idlePerWorkerMB: (idle.rest - base.rest) / kMiB / w,
      scanPerWorkerMB: (peak.rest - idle.rest) / kMiB / w,
      processScanPerWorkerMB: (peak.rss - idle.rss) / kMiB / w,
      mainGrowthMB: (peak.main - idle.main) / kMiB,
      bodies: big.length,
      rounds: done,
      samples,
    };
    log(
      `pool     memory ${w} worker${w > 1 ? 's' : ' '}: RSS ${item.baseMB.toFixed(0)} MB before, ${item.idleMB.toFixed(0)} MB idle, ${item.peakMB.toFixed(0)} MB peak scanning: ` +
        `+${item.scanPerWorkerMB.toFixed(1)} MB per worker (process: +${item.processScanPerWorkerMB.toFixed(1)}; main isolate +${item.mainGrowthMB.toFixed(1)} MB; ${samples} samples)`,
    );
    return item;
  } finally {
    await s.close();
  }
}

async function childMain(): Promise<void> {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('bench/pool.ts: run by engine.bench.ts (forked with an IPC channel)');
  const req = JSON.parse(process.argv[2] ?? '{}') as ChildRequest;
  let reply: ChildReply;
  try {
    reply = req.mode === 'memory' ? { type: 'memory', item: await childMemory(req) } : { type: 'throughput', ...(await childThroughput(req)) };
  } catch (err) {
    reply = { type: 'error', message: String((err as Error)?.message ?? err) };
  }
  await new Promise<void>((resolve) => send(reply, () => resolve()));
  process.disconnect?.();
}

if (process.env['LEAKSCAN_BENCH_POOL_CHILD'] === '1' && process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await childMain();
}

// ---- Parent side --------------------------------------------------------------------------------------

function runChild(req: ChildRequest, timeoutMs: number): Promise<ChildReply | { type: 'timeout' }> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(req)], {
    execArgv: ['--import', tsx, '--expose-gc'],
    env: { ...process.env, LEAKSCAN_BENCH_POOL_CHILD: '1' },
    // The child's progress goes to stderr like the rest of the bench's.
    stdio: ['ignore', 2, 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    let reply: ChildReply | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (m: ChildReply) => {
      reply = m;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) resolve({ type: 'timeout' });
      else resolve(reply ?? { type: 'error', message: `child exited (${signal ?? `code ${code}`}) without a result` });
    });
  });
}

/** The whole pool phase: memory with 1 and 2 workers, then throughput, each in a child process. */
export async function runPoolPhase(o: PoolOptions): Promise<PoolPhaseResult> {
  const started = Date.now();
  const start = loadavg();
  log(`pool     load average ${start.map((x) => x.toFixed(2)).join(' ')} (1, 5, 15 min)`);
  const fail = (status: 'error' | 'timeout', message: string): PoolPhaseResult => ({ status, message, loadavg: { start, end: loadavg() } });
  const memory: PoolMemory[] = [];
  for (const workers of [1, 2]) {
    const r = await runChild({ mode: 'memory', workers, quick: o.quick, backend: o.backend, budgetMs: o.childTimeoutMs * 0.6 }, o.childTimeoutMs);
    if (r.type === 'timeout') return fail('timeout', `memory run with ${workers} workers took more than ${o.childTimeoutMs / 1000} s`);
    if (r.type === 'error') return fail('error', r.message);
    if (r.type === 'memory') memory.push(r.item);
  }
  const r = await runChild({ mode: 'throughput', workers: 0, quick: o.quick, backend: o.backend, budgetMs: o.childTimeoutMs * 0.6 }, o.childTimeoutMs);
  if (r.type === 'timeout') return fail('timeout', `throughput run took more than ${o.childTimeoutMs / 1000} s`);
  if (r.type === 'error') return fail('error', r.message);
  if (r.type !== 'throughput') return fail('error', `unexpected reply ${r.type}`);
  const { resolveBackend } = await import('../src/engine/index.js');
  const end = loadavg();
  log(`pool     load average ${end.map((x) => x.toFixed(2)).join(' ')} at the end`);
  return {
    status: 'ok',
    backend: resolveBackend(o.backend).name,
    cores: cpus().length,
    corpus: r.corpus,
    throughput: r.items,
    warmup: { batchPerWorker: warmBatchPasses(o.quick), big: kWarmPasses },
    memory,
    loadavg: { start, end },
    seconds: (Date.now() - started) / 1000,
    memoryMethod: kMemoryMethod,
  };
}
