import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { managedRuleset } from '../../src/index.js';
import { openBucket } from '../../src/storage/index.js';
import type { LogEvent } from '../../src/eventlog/index.js';
import { syntheticAwsKeyId, syntheticCard, syntheticStripeKey } from '../cli/helpers.js';

export interface ShellResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs `sh -c COMMAND` without blocking the event loop (a blocked loop defeats vitest's timeouts). After
 * `timeoutMs` its whole process group is killed and the promise rejects; a non-zero exit resolves.
 */
export function sh(command: string, options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<ShellResult> {
  const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(options.cwd === undefined ? {} : { cwd: options.cwd }), ...(options.env === undefined ? {} : { env: options.env }) });
  const out: Buffer[] = [];
  let err = '';
  child.stdout!.on('data', (c: Buffer) => out.push(c));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // The group: a command the shell started (a server in the background) must not outlive the test.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      reject(new Error(`\`${command}\` did not finish in ${options.timeoutMs} ms\nstdout: ${Buffer.concat(out).toString()}\nstderr: ${err}`));
    }, options.timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
  });
}

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Synthetic values planted in the origin's bodies, fresh per test run. */
export interface Planted {
  card: string;
  awsKeyId: string;
  stripeKey: string;
}

export function plant(): Planted {
  return { card: syntheticCard(), awsKeyId: syntheticAwsKeyId(), stripeKey: syntheticStripeKey() };
}

export interface OriginBody {
  headers: Record<string, string>;
  body: Buffer;
  /** The decoded body the scanner's offsets refer to. */
  decoded: Buffer;
}

/** The origin's routes: JSON, HTML and gzipped JSON bodies with planted values. */
export function bodies(p: Planted): Record<string, OriginBody> {
  const json = Buffer.from(JSON.stringify({ user: 'jane', payment: { card: p.card }, note: 'café ✓' }));
  const html = Buffer.from(`<!doctype html><html><body><h1>Settings</h1><p>Access key: <code>${p.awsKeyId}</code></p></body></html>`);
  const gz = Buffer.from(JSON.stringify({ config: { stripe_key: p.stripeKey }, items: Array.from({ length: 50 }, (_, i) => ({ i })) }));
  return {
    '/api/user.json': { headers: { 'content-type': 'application/json; charset=utf-8' }, body: json, decoded: json },
    '/settings.html': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: html, decoded: html },
    '/config.json.gz': { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(gz), decoded: gz },
  };
}

export interface Origin {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * A local origin: fixed bodies by path, `/big?mb=N` (N MiB of text with a planted card at the start),
 * `/cut` (sends half a body, then drops the connection).
 */
export async function startOrigin(routes: Record<string, OriginBody>, planted: Planted): Promise<Origin> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const r = routes[url.pathname];
    if (r) {
      res.writeHead(200, { ...r.headers, 'content-length': r.body.length });
      res.end(r.body);
      return;
    }
    if (url.pathname === '/big') {
      const mb = Number(url.searchParams.get('mb') ?? '1');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(`card ${planted.card}\n`);
      const line = Buffer.alloc(1024, 'lorem ipsum dolor sit amet ');
      let left = mb * 1024;
      const more = (): void => {
        while (left > 0) {
          left--;
          if (!res.write(line)) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
      return;
    }
    if (url.pathname === '/cut') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 100_000 });
      res.write(Buffer.alloc(50_000, 'a'));
      setImmediate(() => res.socket?.destroy());
      return;
    }
    if (url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-seen-host': String(req.headers.host), 'x-forwarded-host-seen': String(req.headers['x-forwarded-host']) });
        res.end(Buffer.concat(chunks));
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface RawResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose body is returned as the raw bytes on the wire (no decompression). */
export function get(url: string, host: string, init: { method?: string; body?: Buffer } = {}): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Deploys the managed ruleset on a zone (A3) with the official REST shape, default rules. */
export async function deploy(apiUrl: string, token: string, zone: string): Promise<void> {
  const res = await fetch(`${apiUrl}/zones/${zone}/rulesets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'default',
      kind: 'zone',
      phase: 'http_response_firewall_managed',
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: managedRuleset.id } }],
    }),
  });
  if (res.status !== 200) throw new Error(`deploy: HTTP ${res.status} ${await res.text()}`);
}

/** Every stored batch of a stopped service: key → events. */
export async function readBatches(dataDir: string): Promise<Map<string, { bytes: Buffer; events: LogEvent[] }>> {
  const bucket = await openBucket({ dir: join(dataDir, 'events') });
  try {
    const out = new Map<string, { bytes: Buffer; events: LogEvent[] }>();
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix: 'events/', ...(cursor === undefined ? {} : { cursor }) });
      for (const o of page.objects) {
        const bytes = Buffer.from(await (await bucket.get(o.key))!.arrayBuffer());
        // A format 2 batch starts with its header (coverage), which is not an event.
        const lines = bytes.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEvent & { version?: number });
        out.set(o.key, { bytes, events: lines.filter((l) => l.version === undefined) });
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
    return out;
  } finally {
    await bucket.close();
  }
}

export interface ServeProcess {
  child: ChildProcess;
  /** stdout lines up to and including `ready`. */
  lines: string[];
  stdout(): string;
  stderr(): string;
  api: string;
  /** The dashboard: `http://127.0.0.1:PORT/`, the API's port. */
  dashboard: string;
  audit: string;
  proxy: string | null;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const kMain = join(import.meta.dirname, '../../src/cli/main.ts');

/** A `leakscan` process that has printed `ready`. */
export interface Spawned {
  child: ChildProcess;
  /** stdout split into lines when `ready` came (the line after it is what followed, often empty). */
  lines: string[];
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Runs `leakscan ARGS` (its sources, through tsx) as a real process; resolves once it prints `ready`. */
export function spawnLeakscan(args: string[], env?: NodeJS.ProcessEnv): Promise<Spawned> {
  return spawnUntilReady(['--import', 'tsx', kMain, ...args], args[0] ?? 'leakscan', { ...(env === undefined ? {} : { env }) });
}

/** Runs `node ARGV` (any entry point: the sources or dist/) and resolves once it prints `ready`. */
export function spawnUntilReady(argv: string[], what: string, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Spawned> {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not print ready in 60 s\nstdout: ${out}\nstderr: ${err}`));
    }, 60_000);
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      if (!lines.includes('ready')) return;
      clearTimeout(timer);
      resolve({ child, lines, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before ready\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Runs `leakscan serve` as a real process on free ports; resolves once it prints `ready`. */
export async function spawnServe(args: string[], env?: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const s = await spawnLeakscan(['serve', '--port', '0', '--audit-port', '0', '--proxy-port', '0', ...args], env);
  const field = (prefix: string): string | null => s.lines.find((l) => l.startsWith(prefix))?.slice(prefix.length).split(' ')[0] ?? null;
  return {
    child: s.child,
    lines: s.lines.slice(0, s.lines.indexOf('ready') + 1),
    stdout: s.stdout,
    stderr: s.stderr,
    api: field('rulesets API: ')!,
    dashboard: field('dashboard: ')!,
    audit: field('audit log: ')!,
    proxy: field('proxy: '),
    stop: (signal = 'SIGTERM') => {
      s.child.kill(signal);
      return s.exited;
    },
  };
}
