import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadCpuNs, threadSplit } from '../../bench/threads.js';

describe('bench CPU by thread', () => {
  it('splits CPU into the busiest threads, the calling thread and the rest, in cores over the wall time', () => {
    const before = new Map([[1, 0], [2, 5e6], [3, 0], [4, 1e6], [5, 2e6]]);
    // Over 100 ms: thread 1 (calling) 10 ms; 2 and 3 scanned 90 and 95 ms; 4 and 5 took 3 and 2 ms; 6 started and took 1 ms.
    const after = new Map([[1, 10e6], [2, 95e6], [3, 95e6], [4, 4e6], [5, 4e6], [6, 1e6]]);
    const split = threadSplit(before, after, 100, 1, 2);
    expect(split.calling).toBeCloseTo(0.1, 9);
    expect(split.scan).toBeCloseTo(1.85, 9);
    expect(split.other).toBeCloseTo(0.06, 9);
    // One scan thread: the next busiest counts as other.
    expect(threadSplit(before, after, 100, 1, 1)).toMatchObject({ scan: expect.closeTo(0.95, 9), other: expect.closeTo(0.96, 9) });
  });

  it.runIf(process.platform === 'linux')('reads every thread of the process, a busy one growing by what it ran', async () => {
    const before = threadCpuNs()!;
    expect(before.has(process.pid)).toBe(true);
    const spin = new Worker('const t = Date.now(); while (Date.now() - t < 150); require("node:worker_threads").parentPort.postMessage(0);', { eval: true });
    await new Promise((resolve) => spin.once('message', resolve));
    const after = threadCpuNs()!;
    const split = threadSplit(before, after, 150, process.pid, 1);
    await spin.terminate();
    // The worker's thread spun ~150 ms: at least 0.5 core over 150 ms whatever the machine's load.
    expect(split.scan).toBeGreaterThan(0.5);
    // The calling thread only waited: far less than the spinning thread.
    expect(split.calling).toBeLessThan(split.scan);
  });
});
