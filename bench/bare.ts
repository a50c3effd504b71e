/**
 * Bare engine threads for the pool phase (bench/pool.ts): the in-thread engine (`workers: 0`) in one or
 * two plain worker threads (with the pool workers' young generation) that take the batch corpus's
 * bodies from one shared counter, with no pool, no queue, no messages per body and no calling-thread
 * work. Measured in the same rounds as the pool, its 2-over-1 ratio is what this machine gives two
 * scanning threads in that minute; the pool's own ratio is read against it.
 *
 * Why: on the shared 2-vCPU machine the 2-over-1 figure of anything moves with the host. One thread
 * alone has been seen at 35 MB/s in one run and 57 MB/s in the next, while two together did not speed
 * up alike (the work each CPU-second did with both cores busy fell to 0.77 of one alone), which a pool
 * cannot change.
 *
 * The same threads also run a compute loop instead of the engine (`work: 'compute'`): a walk of a
 * table automaton (1,536 states × 128 columns, 384 KiB, in each core's L2) over the same bodies' bytes,
 * one dependent load per byte, nothing allocated. What two of those get over one in the same rounds
 * is the host's own two-thread figure in that minute, with no engine, heap or pool in it: on this
 * machine it moves between about 1.55× and 2.0× in phases of several seconds (bench/results/pool-journal.md).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { kYoungGenerationMb } from '../src/pool/pool-scanner.js';

interface BareBody {
  bytes: Uint8Array;
  contentType: string;
}

/** What the threads run over the bodies: the in-thread engine, or the compute loop (see above). */
export type BareWork = 'engine' | 'compute';

type ToThread = { type: 'bodies'; bodies: BareBody[] } | { type: 'pass' };
type FromThread = { type: 'ready' } | { type: 'done'; findings: number };

/** Scanning threads sharing one counter of the bodies taken. */
export class BareThreads {
  readonly #threads: Worker[];
  readonly #counter: Int32Array;
  readonly #bodies: number;

  private constructor(threads: Worker[], counter: Int32Array, bodies: number) {
    this.#threads = threads;
    this.#counter = counter;
    this.#bodies = bodies;
  }

  /** `n` threads, each with its own engine (`backend`; or the compute loop) and a copy of `bodies`, ready to scan. */
  static async start(n: number, backend: string, bodies: readonly BareBody[], work: BareWork = 'engine'): Promise<BareThreads> {
    const bootstrap =
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
      `.then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const counter = new Int32Array(new SharedArrayBuffer(4));
    // The pool's workers' young generation, so that the engine runs here as it does in the pool.
    const resourceLimits = { maxYoungGenerationSizeMb: kYoungGenerationMb };
    const threads = Array.from({ length: n }, () => new Worker(bootstrap, { eval: true, resourceLimits, workerData: { leakscanBare: true, backend, work, counter: counter.buffer } }));
    try {
      await Promise.all(threads.map((t) => once(t)));
      const copies = bodies.map((b) => ({ bytes: new Uint8Array(b.bytes), contentType: b.contentType }));
      await Promise.all(threads.map((t) => call(t, { type: 'bodies', bodies: copies })));
    } catch (err) {
      await Promise.all(threads.map((t) => t.terminate()));
      throw err;
    }
    return new BareThreads(threads, counter, bodies.length);
  }

  /** One pass over the bodies, all threads at once; resolves with the findings of the pass. */
  async pass(): Promise<number> {
    Atomics.store(this.#counter, 0, 0);
    const done = await Promise.all(this.#threads.map((t) => call(t, { type: 'pass' })));
    if (Atomics.load(this.#counter, 0) < this.#bodies) throw new Error('bare engine threads: a pass ended before every body was taken');
    return done.reduce((n, m) => n + (m.type === 'done' ? m.findings : 0), 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.#threads.map((t) => t.terminate()));
  }
}

function once(t: Worker): Promise<FromThread> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    t.once('error', onError);
    t.once('message', (m: FromThread) => {
      t.off('error', onError);
      resolve(m);
    });
  });
}

function call(t: Worker, msg: ToThread): Promise<FromThread> {
  const reply = once(t);
  t.postMessage(msg);
  return reply;
}

// ---- Thread side ----------------------------------------------------------------------------------

async function threadMain(): Promise<void> {
  const port = parentPort!;
  const { backend, work, counter: shared } = workerData as { backend: 'auto' | 're2' | 're2-wasm'; work: BareWork; counter: SharedArrayBuffer };
  const scan = work === 'compute' ? computeLoop() : await engineScan(backend);
  const counter = new Int32Array(shared);
  let bodies: BareBody[] = [];
  port.on('message', (m: ToThread) => {
    if (m.type === 'bodies') {
      bodies = m.bodies;
      port.postMessage({ type: 'ready' } satisfies FromThread);
      return;
    }
    void (async () => {
      let findings = 0;
      for (;;) {
        const i = Atomics.add(counter, 0, 1);
        const body = bodies[i];
        if (body === undefined) break;
        findings += await scan(body);
      }
      port.postMessage({ type: 'done', findings } satisfies FromThread);
    })();
  });
  port.postMessage({ type: 'ready' } satisfies FromThread);
}

/** The in-thread engine: a body's findings. */
async function engineScan(backend: 'auto' | 're2' | 're2-wasm'): Promise<(body: BareBody) => Promise<number>> {
  const { createScanner } = await import('../src/index.js');
  const scanner = await createScanner({ workers: 0, backend });
  return async (body) => (await scanner.analyze(body.bytes, { contentType: body.contentType })).findings.length;
}

/** The compute loop: the automaton walked over a body's bytes; 0 findings (its end state is kept only so the walk is not optimised away). */
function computeLoop(): (body: BareBody) => Promise<number> {
  const states = 1536;
  const table = new Uint16Array(states * 128);
  let x = 0x2545f491;
  for (let i = 0; i < table.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    table[i] = (x >>> 8) % states;
  }
  let last = 0;
  return async (body) => {
    const bytes = body.bytes;
    let st = last;
    for (let i = 0; i < bytes.length; i++) st = table[st * 128 + (bytes[i]! & 127)]!;
    last = st;
    return 0;
  };
}

if (!isMainThread && (workerData as { leakscanBare?: boolean } | null)?.leakscanBare === true) await threadMain();
