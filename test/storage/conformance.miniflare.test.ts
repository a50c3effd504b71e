/**
 * The conformance suite against the reference: miniflare 4.20260426.0's R2 simulator (the last release
 * that runs on Node 20). If it cannot start here, the suite is skipped with the reason printed.
 */
import { describe, it } from 'vitest';
import type { StoreBucket } from '../../src/storage/index.js';
import { startStallWatchdog } from '../stall-watchdog.js';
import { runBucketConformance } from './conformance.case.js';

const kBuckets = 56;
type MiniflareModule = typeof import('miniflare');

async function start(): Promise<{ mf: InstanceType<MiniflareModule['Miniflare']>; mod: MiniflareModule } | string> {
  try {
    const mod = await import('miniflare');
    // Lets the suite lower the simulator's minimum part size to 50 bytes, as miniflare's own tests do
    // (private API, checked on 4.20260426.0; see reference section 7).
    (mod as unknown as { _enableControlEndpoints(): void })._enableControlEndpoints();
    const mf = new mod.Miniflare({
      modules: true,
      script: 'export default { fetch() { return new Response("ok") } }',
      compatibilityDate: '2025-01-01',
      r2Buckets: Array.from({ length: kBuckets }, (_, i) => `B${i}`),
    });
    // A simulator that never gets ready would hold the file's import forever: no vitest timeout covers it.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('not ready within 60 s')), 60_000);
    });
    try {
      await Promise.race([mf.ready, late]);
    } catch (e) {
      void mf.dispose().catch(() => {});
      throw e;
    } finally {
      clearTimeout(timer);
    }
    return { mf, mod };
  } catch (e) {
    return `miniflare could not start here: ${(e as Error).message}`;
  }
}

// The simulator's proxy makes some calls synchronously (Atomics.wait with no timeout): if workerd stops
// answering, the test process blocks where no vitest timeout can fire. The watchdog kills workerd so
// the call returns with an error, and the remaining cases are skipped with the reason.
const kStallMs = 20_000;
const watchdog = startStallWatchdog({ label: 'miniflare R2 simulator', stallMs: kStallMs, killMs: 60_000, killChildren: ['workerd'] });
const started = await start();

if (typeof started === 'string') {
  console.log(`[conformance] reference simulator skipped: ${started}`);
  void watchdog.stop();
  describe.skip(`bucket conformance: miniflare R2 simulator (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const { mf, mod } = started;
  let next = 0;
  runBucketConformance({
    name: 'miniflare 4.20260426.0 R2 simulator',
    Headers: mod.Headers as unknown as typeof Headers,
    async bucket() {
      if (next >= kBuckets) throw new Error('raise kBuckets: every case needs a fresh bucket');
      const name = `B${next++}`;
      const ns = await (mf as unknown as {
        _getInternalDurableObjectNamespace(a: string, b: string, c: string): Promise<{
          idFromName(n: string): unknown;
          get(id: unknown): { fetch(url: string, init: object): Promise<{ arrayBuffer(): Promise<ArrayBuffer> }> };
        }>;
      })._getInternalDurableObjectNamespace('r2', 'r2:bucket', 'R2BucketObject');
      const stub = ns.get(ns.idFromName(name));
      await (await stub.fetch('http://localhost/', { cf: { miniflare: { controlOp: { name: 'waitForFakeTasks', args: [] } } } })).arrayBuffer();
      return (await mf.getR2Bucket(name)) as unknown as StoreBucket;
    },
    async teardown() {
      try {
        await mf.dispose();
      } catch (e) {
        if (!watchdog.stalled()) throw e;
      } finally {
        await watchdog.stop();
      }
    },
    unavailable: () =>
      watchdog.stalled()
        ? `the simulator stopped answering (a synchronous call blocked for ${kStallMs / 1000} s); its workerd was stopped and the remaining cases skipped`
        : undefined,
    deltas: {
      partEtag: 'random',
      storageClass: '',
      headRange: true,
      unincludedMetadata: 'empty',
      rejectsUnknownStorageClass: false,
    },
    skip: [
      {
        reason: 'the binding only takes streams of known length (FixedLengthStream), which Node cannot pass through the simulator proxy',
        tests: ['put: a stream of unknown length', 'put: copy the body of a get into a new object'],
      },
      {
        reason: "an erroring stream crashes the simulator's Node proxy (uncaught ERR_INVALID_STATE)",
        tests: ['put: a stream that errors half-way stores nothing and keeps the old value', 'multipart: a part stream that errors half-way keeps the part it would replace'],
      },
    ],
  });
}
