/**
 * Starts Debian's `nats-server` (2.9, JetStream) for a test file: loopback only, a free port, a temp
 * store dir. `kill9()` ends it the hard way and `restart()` brings it back on the same port and store,
 * so JetStream's recovery of its own files is what a test sees. Asynchronous throughout (no spawnSync).
 * When `nats-server` is missing, `startNats` rejects with the reason, and suites skip with it printed.
 * With `login` it requires a user and password (or a token), with `tls` a TLS handshake with its
 * certificate (and, with `tls.ca`, a client certificate that chains to it), as an operator's is set up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

export interface NatsOptions {
  /** Milliseconds to wait for `Server is ready`. Default 20 s. */
  timeoutMs?: number;
  /** Require this user and password, or this token. */
  login?: { user: string; password: string } | { token: string };
  /** Require TLS with this certificate and key (PEM files); with `ca`, clients present a certificate it issued. */
  tls?: { cert: string; key: string; ca?: string };
}

export interface Nats {
  /** `nats://127.0.0.1:PORT`, or `tls://127.0.0.1:PORT` with `tls` */
  url: string;
  port: number;
  /** The JetStream store, kept across `kill9()` and `restart()`. */
  storeDir: string;
  /** Milliseconds from spawn to `Server is ready`. */
  startMs: number;
  /** SIGKILL, and waits for the exit. */
  kill9(): Promise<void>;
  /** Starts it again on the same port and store (after `kill9()` or `stop()`). */
  restart(): Promise<void>;
  /** SIGTERM (SIGKILL after 10 s), then removes the temp dir. */
  stop(): Promise<void>;
}

/** Room for a captured encoded body (2 MiB + 64 KiB) with its JSON envelope and headers. */
export const kMaxPayload = 4 * 1024 * 1024;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Spawns nats-server on `conf`; resolves once it logs `Server is ready`, rejects with its last lines. */
function launch(conf: string, timeoutMs: number): Promise<ChildProcess> {
  const child = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise<ChildProcess>((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const tail = out.trim().split('\n').slice(-3).join(' | ');
      reject(new Error(`${why}${tail ? `: ${tail}` : ''}`));
    };
    const timer = setTimeout(() => fail(`nats-server not ready within ${timeoutMs / 1000} s`), timeoutMs);
    const onData = (b: Buffer): void => {
      out += b.toString();
      if (out.includes('Server is ready')) {
        clearTimeout(timer);
        // Keep draining its output so a chatty server never blocks on a full pipe.
        out = '';
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (e) => fail(`nats-server could not be started (${(e as NodeJS.ErrnoException).code ?? e.message}; Debian package nats-server)`));
    child.once('exit', (code, signal) => {
      if (!out.includes('Server is ready')) fail(`nats-server exited with ${code ?? signal}`);
    });
  });
}

/** The configuration's lines: a quoted string is JSON, which nats-server's format reads. */
function config(port: number, storeDir: string, o: NatsOptions): string[] {
  const q = (v: string): string => JSON.stringify(v);
  const lines = [`listen: "127.0.0.1:${port}"`, `max_payload: ${kMaxPayload}`, 'jetstream {', `  store_dir: ${q(storeDir)}`, '}'];
  if (o.login !== undefined) {
    lines.push('authorization {', 'user' in o.login ? `  user: ${q(o.login.user)}\n  password: ${q(o.login.password)}` : `  token: ${q(o.login.token)}`, '  timeout: 2', '}');
  }
  if (o.tls !== undefined) {
    lines.push('tls {', `  cert_file: ${q(o.tls.cert)}`, `  key_file: ${q(o.tls.key)}`);
    if (o.tls.ca !== undefined) lines.push(`  ca_file: ${q(o.tls.ca)}`, '  verify: true');
    lines.push('  timeout: 2', '}');
  }
  return [...lines, ''];
}

/**
 * Starts nats-server with JetStream. Rejects with the reason when it is not installed or cannot start.
 * @example
 * const nats = await startNats();
 * const nc = await connect({ servers: nats.url });
 * await nats.kill9(); await nats.restart();
 * await nats.stop();
 */
export async function startNats(options: NatsOptions = {}): Promise<Nats> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-nats-'));
  const storeDir = join(dir, 'js');
  const port = await freePort();
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, config(port, storeDir, options).join('\n'));
  const t0 = Date.now();
  let child: ChildProcess;
  try {
    child = await launch(conf, timeoutMs);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const startMs = Date.now() - t0;
  const kill9 = async (): Promise<void> => {
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    url: `${options.tls === undefined ? 'nats' : 'tls'}://127.0.0.1:${port}`,
    port,
    storeDir,
    startMs,
    kill9,
    restart: async () => {
      await exited(child);
      child = await launch(conf, timeoutMs);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited(child);
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
