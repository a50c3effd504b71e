/**
 * Where a pool round's CPU went, thread by thread: the scan threads (the pool's workers, or the bare or
 * compute threads), the calling thread (the process's main thread: the pool's queue, the copies of the
 * bodies, Piscina's messages, the reports' findings), and every other thread of the process (V8's
 * helper threads, which collect every isolate's garbage and compile its hot code; libuv's; the idle
 * threads of the scanners not measured in that round).
 *
 * Why: with one worker the calling thread and the other threads run on the otherwise idle core, with
 * two they take their CPU from the workers, so what they cost per round is what stands between two
 * whole cores and the pool's workers. Read per thread from `/proc/self/task/<tid>/schedstat` (time on
 * a CPU in nanoseconds; `stat`'s ticks are 10 ms, too coarse for rounds of a tenth of a second).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { median } from './measure.js';

/** CPU time in cores over a round (CPU seconds per wall second), by thread role. */
export interface ThreadSplit {
  /** The `scanThreads` busiest threads other than the calling one. */
  scan: number;
  calling: number;
  other: number;
}

/** CPU nanoseconds per thread id of this process; null where /proc cannot be read (not Linux). */
export function threadCpuNs(): Map<number, number> | null {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const out = new Map<number, number>();
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ', 1)[0]);
      if (Number.isFinite(ns)) out.set(Number(tid), ns);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out.size > 0 ? out : null;
}

/**
 * The split of the CPU time threads used between two readings, over `ms` of wall time. The scan
 * threads are told apart by use, not by name (Node 20 names no thread): the `scanThreads` busiest ones
 * other than `callingTid`. A thread that ended between the readings is left out (its time is lost with
 * it); one that started counts from zero.
 */
export function threadSplit(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, ms: number, callingTid: number, scanThreads: number): ThreadSplit {
  const used: number[] = [];
  let calling = 0;
  for (const [tid, ns] of after) {
    const d = Math.max(0, ns - (before.get(tid) ?? 0));
    if (tid === callingTid) calling = d;
    else used.push(d);
  }
  used.sort((a, b) => b - a);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const cores = (ns: number) => ns / 1e6 / ms;
  return { scan: cores(sum(used.slice(0, scanThreads))), calling: cores(calling), other: cores(sum(used.slice(scanThreads))) };
}

/** The median of each role over several rounds' splits. */
export function medianSplit(splits: readonly ThreadSplit[]): ThreadSplit {
  return { scan: median(splits.map((t) => t.scan)), calling: median(splits.map((t) => t.calling)), other: median(splits.map((t) => t.other)) };
}
