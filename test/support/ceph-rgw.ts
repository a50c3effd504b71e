/**
 * Starts Ceph RGW for a test file (one monitor, one memstore OSD, radosgw, all on loopback in a temp
 * dir) through ceph-rgw.sh, which supervises the daemons: they stop when `stop()` is called, and also
 * when this process dies in any way, since the script watches its stdin pipe. Asynchronous throughout
 * (no spawnSync): a start that does not finish within `timeoutMs` is killed, process group and all.
 * `kill9()` ends radosgw alone the hard way and `restart()` starts it again on the same cluster and
 * port (the script does both, on SIGUSR1 and SIGUSR2, so the new radosgw is supervised as the first
 * was): the monitor and the OSD keep running, and the buckets and their objects with them.
 */
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';

export interface Rgw {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Milliseconds from spawn to the first answered S3 request. */
  startMs: number;
  /** SIGKILL to radosgw alone, and waits for its exit; the monitor and the OSD keep running. */
  kill9(): Promise<void>;
  /**
   * Starts radosgw again (after `kill9()`) on the same cluster, port and credentials; resolves once an
   * authenticated S3 request (ListBuckets) is answered, with the milliseconds that took.
   */
  restart(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

const kScript = join(dirname(fileURLToPath(import.meta.url)), 'ceph-rgw.sh');

/** Resolves once RGW answers, or rejects with the reason (the script's last lines) after cleaning up. */
export async function startRgw(timeoutMs = 60_000): Promise<Rgw> {
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-rgw-'));
  const [mon, rgw] = [await freePort(), await freePort()];
  const t0 = Date.now();
  // detached: its own process group, so a kill reaches the daemons even if the script is stuck.
  const child = spawn('bash', [kScript, dir, String(mon), String(rgw)], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  const stop = async (): Promise<void> => {
    // Either ends the script, which stops its daemons on the way out (a TERM also while it is still
    // starting them); the group is killed only if it does not end in time.
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), 15_000)));
    if ((await Promise.race([exited, late])) === 'late') killGroup();
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ready = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs / 1000} s`)), timeoutMs);
      const onData = (b: Buffer): void => {
        out += b.toString();
        const line = out.split('\n').find((l) => l.startsWith('READY ') || l.startsWith('FAIL '));
        if (line === undefined) return;
        clearTimeout(timer);
        if (line.startsWith('FAIL ')) reject(new Error(line.slice(5)));
        else resolve(line);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the start script exited with ${code}`));
      });
    });
    const [, endpoint, accessKeyId, secretAccessKey] = ready.split(' ') as [string, string, string, string];
    const startMs = Date.now() - t0;
    // The script's answers to SIGUSR1 / SIGUSR2, each a line after READY.
    let seen = out.length;
    const reply = (signal: 'SIGUSR1' | 'SIGUSR2', ms: number): Promise<string> => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error('the Ceph script has ended'));
      return new Promise<string>((resolve, reject) => {
        const check = (): void => {
          // Whole lines only (stderr shares `out`).
          const lines = out.slice(seen).split('\n');
          lines.pop();
          const line = lines.find((l) => /^RGW-(KILLED|UP|FAIL)\b/.test(l));
          if (line === undefined) return;
          seen = out.indexOf(line, seen) + line.length;
          done();
          if (line.startsWith('RGW-FAIL')) reject(new Error(line.slice(9)));
          else resolve(line);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no answer to ${signal} within ${ms / 1000} s`));
        }, ms);
        const onExit = (): void => {
          done();
          reject(new Error('the Ceph script ended'));
        };
        const done = (): void => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('exit', onExit);
        };
        child.stdout.on('data', check);
        child.once('exit', onExit);
        process.kill(child.pid!, signal);
      });
    };
    const kill9 = async (): Promise<void> => {
      await reply('SIGUSR1', 15_000);
    };
    const restart = async (ms = 120_000): Promise<number> => {
      const t = Date.now();
      await reply('SIGUSR2', ms);
      // It answers HTTP; wait until it answers S3 with the cluster's credentials too.
      const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
      try {
        for (;;) {
          try {
            await s3.send(new ListBucketsCommand({}));
            return Date.now() - t;
          } catch (e) {
            if (Date.now() - t > ms) throw new Error(`radosgw answers HTTP but not S3 after ${ms / 1000} s: ${(e as Error).message}`);
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      } finally {
        s3.destroy();
      }
    };
    return { endpoint, accessKeyId, secretAccessKey, startMs, kill9, restart, stop };
  } catch (e) {
    await stop();
    const tail = out.trim().split('\n').filter((l) => l !== '' && !l.startsWith('FAIL ')).slice(-3).join(' | ');
    throw new Error(`${(e as Error).message}${tail ? `: ${tail}` : ''}`);
  }
}
