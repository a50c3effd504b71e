// Loaded into the `leakscan serve` process by bench/serve-memory.ts (`node --import`): on SIGUSR2 it
// writes the main thread's process.memoryUsage() as one JSON line to LEAKSCAN_MEMORY_PROBE, before and
// (when the process runs with --expose-gc) after a full collection, so the bench can tell live
// JavaScript objects from garbage and from memory outside the heap.
import { appendFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';

const out = process.env.LEAKSCAN_MEMORY_PROBE;
if (out) {
  process.on('SIGUSR2', () => {
    const before = process.memoryUsage();
    let after = null;
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      after = process.memoryUsage();
    }
    // LEAKSCAN_MEMORY_SNAPSHOT=DIR: also a heap snapshot of the main thread, to see what holds memory.
    const dir = process.env.LEAKSCAN_MEMORY_SNAPSHOT;
    const snapshot = dir ? writeHeapSnapshot(`${dir}/serve-${Date.now()}.heapsnapshot`) : null;
    appendFileSync(out, `${JSON.stringify({ at: Date.now(), before, after, snapshot })}\n`);
  });
}
