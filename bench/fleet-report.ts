/**
 * The fleet phase's results (bench/fleet.ts) and its tables: pure functions of what was measured.
 * MB = 10^6 bytes of bodies as the origin sent them.
 */
import type { Density } from './bodies.js';

export interface EngineRun {
  corpus: Density;
  bytes: number;
  wallS: number;
  cpuS: number;
}

export interface FillRun {
  /** Requests sent through the proxy, and the bodies the stream then held. */
  count: number;
  stored: number;
  failed: number;
  bytes: number;
  wallS: number;
  /** CPU seconds of the serve process (capture and publish) and of nats-server (storing) during the fill. */
  serveCpuS: number;
  natsCpuS: number;
}

export interface DrainRun {
  corpus: Density;
  workers: number;
  /** `--concurrency` of each worker, or null for its default (8 per thread). */
  concurrency: number | null;
  /** The cores the workers were pinned to, e.g. `1+0`. */
  cores: string;
  fill: FillRun;
  /** Bodies left in the stream (0 unless it stopped draining), and the events stream's new messages (events and outcomes). */
  drain: { left: number; wallS: number; workersCpuS: number; natsCpuS: number; messages: number; messageBytes: number };
}

/** A scan-worker's `stopped:` line (its counters over the warm-up and both fills) and its `error:` lines. */
export interface WorkerStop {
  /** The configuration, e.g. `2 workers` or `1 worker --concurrency 1`. */
  workers: string;
  stopped: string;
  errors: number;
}

export interface LatencyRun {
  mode: 'no scan' | 'local' | 'remote';
  /** Milliseconds per request, start to last byte. */
  ms: number[];
  bytes: number;
  failed: number;
  wallS: number;
  serveCpuS: number;
  warnings?: string[];
}

export interface BatcherRun {
  /** `embedded` (--data DIR) or `s3 (Ceph RGW)` (--s3). */
  store: string;
  /** Messages in the events stream (events and outcomes). */
  messages: number;
  events: number;
  batches: number;
  /** Seconds from spawn to `ready`, then from `ready` to its exit after its last pass. */
  readyS: number;
  wallS: number;
  cpuS: number;
}

export type FleetPhaseResult =
  | {
      status: 'ok';
      cores: number;
      pins: { proxy: string; natsAndLoad: string; workers: string[] };
      maxPayload: number;
      bodies: Record<Density, { count: number; bytes: number }>;
      loadavg: { start: number[]; end: number[] };
      engine: EngineRun[];
      drains: DrainRun[];
      workerStops: WorkerStop[];
      batchers: BatcherRun[];
      /** Why the batcher on S3 was not measured, or null. */
      s3Skipped: string | null;
      latency: LatencyRun[];
    }
  | { status: 'skipped' | 'error'; message: string };

/**
 * The `q`-quantile (0..1) of `xs` by the nearest-rank method: the smallest value with at least
 * `q × n` values at or below it. NaN for no values.
 * @example percentile([5, 1, 3], 0.5) // 3
 */
export function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil(q * s.length)));
  return s[rank - 1]!;
}

const f = (n: number, d = 1): string => (Number.isFinite(n) ? n.toFixed(d) : '-');

function engineTable(r: Extract<FleetPhaseResult, { status: 'ok' }>): string[] {
  return [
    'engine in this process, every rule at every level (what a scan-worker runs), one thread:',
    `${'corpus'.padEnd(10)}${'MB/s'.padStart(8)}${'MB/CPU-s'.padStart(10)}`,
    ...r.engine.map((e) => `${e.corpus.padEnd(10)}${f(e.bytes / 1e6 / e.wallS).padStart(8)}${f(e.bytes / 1e6 / e.cpuS).padStart(10)}`),
  ];
}

/** `2`, or `1 c1` for one worker with `--concurrency 1`. */
const workersLabel = (d: DrainRun): string => `${d.workers}${d.concurrency === null ? '' : ` c${d.concurrency}`}`;

function drainTable(r: Extract<FleetPhaseResult, { status: 'ok' }>): string[] {
  const lines = [
    'through the bus: a fill taken by the proxy while the scan-workers are stopped, then drained by them (timed from SIGCONT to an empty stream):',
    `${'corpus'.padEnd(8)}${'workers'.padStart(8)}${'cores'.padStart(7)}${'bodies'.padStart(8)}${'MB'.padStart(7)}${'bodies/s'.padStart(10)}${'MB/s'.padStart(8)}${'×1'.padStart(6)}${'wkr CPU-s'.padStart(11)}${'MB/wkr-CPU-s'.padStart(14)}${'×engine'.padStart(9)}${'nats CPU-s/GB'.padStart(15)}${'msgs'.padStart(8)}${'B/msg'.padStart(7)}${'nats µs/msg'.padStart(13)}`,
  ];
  for (const d of r.drains) {
    const one = r.drains.find((x) => x.corpus === d.corpus && x.workers === 1 && x.concurrency === null);
    const mb = d.fill.bytes / 1e6;
    const mbps = mb / d.drain.wallS;
    const eng = r.engine.find((e) => e.corpus === d.corpus);
    const perCpu = mb / d.drain.workersCpuS;
    lines.push(
      `${d.corpus.padEnd(8)}${workersLabel(d).padStart(8)}${d.cores.padStart(7)}${String(d.fill.stored).padStart(8)}${f(mb).padStart(7)}${f(d.fill.stored / d.drain.wallS).padStart(10)}${f(mbps).padStart(8)}` +
        `${f(one === undefined ? NaN : mbps / (one.fill.bytes / 1e6 / one.drain.wallS), 2).padStart(6)}${f(d.drain.workersCpuS, 2).padStart(11)}${f(perCpu).padStart(14)}${f(eng === undefined ? NaN : perCpu / (eng.bytes / 1e6 / eng.cpuS), 2).padStart(9)}${f((d.drain.natsCpuS / mb) * 1000).padStart(15)}` +
        `${String(d.drain.messages).padStart(8)}${f(d.drain.messageBytes / d.drain.messages, 0).padStart(7)}${f((d.drain.natsCpuS / d.drain.messages) * 1e6, 0).padStart(13)}`,
    );
  }
  lines.push('  (c1: --concurrency 1; otherwise each worker\'s default, 8 bodies in hand per thread)');
  for (const w of r.workerStops) lines.push(`  a worker of ${w.workers}: ${w.stopped}${w.errors > 0 ? `; ${w.errors} error lines` : ''}`);
  lines.push('the fills (proxy capture and publish; nats-server storing):');
  lines.push(`${'corpus'.padEnd(8)}${'workers'.padStart(8)}${'stored'.padStart(8)}${'s'.padStart(7)}${'MB/s'.padStart(8)}${'serve CPU-s/GB'.padStart(16)}${'nats CPU-s/GB'.padStart(15)}`);
  for (const d of r.drains) {
    const mb = d.fill.bytes / 1e6;
    lines.push(`${d.corpus.padEnd(8)}${workersLabel(d).padStart(8)}${`${d.fill.stored}/${d.fill.count}`.padStart(8)}${f(d.fill.wallS, 2).padStart(7)}${f(mb / d.fill.wallS).padStart(8)}${f((d.fill.serveCpuS / mb) * 1000).padStart(16)}${f((d.fill.natsCpuS / mb) * 1000).padStart(15)}`);
  }
  return lines;
}

function latencyTable(r: Extract<FleetPhaseResult, { status: 'ok' }>): string[] {
  const lines = [
    `proxy latency, 128 KB bodies (sparse and dense, 4 kinds), 2 connections closed loop, proxy on core ${r.pins.proxy} alone (remote: its scan-worker stopped meanwhile, as if on another machine):`,
    `${'scanning'.padEnd(10)}${'requests'.padStart(9)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'serve CPU-ms/req'.padStart(18)}  warnings`,
  ];
  for (const l of r.latency) {
    lines.push(
      `${l.mode.padEnd(10)}${String(l.ms.length).padStart(9)}${f(l.ms.length / l.wallS).padStart(8)}${f(percentile(l.ms, 0.5), 2).padStart(8)}${f(percentile(l.ms, 0.99), 2).padStart(8)}${f((l.serveCpuS * 1000) / l.ms.length, 2).padStart(18)}  ${(l.warnings ?? []).join('; ')}`,
    );
  }
  return lines;
}

function batcherLines(r: Extract<FleetPhaseResult, { status: 'ok' }>): string[] {
  const lines = [`batcher, one pass over what the drains left in the events stream (${r.batchers[0]?.messages ?? 0} messages, events and outcomes), 1,000 events a batch:`];
  for (const b of r.batchers) {
    lines.push(`  ${b.store.padEnd(14)} ${b.events} events in ${b.batches} batches in ${f(b.wallS, 2)} s: ${f(b.events / b.wallS, 0)} events/s, ${f(b.batches / b.wallS, 1)} batches/s, ${f(b.events / b.cpuS, 0)} events per CPU-second (start-up ${f(b.readyS, 2)} s before)`);
  }
  if (r.s3Skipped !== null) lines.push(`  s3: not measured: ${r.s3Skipped}`);
  return lines;
}

/** The phase's tables. */
export function formatFleet(r: FleetPhaseResult): string {
  if (r.status !== 'ok') return `fleet (issue 35): ${r.status}: ${r.message}`;
  const la = (x: number[]): string => x.map((v) => v.toFixed(1)).join(' ');
  return [
    `fleet (issue 35): roles as processes of dist/bin/main.js, nats-server (max_payload ${r.maxPayload / 2 ** 20} MiB, JetStream file store in tmp); ${r.cores} cores: serve on ${r.pins.proxy}, nats-server, origin and load on ${r.pins.natsAndLoad}; load average ${la(r.loadavg.start)} at start, ${la(r.loadavg.end)} at the end`,
    '',
    ...engineTable(r),
    '',
    ...drainTable(r),
    '',
    ...batcherLines(r),
    '',
    ...latencyTable(r),
    '×1 = MB/s / the 1-worker MB/s of the corpus; ×engine = MB per worker CPU-second / the in-process engine\'s; CPU-s/GB = CPU seconds per 10^9 bytes of bodies; msgs = messages the drain added to the events stream (events and outcomes), B/msg their stored bytes, nats µs/msg nats-server\'s CPU per message during the drain (delivering the bodies included).',
  ].join('\n');
}
