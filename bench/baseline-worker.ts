/**
 * Runs the baselines in a worker thread. A V8 regex cannot be interrupted from its own thread, and on
 * adversarial bodies the (a) alternation can run for minutes; in a worker, the main thread keeps a
 * timer and terminates the worker when the budget is spent, reporting "> budget" instead of hanging.
 *
 * Protocol (one case at a time): the host posts `{ id, spec, body, options }`; the worker answers
 * `probe` after one timed call, then `result` (or `error`).
 */
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { compileBaseline, type BaselineRun, type BaselineSpec } from './baselines.js';
import { measure, plannedSamples, probe, type MeasureOptions, type Measured } from './measure.js';

interface Request {
  id: number;
  name: string;
  spec: BaselineSpec;
  body: Uint8Array;
  options: MeasureOptions;
  /** (b) only: past this, the probe stops and extrapolates from the windows timed so far. */
  estimateAfterMs: number;
}

/** Windows timed / windows in the body, when a (b) time is extrapolated rather than measured. */
export interface Extrapolated {
  windowsTimed: number;
  windows: number;
}

type Reply =
  | { type: 'probe'; id: number; ms: number; count: number }
  | { type: 'result'; id: number; measured: Measured; extrapolated?: Extrapolated }
  | { type: 'error'; id: number; message: string };

export type BaselineOutcome =
  | { status: 'ok'; measured: Measured; count: number; extrapolated?: Extrapolated }
  | { status: 'timeout'; budgetMs: number }
  | { status: 'error'; message: string };

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  const compiled = new Map<string, BaselineRun>();
  port.on('message', (req: Request) => {
    void (async () => {
      try {
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
            port.postMessage({ type: 'result', id: req.id, measured, extrapolated } satisfies Reply);
            return;
          }
        } else {
          ms = await probe(() => {
            count = fn.run(req.body);
          });
        }
        port.postMessage({ type: 'probe', id: req.id, ms, count } satisfies Reply);
        const measured = await measure(req.name, () => fn.run(req.body), ms, req.options);
        port.postMessage({ type: 'result', id: req.id, measured } satisfies Reply);
      } catch (err) {
        port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies Reply);
      }
    })();
  });
}

/**
 * The main-thread side: one worker, replaced after a timeout. tsx's loader is not inherited by
 * worker threads on Node 20, so the worker is started from a tiny bootstrap that registers tsx first.
 */
export class BaselineHost {
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
   * Runs one baseline case. `budgetMs` bounds the probe (the first call) hard: past it the worker is
   * terminated. The sampling after the probe is bounded by a multiple of the probe time, so a case
   * can never hang the bench. `estimateAfterMs` is the soft budget of (b)'s extrapolation.
   */
  run(name: string, spec: BaselineSpec, body: Uint8Array, options: MeasureOptions, budgetMs: number, estimateAfterMs: number): Promise<BaselineOutcome> {
    const worker = (this.#worker ??= this.#spawn());
    const id = this.#nextId++;
    return new Promise<BaselineOutcome>((resolve) => {
      let count = 0;
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: BaselineOutcome, kill: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (kill) {
          void worker.terminate();
          this.#worker = null;
        }
        resolve(outcome);
      };
      const arm = (ms: number): void => {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ status: 'timeout', budgetMs }, true), ms);
      };
      const onMessage = (reply: Reply): void => {
        if (reply.id !== id) return;
        if (reply.type === 'probe') {
          count = reply.count;
          const { iterations } = plannedSamples(reply.ms, options);
          arm(reply.ms * (iterations + 3) * 3 + options.timeMs * 3 + options.warmupMs * 3 + 10_000);
        } else if (reply.type === 'result') {
          const outcome: BaselineOutcome = { status: 'ok', measured: reply.measured, count };
          if (reply.extrapolated !== undefined) outcome.extrapolated = reply.extrapolated;
          finish(outcome, false);
        } else {
          finish({ status: 'error', message: reply.message }, false);
        }
      };
      const onError = (err: Error): void => finish({ status: 'error', message: err.message }, true);
      worker.on('message', onMessage);
      worker.on('error', onError);
      arm(budgetMs);
      // A copy, so the main thread's body stays usable; 1 MiB at most.
      worker.postMessage({ id, name, spec, body: Uint8Array.from(body), options, estimateAfterMs } satisfies Request);
    });
  }

  async close(): Promise<void> {
    await this.#worker?.terminate();
    this.#worker = null;
  }
}
