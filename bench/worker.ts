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
import { compileBaseline, type BaselineRun, type BaselineSpec } from './baselines.js';
import { measure, plannedSamples, probe, type MeasureOptions, type Measured } from './measure.js';

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
  | { type: 'engine'; id: number; ruleSet: RuleSetName; backend: EngineBackendName; prefilter: BenchPrefilter; contentType: string; body: Uint8Array };

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
  | { type: 'error'; id: number; message: string };

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
        const key = `${req.spec.kind}\0${req.spec.flags}\0${req.spec.source}`;
        let run = compiled.get(key);
        if (run === undefined) {
          run = compileBaseline(req.spec);
          compiled.set(key, run);
        }
        const fn = run;
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

  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = null;
  }
}
