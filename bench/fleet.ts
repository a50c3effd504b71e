/**
 * The fleet phase of `npm run bench` (issue 35, part 4), opt-in: `npm run bench -- --filter fleet`.
 * The roles run as processes of the built command (`dist/bin/main.js`) on loopback, around a
 * nats-server started by test/support/nats.ts (JetStream, `max_payload` 4 MiB), each pinned to a core
 * with `taskset` (bench/fleet-roles.ts); the bench's seeded sparse and dense bodies go through the
 * proxy to a local origin (bench/fleet-load.ts). It measures:
 *
 * 1. the engine in this process on the same bodies with what a scan-worker runs (every rule, every
 *    confidence level, `createScanner({ workers: 0 })`): the baseline of MB per CPU-second;
 * 2. scaling: `serve --nats --scan remote --no-batcher` takes a fill of bodies into the bodies stream
 *    while the scan-workers are stopped (SIGSTOP), then 1, 2 and 3 scan-workers (`--workers 1` each)
 *    are let go (SIGCONT) and timed until the stream is empty: bodies/s, MB/s, the workers' and
 *    nats-server's CPU time. Stopping the warm workers, rather than starting new ones, keeps their
 *    start-up (rule compilation) and first scans out of the drain;
 * 3. the proxy's latency (closed loop, 128 KB bodies) with no scanning (an undeployed zone), scanning
 *    in its own process (`serve --workers 1`, no bus) and scanning remote (`--scan remote`, its
 *    scan-worker stopped meanwhile, as if on another machine), the proxy alone on its core;
 * 4. a batcher writing the events the drains left in the events stream, on the embedded store
 *    (`leakscan batcher --data DIR`) and, where Ceph RGW starts (test/support/ceph-rgw.ts), on S3
 *    (`--s3`): events/s and its CPU time.
 *
 * Skipped, with the reason, when nats-server, taskset or dist/ are missing.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { createScanner } from '../src/scanner.js';
import { deploy } from '../test/serve/helpers.js';
import { startNats, kMaxPayload, type Nats } from '../test/support/nats.js';
import { startRgw, type Rgw } from '../test/support/ceph-rgw.js';
import type { Body, Density } from './bodies.js';
import { corpusOf, send, serveBodies } from './fleet-load.js';
import { cpuSeconds, natsPid, pin, startRole, tasksetProblem, type Role } from './fleet-roles.js';
import type { BatcherRun, DrainRun, EngineRun, FleetPhaseResult, LatencyRun, WorkerStop } from './fleet-report.js';

export interface FleetOptions {
  quick: boolean;
  cliMain: string;
  /** Why the built command cannot be measured (bench/cli.ts `builtCliProblem`), or null. */
  cliProblem: string | null;
  log: (msg: string) => void;
}

/** The streams and consumer of docs/fleet.md (src/fleet/bus.ts). */
const kBodiesStream = 'LEAKSCAN_BODIES';
const kEventsStream = 'LEAKSCAN_EVENTS';
const kZone = 'f1ee7' + '0'.repeat(27);
const kPlainZone = 'f1ee7' + '1'.repeat(27);
const kScanHost = 'scan.example';
const kPlainHost = 'plain.example';

interface Plan {
  /** Copies of a corpus per fill (sparse, dense), and for the warm-up. */
  copies: Record<Density, number>;
  warmCopies: number;
  workerCounts: number[];
  latencyMs: number;
  engineMs: number;
}

const plan = (quick: boolean): Plan =>
  quick
    ? { copies: { sparse: 4, dense: 1 }, warmCopies: 1, workerCounts: [1, 2], latencyMs: 2_000, engineMs: 500 }
    : { copies: { sparse: 10, dense: 3 }, warmCopies: 1, workerCounts: [1, 2, 3], latencyMs: 6_000, engineMs: 1_500 };

/** Cores: the proxy on the first, nats-server, the origin and the load on the last, workers round the others. */
export function coresOf(n: number): { proxy: string; rest: string; worker: (i: number) => string } {
  const last = String(n - 1);
  return { proxy: '0', rest: last, worker: (i) => String(n === 1 ? 0 : (n - 1 - (i % n) + n) % n) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Why the phase cannot run here, or null. */
function problem(o: FleetOptions): string | null {
  if (process.platform !== 'linux') return 'Linux only (/proc, taskset)';
  return o.cliProblem ?? tasksetProblem();
}

export async function runFleetPhase(o: FleetOptions): Promise<FleetPhaseResult> {
  const why = problem(o);
  if (why !== null) return { status: 'skipped', message: why };
  let nats: Nats;
  try {
    nats = await startNats();
  } catch (e) {
    return { status: 'skipped', message: `nats-server could not start: ${(e as Error).message}` };
  }
  const root = mkdtempSync(join(tmpdir(), 'leakscan-bench-fleet-'));
  const own = execAffinity();
  const bodies = { sparse: corpusOf('sparse', ['128KB', '1MB']), dense: corpusOf('dense', ['128KB', '1MB']) };
  const origin = await serveBodies([...bodies.sparse, ...bodies.dense]);
  const nc = await connect({ servers: nats.url, name: 'leakscan-bench' });
  const roles: Role[] = [];
  // Before this process is pinned: availableParallelism() follows the affinity.
  const coreCount = availableParallelism();
  try {
    const cores = coresOf(coreCount);
    const natsId = natsPid(nats);
    pin(natsId, cores.rest);
    pin(process.pid, cores.rest);
    const ctx: Ctx = { o, p: plan(o.quick), root, nats, natsId, nc, jsm: await jetstreamManager(nc), origin: origin.url, roles, cores, bodies };
    const load0 = loadavg();
    // The engine before and after the rest, so its figure spans the same moments of the machine.
    const engineBefore = await measureEngine(ctx);
    const { drains, stopped } = await measureScaling(ctx);
    const batchers = await measureBatchers(ctx);
    const latency = await measureLatency(ctx);
    const engineAfter = await measureEngine(ctx);
    return {
      status: 'ok',
      cores: coreCount,
      pins: { proxy: cores.proxy, natsAndLoad: cores.rest, workers: ctx.p.workerCounts.map((n) => Array.from({ length: n }, (_, i) => cores.worker(i)).join('+')) },
      maxPayload: kMaxPayload,
      bodies: Object.fromEntries(Object.entries(bodies).map(([d, list]) => [d, { count: list.length, bytes: sum(list.map((b) => b.bytes.length)) }])) as Record<Density, { count: number; bytes: number }>,
      loadavg: { start: load0, end: loadavg() },
      engine: engineBefore.map((e, i) => joinEngine(e, engineAfter[i]!)),
      drains,
      workerStops: stopped,
      batchers: batchers.runs,
      s3Skipped: batchers.skipped,
      latency,
    };
  } catch (e) {
    return { status: 'error', message: (e as Error)?.stack ?? String(e) };
  } finally {
    for (const r of roles) await r.stop(5_000).catch(() => {});
    await nc.close().catch(() => {});
    await origin.close();
    await nats.stop();
    pin(process.pid, own);
    rmSync(root, { recursive: true, force: true });
  }
}

interface Ctx {
  o: FleetOptions;
  p: Plan;
  root: string;
  nats: Nats;
  natsId: number;
  nc: NatsConnection;
  jsm: JetStreamManager;
  origin: string;
  roles: Role[];
  cores: ReturnType<typeof coresOf>;
  bodies: Record<Density, Body[]>;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

function execAffinity(): string {
  return readFileSync(`/proc/${process.pid}/status`, 'utf8').match(/^Cpus_allowed_list:\s*(\S+)/m)?.[1] ?? '0';
}

// ---- 1. The engine in this process ------------------------------------------------------------------

/** Two measurements of a corpus as one (their bytes and times added). */
function joinEngine(a: EngineRun, b: EngineRun): EngineRun {
  return { corpus: a.corpus, bytes: a.bytes + b.bytes, wallS: a.wallS + b.wallS, cpuS: a.cpuS + b.cpuS };
}

async function measureEngine(ctx: Ctx): Promise<EngineRun[]> {
  const scanner = await createScanner({ allRules: true, minConfidence: 'low', workers: 0 });
  const out: EngineRun[] = [];
  try {
    for (const density of ['sparse', 'dense'] as const) {
      const list = ctx.bodies[density];
      for (const b of list) await scanner.analyze(b.bytes, { contentType: b.contentType });
      let bytes = 0;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      while (performance.now() - t0 < ctx.p.engineMs) {
        for (const b of list) {
          await scanner.analyze(b.bytes, { contentType: b.contentType });
          bytes += b.bytes.length;
        }
      }
      const c = process.cpuUsage(c0);
      out.push({ corpus: density, bytes, wallS: (performance.now() - t0) / 1000, cpuS: (c.user + c.system) / 1e6 });
      ctx.o.log(`fleet    engine ${density}: ${(bytes / 1e6 / ((c.user + c.system) / 1e6)).toFixed(1)} MB per CPU-second`);
    }
  } finally {
    await scanner.close();
  }
  return out;
}

// ---- 2. Scaling through the bus -----------------------------------------------------------------------

async function startServe(ctx: Ctx, name: string, extra: string[]): Promise<{ role: Role; proxy: string }> {
  const data = join(ctx.root, name);
  const zones = ['--zone', `${kScanHost}=${kZone}`, '--zone', `${kPlainHost}=${kPlainZone}`];
  const args = ['serve', '--data', data, '--origin', ctx.origin, '--port', '0', '--audit-port', '0', '--proxy-port', '0', '--workers', '1', ...zones, ...extra];
  const role = await startRole(ctx.o.cliMain, args, ctx.cores.proxy);
  ctx.roles.push(role);
  const field = (prefix: string): string => role.spawned.lines.find((l) => l.startsWith(prefix))!.slice(prefix.length).split(' ')[0]!;
  await deploy(field('rulesets API: '), readFileSync(join(data, 'admin-token'), 'utf8').trim(), kZone);
  return { role, proxy: field('proxy: ') };
}

async function bodiesWaiting(ctx: Ctx): Promise<number> {
  return (await ctx.jsm.streams.info(kBodiesStream)).state.messages;
}

/**
 * How long the bodies stream may stay unchanged before a wait gives up: a worker acknowledges its
 * bodies in hand (8 per thread) at about the same time, and dense 1 MB bodies take seconds each.
 */
const kStallMs = 60_000;

/** Polls the bodies stream until `done(messages)` (or it stops changing for kStallMs); returns what it holds. */
async function waitFor(ctx: Ctx, done: (n: number) => boolean, everyMs: number): Promise<number> {
  let last = -1;
  let since = performance.now();
  for (;;) {
    const n = await bodiesWaiting(ctx);
    if (done(n)) return n;
    if (n !== last) [last, since] = [n, performance.now()];
    else if (performance.now() - since > kStallMs) return n;
    await sleep(everyMs);
  }
}

async function fill(ctx: Ctx, serve: Role, proxy: string, list: readonly Body[], copies: number) {
  const paths = list.map((b) => `/${b.name}`);
  const before = await bodiesWaiting(ctx);
  const count = paths.length * copies;
  const s0 = serve.cpu();
  const n0 = cpuSeconds(ctx.natsId);
  const t0 = performance.now();
  const sent = await send({ proxy, host: kScanHost, paths, concurrency: 8, count });
  const stored = (await waitFor(ctx, (n) => n >= before + count, 20)) - before;
  return { count, bytes: sent.bytes, stored, failed: sent.failed.length, wallS: (performance.now() - t0) / 1000, serveCpuS: serve.cpu() - s0, natsCpuS: cpuSeconds(ctx.natsId) - n0 };
}

async function eventsInStream(ctx: Ctx): Promise<number> {
  return (await ctx.jsm.streams.info(kEventsStream)).state.messages;
}

async function eventBytesInStream(ctx: Ctx): Promise<number> {
  return (await ctx.jsm.streams.info(kEventsStream)).state.bytes;
}

async function drain(ctx: Ctx, workers: Role[]) {
  const e0 = await eventsInStream(ctx);
  const b0 = await eventBytesInStream(ctx);
  const w0 = sum(workers.map((w) => w.cpu()));
  const n0 = cpuSeconds(ctx.natsId);
  const t0 = performance.now();
  for (const w of workers) process.kill(w.pid, 'SIGCONT');
  const left = await waitFor(ctx, (n) => n === 0, 10);
  const wallS = (performance.now() - t0) / 1000;
  const workersCpuS = sum(workers.map((w) => w.cpu())) - w0;
  const natsCpuS = cpuSeconds(ctx.natsId) - n0;
  return { left, wallS, workersCpuS, natsCpuS, messages: (await eventsInStream(ctx)) - e0, messageBytes: (await eventBytesInStream(ctx)) - b0 };
}

async function startWorkers(ctx: Ctx, n: number, extra: readonly string[] = []): Promise<Role[]> {
  const args = ['scan-worker', '--nats', ctx.nats.url, '--workers', '1', ...extra];
  const started = await Promise.all(Array.from({ length: n }, (_, i) => startRole(ctx.o.cliMain, args, ctx.cores.worker(i))));
  ctx.roles.push(...started);
  return started;
}

/**
 * The worker configurations: 1, 2 and 3 workers with the defaults, then one worker with
 * `--concurrency 1` on the dense bodies (each dense 1 MB body has thousands of events to publish).
 */
interface WorkerConfig {
  n: number;
  concurrency: number | null;
  corpora: readonly Density[];
}

function configs(p: Plan): WorkerConfig[] {
  return [...p.workerCounts.map((n) => ({ n, concurrency: null, corpora: ['sparse', 'dense'] as const })), { n: 1, concurrency: 1, corpora: ['dense'] as const }];
}

async function measureConfig(ctx: Ctx, serve: { role: Role; proxy: string }, c: WorkerConfig, out: DrainRun[], stopped: WorkerStop[]): Promise<void> {
  const workers = await startWorkers(ctx, c.n, c.concurrency === null ? [] : ['--concurrency', String(c.concurrency)]);
  const label = `${c.n} worker${c.n === 1 ? '' : 's'}${c.concurrency === null ? '' : ` --concurrency ${c.concurrency}`}`;
  // Warm-up: the corpora once through the workers' engines, untimed.
  for (const w of workers) process.kill(w.pid, 'SIGSTOP');
  await fill(ctx, serve.role, serve.proxy, c.corpora.flatMap((d) => ctx.bodies[d]), ctx.p.warmCopies);
  await drain(ctx, workers);
  for (const density of c.corpora) {
    for (const w of workers) process.kill(w.pid, 'SIGSTOP');
    const f = await fill(ctx, serve.role, serve.proxy, ctx.bodies[density], ctx.p.copies[density]);
    const d = await drain(ctx, workers);
    out.push({ corpus: density, workers: c.n, concurrency: c.concurrency, cores: workers.map((_, i) => ctx.cores.worker(i)).join('+'), fill: f, drain: d });
    ctx.o.log(`fleet    ${density} ${label}: ${f.stored}/${f.count} bodies ${(f.bytes / 1e6).toFixed(1)} MB, drained in ${d.wallS.toFixed(2)} s${d.left > 0 ? ` (${d.left} left)` : ''}, workers ${d.workersCpuS.toFixed(2)} CPU-s, nats ${d.natsCpuS.toFixed(2)} CPU-s`);
  }
  for (const w of workers) {
    await stopRole(ctx, w);
    const err = w.spawned.stderr().split('\n');
    const line = err.find((l) => l.includes('stopped:')) ?? '';
    const s: WorkerStop = { workers: label, stopped: line.slice(line.indexOf('stopped:') + 9), errors: err.filter((l) => l.includes('error:')).length };
    stopped.push(s);
    ctx.o.log(`fleet    a worker of ${label}: ${s.stopped}; ${s.errors} error lines`);
  }
}

async function measureScaling(ctx: Ctx): Promise<{ drains: DrainRun[]; stopped: WorkerStop[] }> {
  const serve = await startServe(ctx, 'scaling', ['--nats', ctx.nats.url, '--scan', 'remote', '--no-batcher']);
  const out: DrainRun[] = [];
  const stopped: WorkerStop[] = [];
  for (const c of configs(ctx.p)) await measureConfig(ctx, serve, c, out, stopped);
  await stopRole(ctx, serve.role);
  return { drains: out, stopped };
}

async function stopRole(ctx: Ctx, r: Role): Promise<void> {
  await r.stop();
  ctx.roles.splice(ctx.roles.indexOf(r), 1);
}

// ---- 3. Batchers on the events the drains left -------------------------------------------------------

/** Where a batcher writes: the embedded store of its --data DIR, or an S3 bucket on Ceph RGW. */
type BatcherStore =
  | { name: 'embedded'; args: string[]; env?: undefined }
  | { name: 's3 (Ceph RGW)'; args: string[]; env: NodeJS.ProcessEnv; batches: () => Promise<number> };

/**
 * On RGW a batcher writes a few batches a second, so one pass over the whole stream would take minutes:
 * there it runs for this long after `ready`, and its batches are counted in the bucket.
 */
const kS3WindowMs = 20_000;
const kBatchSize = 1000;

/** A batcher from start to exit: SIGTERM right after `ready` makes one last pass over the whole stream. */
async function measureBatcher(ctx: Ctx, store: BatcherStore): Promise<BatcherRun> {
  const messages = await eventsInStream(ctx);
  const data = join(ctx.root, `batcher-${store.name.split(' ')[0]}`);
  // The signing key of the serve that made the stream (docs/fleet.md: copy DIR/audit/ to each batcher).
  mkdirSync(join(data, 'audit'), { recursive: true });
  for (const f of ['signing-key.pem', 'keys.json']) cpSync(join(ctx.root, 'scaling', 'audit', f), join(data, 'audit', f));
  const t0 = performance.now();
  const role = await startRole(ctx.o.cliMain, ['batcher', '--nats', ctx.nats.url, '--data', data, ...store.args], ctx.cores.worker(0), store.env);
  ctx.roles.push(role);
  const readyS = (performance.now() - t0) / 1000;
  const c0 = role.cpu();
  const t1 = performance.now();
  let cpuS = 0;
  const poll = setInterval(() => {
    const c = role.cpu();
    if (!Number.isNaN(c)) cpuS = c - c0;
  }, 50);
  // The batcher installs its SIGTERM handler just after printing `ready`; on a loaded machine a signal
  // sent at once can land before it and end the process with no last pass. Its first pass starts as
  // it prints `ready`, so the wait is part of the work timed.
  if (store.name !== 'embedded') return windowed(ctx, store, role, { messages, readyS, t1, cpuS: () => cpuS, poll });
  await sleep(500);
  await stopRole(ctx, role);
  clearInterval(poll);
  const wallS = (performance.now() - t1) / 1000;
  const err = role.spawned.stderr();
  const stopped = err.split('\n').find((l) => l.includes('stopped:')) ?? `stopped: none (exit ${role.spawned.child.exitCode ?? role.spawned.child.signalCode}): ${err.trim().split('\n').slice(-3).join(' | ')}`;
  const events = Number(/(\d+) events/.exec(stopped)?.[1] ?? NaN);
  const batches = Number(/(\d+) batches/.exec(stopped)?.[1] ?? NaN);
  ctx.o.log(`fleet    batcher ${store.name}: ${stopped.slice(stopped.indexOf('stopped:'))} in ${wallS.toFixed(2)} s, ${cpuS.toFixed(2)} CPU-s`);
  return { store: store.name, messages, events, batches, readyS, wallS, cpuS };
}

/** A batcher on S3 after kS3WindowMs: the batches in the bucket by then; then killed. */
async function windowed(
  ctx: Ctx,
  store: Extract<BatcherStore, { batches: unknown }>,
  role: Role,
  m: { messages: number; readyS: number; t1: number; cpuS: () => number; poll: NodeJS.Timeout },
): Promise<BatcherRun> {
  await sleep(kS3WindowMs);
  const batches = await store.batches();
  const wallS = (performance.now() - m.t1) / 1000;
  const cpuS = m.cpuS();
  clearInterval(m.poll);
  await role.stop(1_000);
  ctx.roles.splice(ctx.roles.indexOf(role), 1);
  ctx.o.log(`fleet    batcher ${store.name}: ${batches} batches (${kBatchSize} events each) in ${wallS.toFixed(2)} s, ${cpuS.toFixed(2)} CPU-s`);
  return { store: store.name, messages: m.messages, events: batches * kBatchSize, batches, readyS: m.readyS, wallS, cpuS };
}

/** Batch objects (`events/<zone>/…`) in the bucket. */
async function countBatches(client: S3Client, bucket: string): Promise<number> {
  let n = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'events/', ...(token === undefined ? {} : { ContinuationToken: token }) }));
    n += page.KeyCount ?? 0;
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return n;
}

/** Ceph RGW (test/support/ceph-rgw.ts) with a fresh bucket, or why it could not start. */
async function rgwStore(ctx: Ctx): Promise<{ store: BatcherStore; stop: () => Promise<void> } | string> {
  let rgw: Rgw;
  try {
    rgw = await startRgw(120_000);
  } catch (e) {
    return `Ceph RGW could not start: ${(e as Error).message}`;
  }
  const credentials = { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey };
  const admin = new S3Client({ endpoint: rgw.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await admin.send(new CreateBucketCommand({ Bucket: 'fleet-bench' }));
  ctx.o.log(`fleet    Ceph RGW up in ${(rgw.startMs / 1000).toFixed(1)} s`);
  const env = { ...process.env, AWS_ACCESS_KEY_ID: rgw.accessKeyId, AWS_SECRET_ACCESS_KEY: rgw.secretAccessKey };
  const store: BatcherStore = { name: 's3 (Ceph RGW)', args: ['--s3', `${rgw.endpoint}/fleet-bench?if-match=unquoted`], env, batches: () => countBatches(admin, 'fleet-bench') };
  return {
    store,
    stop: async () => {
      admin.destroy();
      await rgw.stop();
    },
  };
}

async function measureBatchers(ctx: Ctx): Promise<{ runs: BatcherRun[]; skipped: string | null }> {
  const runs = [await measureBatcher(ctx, { name: 'embedded', args: [] })];
  const rgw = await rgwStore(ctx);
  if (typeof rgw === 'string') {
    ctx.o.log(`fleet    batcher on S3 skipped: ${rgw}`);
    return { runs, skipped: rgw };
  }
  try {
    runs.push(await measureBatcher(ctx, rgw.store));
  } finally {
    await rgw.stop();
  }
  return { runs, skipped: null };
}

// ---- 4. The proxy's latency ---------------------------------------------------------------------------

async function latencyOf(ctx: Ctx, mode: LatencyRun['mode'], serve: Role, proxy: string, host: string): Promise<LatencyRun> {
  const paths = [...ctx.bodies.sparse, ...ctx.bodies.dense].filter((b) => b.name.endsWith('/128KB')).map((b) => `/${b.name}`);
  await send({ proxy, host, paths, concurrency: 2, untilMs: 500 });
  const s0 = serve.cpu();
  const sent = await send({ proxy, host, paths, concurrency: 2, untilMs: ctx.p.latencyMs });
  const serveCpuS = serve.cpu() - s0;
  ctx.o.log(`fleet    latency ${mode}: ${sent.ms.length} requests in ${(sent.wallMs / 1000).toFixed(1)} s${sent.failed.length > 0 ? `, ${sent.failed.length} failed` : ''}`);
  return { mode, ms: sent.ms, bytes: sent.bytes, failed: sent.failed.length, wallS: sent.wallMs / 1000, serveCpuS };
}

async function measureLatency(ctx: Ctx): Promise<LatencyRun[]> {
  const out: LatencyRun[] = [];
  const local = await startServe(ctx, 'latency-local', []);
  out.push(await latencyOf(ctx, 'no scan', local.role, local.proxy, kPlainHost));
  out.push(await latencyOf(ctx, 'local', local.role, local.proxy, kScanHost));
  out[out.length - 1]!.warnings = warnings(local.role);
  await stopRole(ctx, local.role);
  const remote = await startServe(ctx, 'latency-remote', ['--nats', ctx.nats.url, '--scan', 'remote', '--no-batcher']);
  // The worker stands for one on another machine: stopped while the requests run (the bodies wait in
  // the stream), it shares no core with the proxy, the origin or the load.
  const [worker] = await startWorkers(ctx, 1);
  process.kill(worker!.pid, 'SIGSTOP');
  out.push(await latencyOf(ctx, 'remote', remote.role, remote.proxy, kScanHost));
  out[out.length - 1]!.warnings = warnings(remote.role);
  process.kill(worker!.pid, 'SIGCONT');
  await stopRole(ctx, worker!);
  await stopRole(ctx, remote.role);
  return out;
}

/** The `warning:` lines a serve printed (bodies skipped, publishes refused). */
function warnings(r: Role): string[] {
  return r.spawned.stderr().split('\n').filter((l) => l.includes('warning:')).map((l) => l.slice(l.indexOf('warning:') + 9));
}
