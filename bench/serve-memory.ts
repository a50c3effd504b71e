/**
 * The service's memory under and after load: `leakscan serve` runs as its own process in front of a
 * local origin whose responses are 3 MB of text or JSON with a few synthetic findings in their first
 * megabyte; rounds of concurrent requests go through the proxy, and the server's RSS (VmRSS), its
 * anonymous memory, glibc's main heap (`[heap]` in smaps) and its CPU time are read from /proc at the
 * start, after each round (once the scanner has gone quiet) and 10, 30 and 60 s into the idle time
 * after the last round. The main thread's V8 heap and external memory come from a probe loaded into
 * the process (bench/serve-memory-probe.mjs, read on SIGUSR2).
 *
 *   npm run build && npx tsx bench/serve-memory.ts [--rounds 5] [--concurrency 150] [--mb 3]
 *     [--idle 10,30,60] [--runs 1] [--workers N] [--env NAME=VALUE]… [--node-arg ARG]…
 *     [--json FILE] [--smaps FILE] [--main dist/bin/main.js]
 *
 * `--env` and `--node-arg` are for experiments (MALLOC_ARENA_MAX=2, --expose-gc, --max-semi-space-size=…).
 * With --runs N the table gives each figure's median over N runs, each with a fresh server and data directory.
 * Linux only (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy } from '../test/serve/helpers.js';
import { Rng } from './prng.js';
import { makeValue, words, type ValueKind } from './synthetic.js';

interface Options {
  rounds: number;
  concurrency: number;
  mb: number;
  idle: number[];
  runs: number;
  workers: number | null;
  env: Record<string, string>;
  nodeArgs: string[];
  json: string | null;
  /** Writes the server's /proc/PID/smaps here after the last sample (where the idle memory is). */
  smaps: string | null;
  /** The CLI entry to run (experiments on a modified copy of dist/). */
  main: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { rounds: 5, concurrency: 150, mb: 3, idle: [10, 30, 60], runs: 1, workers: null, env: {}, nodeArgs: [], json: null, smaps: null, main: kMain };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${a} needs a value`);
      return next;
    };
    if (a === '--rounds') o.rounds = Number(v());
    else if (a === '--concurrency') o.concurrency = Number(v());
    else if (a === '--mb') o.mb = Number(v());
    else if (a === '--idle') o.idle = v().split(',').map(Number);
    else if (a === '--runs') o.runs = Number(v());
    else if (a === '--workers') o.workers = Number(v());
    else if (a === '--env') {
      const [k, ...rest] = v().split('=');
      o.env[k!] = rest.join('=');
    } else if (a === '--node-arg') o.nodeArgs.push(v());
    else if (a === '--json') o.json = v();
    else if (a === '--main') o.main = v();
    else if (a === '--smaps') o.smaps = v();
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

// ---- The origin: 3 MB bodies, findings in the first megabyte (what the scanner reads) ---------------

const kKinds: ValueKind[] = ['card', 'aws-access-key-id', 'stripe-key', 'github-token', 'us-ssn'];

/** `mb` MiB of log-like text, or of a JSON array of records, with a synthetic value every ~200 KB of the first MiB. */
function makeBodies(mb: number): { text: Buffer; json: Buffer } {
  const rng = new Rng(31);
  const size = mb * 1024 * 1024;
  const lines: string[] = [];
  let n = 0;
  let k = 0;
  while (n < size) {
    let line = `${new Date(1_790_000_000_000 + lines.length * 1000).toISOString()} INFO request served ${words(rng, 12)}`;
    if (n < 1024 * 1024 && lines.length % 2000 === 1999) {
      const v = makeValue(rng, kKinds[k++ % kKinds.length]!);
      line += ` ${v.field}=${v.value}`;
    }
    lines.push(line);
    n += line.length + 1;
  }
  const text = Buffer.from(`${lines.join('\n')}\n`).subarray(0, size);
  const records: string[] = [];
  n = 2;
  k = 0;
  while (n < size) {
    const rec: Record<string, string | number> = { id: records.length, note: words(rng, 10) };
    if (n < 1024 * 1024 && records.length % 1500 === 1499) {
      const v = makeValue(rng, kKinds[k++ % kKinds.length]!);
      rec[v.field] = v.value;
    }
    const s = JSON.stringify(rec);
    records.push(s);
    n += s.length + 1;
  }
  const json = Buffer.from(`[${records.join(',')}]`);
  return { text, json };
}

async function startOrigin(bodies: { text: Buffer; json: Buffer }): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const json = req.url?.startsWith('/json') === true;
    const body = json ? bodies.json : bodies.text;
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// ---- The server process and what /proc says about it -----------------------------------------------

interface Serve {
  child: ChildProcess;
  pid: number;
  proxy: string;
  api: string;
  token: string;
  probeFile: string;
  /** What the server printed on stderr (its `stopped:` line gives the backlog's counters). */
  stderr(): string;
  stop(): Promise<void>;
}

const kMain = join(import.meta.dirname, '../dist/bin/main.js');
/** Every request's zone (`--zone ID`): the bench deploys the managed ruleset on it. */
const kZone = 'be0c' + '0'.repeat(28);
const kProbe = join(import.meta.dirname, 'serve-memory-probe.mjs');

function startServe(origin: string, o: Options, dataDir: string): Promise<Serve> {
  const probeFile = join(dataDir, '..', 'probe.jsonl');
  const args = [...o.nodeArgs, '--import', kProbe, o.main, 'serve', '--data', dataDir, '--origin', origin, '--port', '0', '--audit-port', '0', '--proxy-port', '0', '--zone', kZone];
  if (o.workers !== null) args.push('--workers', String(o.workers));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...o.env, LEAKSCAN_MEMORY_PROBE: probeFile } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print ready\n${out}\n${err}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}\n${out}\n${err}`)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      if (!lines.includes('ready')) return;
      clearTimeout(timer);
      const field = (prefix: string): string => lines.find((l) => l.startsWith(prefix))!.slice(prefix.length).split(' ')[0]!;
      resolve({
        child,
        pid: child.pid!,
        proxy: field('proxy: '),
        api: field('rulesets API: '),
        // Printed only on a terminal: read from its file.
        token: readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
        probeFile,
        stderr: () => err,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

const kTick = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of the whole process, all threads. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / kTick;
}

function kb(text: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** RSS of the process's `[heap]` mapping (the brk heap of glibc's main arena), MB. */
function heapRss(pid: number): number {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const at = smaps.search(/ \[heap\]\n/);
  if (at < 0) return 0;
  return kb(smaps.slice(at, smaps.indexOf('VmFlags', at)), 'Rss');
}

interface Sample {
  label: string;
  rssMb: number;
  anonMb: number;
  /** RSS of the `[heap]` mapping: glibc's main arena, where the main thread's Buffers are allocated. */
  mallocHeapMb: number;
  threads: number;
  cpuS: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  /** Main thread's heap used after a full collection (only with --node-arg --expose-gc). */
  heapAfterGcMb: number | null;
  arrayBuffersAfterGcMb: number | null;
  /** The probe's record as read (in the --json output). */
  probe: Record<string, unknown> | null;
}

async function probe(s: Serve): Promise<Record<string, unknown> | null> {
  const before = existsSync(s.probeFile) ? readFileSync(s.probeFile, 'utf8').split('\n').filter(Boolean).length : 0;
  s.child.kill('SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await sleep(20);
    if (!existsSync(s.probeFile)) continue;
    const lines = readFileSync(s.probeFile, 'utf8').split('\n').filter(Boolean);
    if (lines.length > before) return JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
  }
  return null;
}

async function sample(s: Serve, label: string): Promise<Sample> {
  // /proc first: the probe's own work (and its optional collection) must not change the figures.
  const status = readFileSync(`/proc/${s.pid}/status`, 'utf8');
  const cpuS = cpuSeconds(s.pid);
  const threads = readdirSync(`/proc/${s.pid}/task`).length;
  const p = await probe(s);
  const mb = (n: unknown): number => (typeof n === 'number' ? n / 1048576 : Number.NaN);
  const before = (p?.before ?? {}) as Record<string, number>;
  const after = p?.after as Record<string, number> | null | undefined;
  return {
    label,
    rssMb: kb(status, 'VmRSS'),
    anonMb: kb(status, 'RssAnon'),
    mallocHeapMb: heapRss(s.pid),
    threads,
    cpuS,
    heapUsedMb: mb(before.heapUsed),
    heapTotalMb: mb(before.heapTotal),
    externalMb: mb(before.external),
    arrayBuffersMb: mb(before.arrayBuffers),
    heapAfterGcMb: after ? mb(after.heapUsed) : null,
    arrayBuffersAfterGcMb: after ? mb(after.arrayBuffers) : null,
    probe: p,
  };
}

/** Waits until the server used less than 2% of a core over half a second (the scanner is done). */
async function quiet(pid: number): Promise<void> {
  let last = cpuSeconds(pid);
  for (let i = 0; i < 240; i++) {
    await sleep(500);
    const now = cpuSeconds(pid);
    if (now - last <= 0.01) return;
    last = now;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `concurrency` requests at once through the proxy (half text, half JSON); every body read to the end. */
async function round(proxy: string, concurrency: number): Promise<{ bytes: number; failed: string[] }> {
  // A connection per request: kept-alive ones that the server closes while idle between rounds (its
  // 5 s keep-alive timeout) would fail the next round's first requests with ECONNRESET.
  const agent = new Agent({ keepAlive: false, maxSockets: concurrency });
  let bytes = 0;
  const failed: string[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      new Promise<void>((resolve) => {
        const req = request(`${proxy}/${i % 2 === 0 ? 'text' : 'json'}/${i}`, { headers: { host: 'app.example.com' }, agent }, (res) => {
          // A proxy error is a short text/plain body: its first line says why.
          let text = res.statusCode === 200 ? null : '';
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (text !== null && text.length < 200) text += c.toString('utf8');
          });
          res.on('end', () => {
            if (text !== null) failed.push(`HTTP ${res.statusCode} ${text.split('\n')[0]}`);
            resolve();
          });
          res.on('error', (e: NodeJS.ErrnoException) => {
            failed.push(e.code ?? e.message);
            resolve();
          });
        });
        req.on('error', (e: NodeJS.ErrnoException) => {
          failed.push(e.code ?? e.message);
          resolve();
        });
        req.end();
      }),
    ),
  );
  agent.destroy();
  return { bytes, failed };
}

async function run(o: Options, origin: string): Promise<Sample[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'leakscan-serve-memory-'));
  const s = await startServe(origin, o, join(tmp, 'data'));
  const samples: Sample[] = [];
  try {
    await deploy(s.api, s.token, kZone);
    await sleep(2000);
    samples.push(await sample(s, 'start'));
    for (let r = 1; r <= o.rounds; r++) {
      const t0 = performance.now();
      const { bytes, failed } = await round(s.proxy, o.concurrency);
      await quiet(s.pid);
      process.stderr.write(`round ${r}: ${(bytes / 1048576).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s (until the scanner is idle)${failed.length > 0 ? `, ${failed.length} failed (${[...new Set(failed)].join(', ')})` : ''}\n`);
      samples.push(await sample(s, `round ${r}`));
    }
    let waited = 0;
    for (const t of o.idle) {
      await sleep((t - waited) * 1000);
      waited = t;
      samples.push(await sample(s, `idle ${t} s`));
    }
    if (o.smaps !== null) writeFileSync(o.smaps, readFileSync(`/proc/${s.pid}/smaps`));
  } finally {
    await s.stop();
    const stopped = s.stderr().split('\n').find((l) => l.includes('stopped:'));
    if (stopped !== undefined) process.stderr.write(`${stopped}\n`);
  }
  rmSync(tmp, { recursive: true, force: true });
  return samples;
}

function median(xs: number[]): number {
  const v = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

function table(runs: Sample[][]): string {
  const cols: Array<[string, (s: Sample) => number | null, number]> = [
    ['RSS MB', (s) => s.rssMb, 0],
    ['anon MB', (s) => s.anonMb, 0],
    ['malloc heap MB', (s) => s.mallocHeapMb, 0],
    ['threads', (s) => s.threads, 0],
    ['CPU s', (s) => s.cpuS, 1],
    ['heap used MB', (s) => s.heapUsedMb, 1],
    ['heap total MB', (s) => s.heapTotalMb, 1],
    ['external MB', (s) => s.externalMb, 1],
    ['arrayBuffers MB', (s) => s.arrayBuffersMb, 1],
    ['heap after gc MB', (s) => s.heapAfterGcMb, 1],
    ['arrayBuffers after gc MB', (s) => s.arrayBuffersAfterGcMb, 1],
  ];
  const used = cols.filter(([, f]) => runs[0]!.some((s) => f(s) !== null));
  const head = `| point | ${used.map(([n]) => n).join(' | ')} |`;
  const rule = `|---|${used.map(() => '---:').join('|')}|`;
  const rows = runs[0]!.map((s0, i) => `| ${s0.label} | ${used.map(([, f, d]) => median(runs.map((r) => f(r[i]!) ?? Number.NaN)).toFixed(d)).join(' | ')} |`);
  return [head, rule, ...rows].join('\n');
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(o.main)) throw new Error('dist/ is missing: npm run build first');
  const bodies = makeBodies(o.mb);
  const origin = await startOrigin(bodies);
  const runs: Sample[][] = [];
  try {
    for (let i = 0; i < o.runs; i++) {
      process.stderr.write(`run ${i + 1}/${o.runs}\n`);
      runs.push(await run(o, origin.url));
    }
  } finally {
    origin.server.closeAllConnections();
    origin.server.close();
  }
  const env = Object.entries(o.env).map(([k, v]) => `${k}=${v}`);
  process.stdout.write(
    `leakscan serve, ${o.rounds} rounds of ${o.concurrency} concurrent ${o.mb} MB responses (text and JSON)` +
      `${o.workers === null ? '' : `, --workers ${o.workers}`}${env.length > 0 ? `, env ${env.join(' ')}` : ''}${o.nodeArgs.length > 0 ? `, node ${o.nodeArgs.join(' ')}` : ''}` +
      `; median of ${o.runs} run${o.runs === 1 ? '' : 's'}\n\n${table(runs)}\n`,
  );
  if (o.json !== null) writeFileSync(o.json, JSON.stringify({ options: o, runs }, null, 2));
}

await main();
