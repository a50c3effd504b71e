/**
 * Storage benchmark: put/get/head throughput and latency for 1 KB, 1 MB and 64 MB objects, and list over
 * many keys, for leakscan/store and for miniflare's R2 simulator in the same run.
 * `npm run bench:storage [-- --keys 100000] [-- --quick]`. Figures go in docs/storage.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { openBucket, type StoreBucket } from '../src/storage/index.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const keysArg = args.indexOf('--keys');
const listKeys = keysArg >= 0 ? Number(args[keysArg + 1]) : quick ? 5_000 : 100_000;
const mfKeysArg = args.indexOf('--mf-keys');
const mfListKeys = mfKeysArg >= 0 ? Number(args[mfKeysArg + 1]) : listKeys;

interface Target {
  name: string;
  bucket: StoreBucket;
  close(): Promise<void>;
  keys: number;
}

async function ours(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-bench-store-'));
  const bucket = await openBucket({ dir });
  return { name: 'leakscan/store', bucket, keys: listKeys, close: async () => { await bucket.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function miniflare(): Promise<Target | string> {
  try {
    const { Miniflare } = await import('miniflare');
    const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', compatibilityDate: '2025-01-01', r2Buckets: ['B'] });
    const bucket = (await mf.getR2Bucket('B')) as unknown as StoreBucket;
    return { name: 'miniflare R2', bucket, keys: mfListKeys, close: () => mf.dispose() };
  } catch (e) {
    return `miniflare unavailable: ${(e as Error).message}`;
  }
}

const sizes: [string, number, number][] = [
  ['1KB', 1024, quick ? 50 : 300],
  ['1MB', 1024 * 1024, quick ? 5 : 30],
  ['64MB', 64 * 1024 * 1024, quick ? 2 : 4],
];

const rows: string[][] = [];
const fmt = (x: number, d = 2): string => (x >= 100 ? x.toFixed(0) : x.toFixed(d));

async function measure(t: Target): Promise<void> {
  for (const [label, size, iterations] of sizes) {
    const value = new Uint8Array(size).fill(97);
    let i = 0;
    const bench = new Bench({ iterations, time: 0, warmupIterations: 1, warmupTime: 0 });
    bench.add(`put ${label}`, async () => {
      await t.bucket.put(`o/${label}/${i++ % 8}`, value);
    });
    bench.add(`get ${label}`, async () => {
      const o = await t.bucket.get(`o/${label}/${i++ % 8}`);
      await o!.arrayBuffer();
    });
    bench.add(`head ${label}`, async () => {
      await t.bucket.head(`o/${label}/${i++ % 8}`);
    });
    for (let k = 0; k < 8; k++) await t.bucket.put(`o/${label}/${k}`, value);
    await bench.run();
    for (const task of bench.tasks) {
      const r = task.result as unknown as { latency: { mean: number; p50: number; p99: number }; throughput: { mean: number } };
      const ops = r.throughput.mean;
      rows.push([t.name, task.name, fmt(ops), task.name.startsWith('head') ? '-' : fmt((ops * size) / 1e6), fmt(r.latency.p50), fmt(r.latency.p99)]);
    }
  }
  // list over many keys: fill with small objects (concurrent writers, so commits batch), then time pages.
  const fillStart = performance.now();
  const batch = 256;
  for (let k = 0; k < t.keys; k += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, t.keys - k) }, (_, j) => t.bucket.put(`l/${String(k + j).padStart(7, '0')}`, 'x')),
    );
  }
  const fillMs = performance.now() - fillStart;
  rows.push([t.name, `put ${t.keys} keys (256 concurrent)`, fmt((t.keys / fillMs) * 1000), '-', '-', '-']);
  const bench = new Bench({ iterations: quick ? 5 : 20, time: 0, warmupIterations: 1, warmupTime: 0 });
  let cursor: string | undefined;
  bench.add(`list 1000 of ${t.keys} keys (paging)`, async () => {
    const r = await t.bucket.list({ prefix: 'l/', limit: 1000, ...(cursor ? { cursor } : {}) });
    cursor = r.truncated ? r.cursor : undefined;
  });
  bench.add(`list delimiter '/' over ${t.keys} keys`, async () => {
    await t.bucket.list({ delimiter: '/' });
  });
  await bench.run();
  for (const task of bench.tasks) {
    const r = task.result as unknown as { latency: { p50: number; p99: number }; throughput: { mean: number } };
    rows.push([t.name, task.name, fmt(r.throughput.mean), '-', fmt(r.latency.p50), fmt(r.latency.p99)]);
  }
  const walkStart = performance.now();
  let seen = 0;
  let c: string | undefined;
  for (;;) {
    const r = await t.bucket.list({ prefix: 'l/', ...(c ? { cursor: c } : {}) });
    seen += r.objects.length;
    if (!r.truncated) break;
    c = r.cursor;
  }
  rows.push([t.name, `full list walk (${seen} keys)`, '-', '-', fmt(performance.now() - walkStart), '-']);
}

const targets: Target[] = [await ours()];
const mf = await miniflare();
if (typeof mf === 'string') console.log(mf);
else targets.push(mf);
try {
  for (const t of targets) {
    console.error(`measuring ${t.name}…`);
    await measure(t);
  }
} finally {
  for (const t of targets) await t.close();
}
const header = ['target', 'case', 'ops/s', 'MB/s', 'p50 ms', 'p99 ms'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]): string => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log(`Node ${process.version}, ${new Date().toISOString()}`);
