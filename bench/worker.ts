/**
 * The bench's guard thread. Two kinds of work run here, each under a timer kept by the main thread,
 * which terminates the worker when a budget is spent and reports "> budget" instead of hanging:
 *
 * - the baselines: a V8 regex cannot be interrupted from its own thread, and on adversarial bodies
 *   the (a) alternation can run for minutes;
 * - the engine's first call on each body (the guard probe): a scan cannot be interrupted either, and
 *   an engine under construction can take minutes on one hostile body. Only bodies that pass the
 *   guard are then measured in the main thread.
 *
 * Protocol, one request at a time: the host posts a request; the worker answers `probe` after one
 * timed call, then (baselines only) `result`, or `error`.
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { baselineText, compileBaseline, windowsOf, type BaselineRun, type BaselineSpec } from './baselines.js';
import { measure, plannedSamples, probe, type MeasureOptions, type Measured } from './measure.js';
import type { PairedRound } from './report.js';

/** Rule sets the worker can rebuild by name (rules hold functions, so they cannot be posted). */
export type RuleSetName = 'default' | 'all' | 'fixture';
/** Engine backends the bench measures (by name: a backend object cannot be posted either). */
export type EngineBackendName = 're2' | 're2-wasm';

type Request =
  | {
      type: 'baseline';
      id: number;
      name: string;
      spec: BaselineSpec;
      body: Uint8Array;
      options: MeasureOptions;
      /** (b) only: past this, the probe stops and extrapolates from the windows timed so far. */
      estimateAfterMs: number;
    }
  | { type: 'engine'; id: number; ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter; contentType: string; body: Uint8Array }
  /** The engine scans each body for `msEach`, untimed: warms this thread's engine code for `paired`. */
  | { type: 'warm'; id: number; ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter; items: Array<{ contentType: string; body: Uint8Array }>; msEach: number }
  /** Baseline (b) in alternation with the engine (see `pairedRun`). */
  | ({ type: 'paired'; id: number; ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter; contentType: string; spec: BaselineSpec; body: Uint8Array } & PairedPlan);

/** How `pairedRun` spends its time. */
export interface PairedPlan {
  /** Rounds of (b) over consecutive windows, at most. */
  rounds: number;
  /** Each engine burst scans for this long (at least 3 scans), after `settleScans` untimed ones. */
  burstMs: number;
  settleScans: number;
  /** Untimed scans of the body for this long first (this thread's engine code warms up). */
  warmMs: number;
  /** No round starts once (b) has been timed for this long; the rest of the body is extrapolated. */
  stopAfterMs: number;
}

/** What `pairedRun` measured: the rounds, (b)'s positive windows, and the windows it timed. */
export interface PairedOutcome {
  rounds: PairedRound[];
  count: number;
  windowsTimed: number;
  windows: number;
}

/** Which prefilter the engine runs: `auto` (the native pass where it is built) or the TypeScript one. */
export type BenchPrefilter = 'auto' | 'js';

/** Windows timed / windows in the body, when a (b) time is extrapolated rather than measured. */
export interface Extrapolated {
  windowsTimed: number;
  windows: number;
}

type Reply =
  | { type: 'probe'; id: number; ms: number; count: number }
  | { type: 'result'; id: number; measured: Measured; count: number; extrapolated?: Extrapolated }
  | { type: 'error'; id: number; message: string }
  | ({ type: 'paired'; id: number } & PairedOutcome);

export type BaselineOutcome =
  | { status: 'ok'; measured: Measured; count: number; extrapolated?: Extrapolated }
  | { status: 'timeout'; budgetMs: number }
  | { status: 'error'; message: string };

export type GuardOutcome =
  | { status: 'ok'; ms: number; findings: number }
  | { status: 'timeout'; budgetMs: number }
  | { status: 'error'; message: string };

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const compiled = new Map<string, BaselineRun>();
  // Imported lazily: a baseline-only worker need not load the engine and the rule catalogue.
  const programs = new Map<string, Promise<(contentType: string, body: Uint8Array) => Promise<number>>>();
  const engineFor = (name: RuleSetName, backendName: EngineBackendName, prefilter: BenchPrefilter) => {
    const key = `${name}\0${backendName}\0${prefilter}`;
    let p = programs.get(key);
    if (p === undefined) {
      p = (async () => {
        const { compileProgram, resolveBackend, scanStream, withPrefilter } = await import('../src/engine/index.js');
        const { selectRules } = await import('../src/rules/index.js');
        const { kFixtureRules } = await import('./fixture-rules.js');
        const rules = name === 'fixture' ? kFixtureRules : selectRules({ allRules: name === 'all' });
        const compiled = compileProgram(rules, resolveBackend(backendName));
        const program = prefilter === 'js' ? withPrefilter(compiled, 'js') : compiled;
        return async (contentType: string, body: Uint8Array) => (await scanStream(program, [body], { contentType })).findings.length;
      })();
      programs.set(key, p);
    }
    return p;
  };

  port.on('message', (req: Request) => {
    void (async () => {
      try {
        if (req.type === 'engine') {
          const scan = await engineFor(req.ruleSet, req.backend, req.prefilter);
          let count = 0;
          const ms = await probe(async () => {
            count = await scan(req.contentType, req.body);
          });
          port.postMessage({ type: 'probe', id: req.id, ms, count } satisfies Reply);
          return;
        }
        if (req.type === 'warm') {
          const scan = await engineFor(req.ruleSet, req.backend, req.prefilter);
          for (const { contentType, body } of req.items) await scanFor(req.msEach, () => scan(contentType, body));
          port.postMessage({ type: 'probe', id: req.id, ms: 0, count: 0 } satisfies Reply);
          return;
        }
        const key = `${req.spec.kind}\0${req.spec.flags}\0${req.spec.source}`;
        let run = compiled.get(key);
        if (run === undefined) {
          run = compileBaseline(req.spec);
          compiled.set(key, run);
        }
        const fn = run;
        if (req.type === 'paired') {
          const scan = await engineFor(req.ruleSet, req.backend, req.prefilter);
          const out = await pairedRun(fn, (body) => scan(req.contentType, body), req.body, req.spec, req);
          port.postMessage({ type: 'paired', id: req.id, ...out } satisfies Reply);
          return;
        }
        let count = 0;
        let ms: number;
        if (fn.estimate !== undefined) {
          const est = fn.estimate(req.body, req.estimateAfterMs);
          count = est.count;
          ms = est.ms;
          if (est.estimated) {
            port.postMessage({ type: 'probe', id: req.id, ms: 0, count } satisfies Reply);
            const measured: Measured = { p50: est.ms, p99: est.ms, mean: est.ms, samples: 0 };
            const extrapolated = { windowsTimed: est.windowsTimed, windows: est.windows };
            port.postMessage({ type: 'result', id: req.id, measured, count, extrapolated } satisfies Reply);
            return;
          }
        } else {
          ms = await probe(() => {
            count = fn.run(req.body);
          });
        }
        port.postMessage({ type: 'probe', id: req.id, ms, count } satisfies Reply);
        const measured = await measure(req.name, () => fn.run(req.body), ms, req.options);
        port.postMessage({ type: 'result', id: req.id, measured, count } satisfies Reply);
      } catch (err) {
        port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies Reply);
      }
    })();
  });
}

/**
 * Baseline (b) on one body in alternation with the engine, both in this thread: an engine burst (the
 * median of scans of the whole body for `burstMs`), then (b) over a run of consecutive windows (run once
 * untimed first: RE2 builds its DFA states lazily, and a first pass over a 1 MB log took 1.7× a second),
 * then another burst, and so on. Each round is paired with the mean of the bursts around it. One thread
 * and no pause between the parts: a thread that had been idle for 200 ms scanned the next bodies 10% to
 * 40% slower (measured), which would have counted against whichever side came after a wait.
 */
async function pairedRun(fn: BaselineRun, scan: (body: Uint8Array) => Promise<unknown>, body: Uint8Array, spec: BaselineSpec, plan: PairedPlan): Promise<PairedOutcome> {
  if (fn.timeWindows === undefined) throw new Error('this baseline has no windows');
  // Decoded once: a megabyte of garbage per round would bring this thread's heap to a major GC, whose
  // marking slowed the engine's bursts (an HTML body's took 15 ms against 8.8 a round later).
  const text = baselineText(body);
  const spans = windowsOf(text, spec.overlap);
  const lengths = spans.map(([s, e]) => e - s);
  const total = lengths.reduce((a, b) => a + b, 0);
  const per = Math.max(1, Math.ceil(lengths.length / Math.max(1, plan.rounds)));
  const burst = async (): Promise<number> => {
    const times: number[] = [];
    // The first scans after (b) run on caches (b) filled: not timed.
    for (let i = 0; i < plan.settleScans; i++) await scan(body);
    const t0 = performance.now();
    while (times.length < 3 || (performance.now() - t0 < plan.burstMs && times.length < 25)) {
      const s = performance.now();
      await scan(body);
      times.push(performance.now() - s);
    }
    times.sort((x, y) => x - y);
    const m = times.length >> 1;
    return times.length % 2 === 1 ? times[m]! : (times[m - 1]! + times[m]!) / 2;
  };
  const rounds: PairedRound[] = [];
  let timed = 0;
  let count = 0;
  let done = 0;
  // This thread's first scans of the body compile and optimize the engine's code: untimed.
  await scanFor(plan.warmMs, () => scan(body));
  let before = await burst();
  for (let from = 0; from < lengths.length; from += per) {
    const to = Math.min(lengths.length, from + per);
    const w = fn.timeWindows(text, spans.slice(from, to), true);
    const after = await burst();
    let chars = 0;
    for (let i = from; i < to; i++) chars += lengths[i]!;
    rounds.push({ bMs: w.ms, engineMs: (before + after) / 2, share: total > 0 ? chars / total : 0 });
    before = after;
    timed += w.ms;
    count += w.count;
    done = to;
    if (timed > plan.stopAfterMs) break;
  }
  return { rounds, count, windowsTimed: done, windows: lengths.length };
}

/** Scans again and again, untimed, for `ms` (at least once). */
async function scanFor(ms: number, scan: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  do await scan();
  while (performance.now() - t0 < ms);
}

type Settled = { kind: 'probe' | 'result'; reply: Reply } | { kind: 'timeout' } | { kind: 'error'; message: string };

/**
 * The main-thread side: one worker, replaced after a timeout. tsx's loader is not inherited by
 * worker threads on Node 20, so the worker is started from a tiny bootstrap that registers tsx first.
 */
export class BenchWorker {
  #worker: Worker | null = null;
  #nextId = 1;

  #spawn(): Worker {
    const bootstrap =
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
      `.then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const w = new Worker(bootstrap, { eval: true });
    // A worker waiting for work must not keep the process alive once the bench is done.
    w.unref();
    return w;
  }

  /**
   * Posts one request and settles on its final reply. `budgetMs` bounds the first call hard (past it
   * the worker is terminated); `afterProbe` gives the budget of the rest from the probe time, or null
   * when the probe is the final answer.
   */
  #request(req: Request, budgetMs: number, afterProbe: (probeMs: number) => number | null): Promise<Settled> {
    const worker = (this.#worker ??= this.#spawn());
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (settled: Settled, kill: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (kill) {
          void worker.terminate();
          this.#worker = null;
        }
        resolve(settled);
      };
      const arm = (ms: number): void => {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ kind: 'timeout' }, true), ms);
      };
      const onMessage = (reply: Reply): void => {
        if (reply.id !== req.id) return;
        if (reply.type === 'error') return finish({ kind: 'error', message: reply.message }, false);
        if (reply.type === 'probe') {
          const rest = afterProbe(reply.ms);
          if (rest === null) return finish({ kind: 'probe', reply }, false);
          return arm(rest);
        }
        finish({ kind: 'result', reply }, false);
      };
      const onError = (err: Error): void => finish({ kind: 'error', message: err.message }, true);
      worker.on('message', onMessage);
      worker.on('error', onError);
      arm(budgetMs);
      worker.postMessage(req);
    });
  }

  /** The engine's first scan of `body` with the named rule set and backend, bounded by `budgetMs`. */
  async guardEngine(ruleSet: RuleSetName, backend: EngineBackendName, prefilter: BenchPrefilter, contentType: string, body: Uint8Array, budgetMs: number): Promise<GuardOutcome> {
    // A copy, so the main thread's body stays usable; 1 MiB at most.
    const req: Request = { type: 'engine', id: this.#nextId++, ruleSet, backend, prefilter, contentType, body: Uint8Array.from(body) };
    const out = await this.#request(req, budgetMs, () => null);
    if (out.kind === 'timeout') return { status: 'timeout', budgetMs };
    if (out.kind === 'error') return { status: 'error', message: out.message };
    const r = out.reply;
    return r.type === 'probe' ? { status: 'ok', ms: r.ms, findings: r.count } : { status: 'error', message: 'unexpected reply' };
  }

  /**
   * Runs one baseline case. `budgetMs` bounds the probe (the first call) hard. The sampling after the
   * probe is bounded by a multiple of the probe time, so a case can never hang the bench.
   * `estimateAfterMs` is the soft budget of (b)'s extrapolation.
   */
  async baseline(name: string, spec: BaselineSpec, body: Uint8Array, options: MeasureOptions, budgetMs: number, estimateAfterMs: number): Promise<BaselineOutcome> {
    const req: Request = { type: 'baseline', id: this.#nextId++, name, spec, body: Uint8Array.from(body), options, estimateAfterMs };
    const out = await this.#request(req, budgetMs, (ms) => {
      const { iterations } = plannedSamples(ms, options);
      return ms * (iterations + 3) * 3 + options.timeMs * 3 + options.warmupMs * 3 + 10_000;
    });
    if (out.kind === 'timeout') return { status: 'timeout', budgetMs };
    if (out.kind === 'error') return { status: 'error', message: out.message };
    const r = out.reply;
    if (r.type !== 'result') return { status: 'error', message: 'unexpected reply' };
    const outcome: BaselineOutcome = { status: 'ok', measured: r.measured, count: r.count };
    if (r.extrapolated !== undefined) outcome.extrapolated = r.extrapolated;
    return outcome;
  }

  /**
   * The engine scans each body for `msEach` in this worker, untimed, so that its code is optimized on
   * every kind of body before `paired` times it (the main thread's has seen them all by then).
   */
  async warmEngine(engine: { ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter }, items: Array<{ contentType: string; body: Uint8Array }>, msEach: number, budgetMs: number): Promise<void> {
    const req: Request = { type: 'warm', id: this.#nextId++, ...engine, items: items.map((i) => ({ contentType: i.contentType, body: Uint8Array.from(i.body) })), msEach };
    const out = await this.#request(req, budgetMs, () => null);
    if (out.kind === 'error') throw new Error(`warming the engine in the baselines' worker: ${out.message}`);
    if (out.kind === 'timeout') throw new Error(`warming the engine in the baselines' worker took over ${budgetMs} ms`);
  }

  /** Baseline (b) in alternation with the engine on `body` (see `pairedRun`), the whole bounded by `budgetMs`. */
  async paired(
    engine: { ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter; contentType: string },
    spec: BaselineSpec,
    body: Uint8Array,
    plan: PairedPlan,
    budgetMs: number,
  ): Promise<({ status: 'ok' } & PairedOutcome) | { status: 'timeout'; budgetMs: number } | { status: 'error'; message: string }> {
    const req: Request = { type: 'paired', id: this.#nextId++, ...engine, spec, body: Uint8Array.from(body), ...plan };
    const out = await this.#request(req, budgetMs, () => null);
    if (out.kind === 'timeout') return { status: 'timeout', budgetMs };
    if (out.kind === 'error') return { status: 'error', message: out.message };
    const r = out.reply;
    if (r.type !== 'paired') return { status: 'error', message: 'unexpected reply' };
    return { status: 'ok', rounds: r.rounds, count: r.count, windowsTimed: r.windowsTimed, windows: r.windows };
  }

  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = null;
  }
}
