/**
 * The scan backlog lets a body go once it has been scanned: a job that has left the queue is not kept
 * by it, whether the queue then runs empty or more bodies still wait (behaviour only; the memory this
 * bounds is measured by bench/serve-memory.ts).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ScanBacklog } from '../../src/serve/backlog.js';
import type { ScanReport, Scanner } from '../../src/types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const kReport = { findings: [], notices: [], bytesScanned: 0, bytesReceived: 0, truncated: false } as unknown as ScanReport;

/** A scanner that answers when `open()` lets it (all at once by default). */
function scanner(held = false): Scanner & { open(n: number): void } {
  const waiting: Array<() => void> = [];
  let allowed = held ? 0 : Number.POSITIVE_INFINITY;
  const pump = (): void => {
    while (allowed > 0 && waiting.length > 0) {
      allowed--;
      waiting.shift()!();
    }
  };
  return {
    analyze: () =>
      new Promise<ScanReport>((resolve) => {
        waiting.push(() => resolve(kReport));
        pump();
      }),
    open: (n) => {
      allowed += n;
      pump();
    },
    scan: async () => [],
    scanStream: async () => [],
    analyzeStream: async () => kReport,
    close: async () => {},
  };
}

/** Submits a 64 KiB body whose `done` reaches its chunks, as the proxy's does; returns a weak reference to them. */
function submit(backlog: ScanBacklog, i: number): WeakRef<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, i);
  const chunks = [chunk];
  expect(backlog.reserve(chunk.length)).toBe(true);
  backlog.submit({ chunks, bytes: chunk.length, meta: {}, done: () => void chunks.length });
  return new WeakRef(chunk);
}

async function collect(refs: WeakRef<Buffer>[]): Promise<number> {
  // WeakRef targets live to the end of the job that made them: collect in later turns.
  for (let i = 0; i < 3 && refs.some((r) => r.deref() !== undefined); i++) {
    await nextTurn();
    gc();
  }
  return refs.filter((r) => r.deref() !== undefined).length;
}

describe('ScanBacklog', () => {
  it('keeps no scanned body once the queue has run empty', async () => {
    const backlog = new ScanBacklog(scanner(), { concurrency: 2 });
    const refs = Array.from({ length: 50 }, (_, i) => submit(backlog, i));
    await backlog.idle();
    expect(await collect(refs)).toBe(0);
    expect(backlog.stats()).toMatchObject({ bodiesScanned: 50, bytesHeld: 0, waiting: 0, scanning: 0 });
  });

  it('lets a scanned body go while later bodies still wait', async () => {
    const s = scanner(true);
    const backlog = new ScanBacklog(s, { concurrency: 1 });
    const refs = Array.from({ length: 10 }, (_, i) => submit(backlog, i));
    s.open(5);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(backlog.stats()).toMatchObject({ bodiesScanned: 5, waiting: 4, scanning: 1 });
    expect(await collect(refs.slice(0, 5))).toBe(0);
    s.open(5);
    await backlog.idle();
    expect(await collect(refs)).toBe(0);
  });
});
