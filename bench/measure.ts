/**
 * One tinybench run per case, sized from a probe: the probe (one timed call) doubles as the first
 * warm-up and decides how many samples the case can afford within its budget, so a 20 ms case gets
 * dozens of samples and a 1 s case one or two, and the whole bench stays within its time budget
 * however slow the engine of the day is.
 */
import { Bench } from 'tinybench';

export interface MeasureOptions {
  /** tinybench `time`: milliseconds of sampling per fast case (it runs at least `minIterations`). */
  timeMs: number;
  /** Samples for a fast case. */
  minIterations: number;
  /**
   * Sampling budget of a slow case: when `minIterations` calls would take longer, the case gets
   * `floor(caseBudgetMs / probe)` samples (at least one) and no warm-up beyond the probe.
   */
  caseBudgetMs: number;
  /** Warm-up budget for fast cases. */
  warmupMs: number;
}

export interface Measured {
  /** Milliseconds per body. */
  p50: number;
  p99: number;
  mean: number;
  samples: number;
}

/** Times one call of `fn` (the probe). */
/** The median of `xs` (the mean of the middle two for an even count; NaN for none). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

export async function probe(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Samples a case gets after a probe of `probeMs`. */
export function plannedSamples(probeMs: number, o: MeasureOptions): { slow: boolean; iterations: number } {
  const slow = probeMs * o.minIterations > o.caseBudgetMs;
  return { slow, iterations: slow ? Math.max(1, Math.floor(o.caseBudgetMs / Math.max(probeMs, 1e-3))) : o.minIterations };
}

/**
 * Samples `fn` with tinybench after a probe of `probeMs`. A case so slow that its budget allows one
 * call keeps the probe as its only sample: one more call would double its cost and, at a second or
 * more per call, warm-up no longer matters.
 */
export async function measure(name: string, fn: () => unknown, probeMs: number, o: MeasureOptions): Promise<Measured> {
  const { slow, iterations } = plannedSamples(probeMs, o);
  if (slow && probeMs >= o.caseBudgetMs) return { p50: probeMs, p99: probeMs, mean: probeMs, samples: 1 };
  const bench = new Bench({
    name,
    time: slow ? 0 : o.timeMs,
    iterations,
    warmup: !slow,
    warmupTime: o.warmupMs,
    warmupIterations: 2,
    throws: true,
  });
  bench.add(name, fn);
  await bench.run();
  const task = bench.tasks[0];
  const r = task?.result;
  if (r === undefined || (r.state !== 'completed' && r.state !== 'aborted-with-statistics')) {
    throw new Error(`${name}: tinybench did not complete (${r?.state ?? 'no task'})`);
  }
  return { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean, samples: r.latency.samplesCount };
}
