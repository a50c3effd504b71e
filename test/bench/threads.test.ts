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

  it.runIf(process.platform === 'linux')('reads every thread of the process, a busy one growing by the CPU it used', async () => {
    const before = threadCpuNs()!;
    expect(before.has(process.pid)).toBe(true);
    // The worker spins until its own thread has used 200 ms of CPU (utime + stime in 10 ms ticks): a
    // wall-clock spin gets a sliver of a core on a loaded machine and proves nothing.
    const spin = new Worker(
      `const { readFileSync } = require('node:fs');
      const ticks = () => { const s = readFileSync('/proc/thread-self/stat', 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return Number(f[11]) + Number(f[12]); };
      const t0 = ticks(); while (ticks() - t0 < 20);
      require('node:worker_threads').parentPort.postMessage(0);`,
      { eval: true },
    );
    await new Promise((resolve) => spin.once('message', resolve));
    const after = threadCpuNs()!;
    // Over "1 ms", cores read as milliseconds of CPU.
    const split = threadSplit(before, after, 1, process.pid, 1);
    await spin.terminate();
    expect(split.scan).toBeGreaterThanOrEqual(190);
    // The calling thread only waited: far less than the spinning thread.
    expect(split.calling).toBeLessThan(split.scan);
  });
});
