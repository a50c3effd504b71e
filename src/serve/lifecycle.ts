/**
 * The running service as a process: its pid file in the data directory, and `leakscan stop`, which
 * finds the process through that file, asks it to drain (SIGTERM) and waits for it to be gone.
 *
 * The pid file is a convenience, not the lock: the data lock is the events bucket's (docs/storage.md,
 * Locking), whose `LOCK` file names the holder's pid. A pid file is trusted only while that `LOCK`
 * names the same pid and the process is alive, so a file left by a killed service, whose pid the
 * system has since given to another program, never gets that program signalled.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { holderAlive } from '../storage/lock.js';
import { ServeError } from '../eventlog/index.js';

/** `DIR/serve.pid`, as `leakscan serve` writes it once it is ready. */
export interface PidFile {
  pid: number;
  /** ISO 8601 time the service became ready. */
  started: string;
  api: { url: string; port: number };
  dashboard: string;
  audit: { url: string; port: number };
  proxy: { url: string; port: number } | null;
}

export const kPidFileName = 'serve.pid';

export function pidFilePath(dataDir: string): string {
  return join(dataDir, kPidFileName);
}

/** The events bucket's lock file: it names the pid of the process that holds the data directory. */
function lockFilePath(dataDir: string): string {
  return join(dataDir, 'events', 'LOCK');
}

/**
 * Writes the pid file (through a temporary file and a rename, so a reader never sees half of it).
 * Whatever file was there is replaced: this process holds the data lock, so any earlier one is stale.
 */
export function writePidFile(dataDir: string, info: Omit<PidFile, 'pid'>): string {
  const path = pidFilePath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ pid: process.pid, ...info }, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
  return path;
}

/** Removes the pid file if it is this process's (a later service's file is left alone). */
export function removePidFile(dataDir: string): void {
  const info = readPidFile(dataDir);
  if (info?.pid === process.pid) rmSync(pidFilePath(dataDir), { force: true });
}

/** The pid file's content; undefined when there is none or it is not one. */
export function readPidFile(dataDir: string): PidFile | undefined {
  let text: string;
  try {
    text = readFileSync(pidFilePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(text) as PidFile;
    return Number.isSafeInteger(v?.pid) && v.pid > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFilePath(dataDir), 'utf8'));
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The running service of `dataDir`: its pid file, when that pid is alive and holds the data lock. */
export function runningService(dataDir: string): PidFile | undefined {
  const info = readPidFile(dataDir);
  if (info === undefined || !holderAlive(info.pid) || lockHolder(dataDir) !== info.pid) return undefined;
  return info;
}

export interface StopResult {
  pid: number;
  /** How long it took the process to exit after SIGTERM, in ms. */
  ms: number;
  /** False when the process was gone but its lock file was still there: it did not close its stores (killed). */
  clean: boolean;
}

export interface StopOptions {
  /** How long to wait for the process to exit. Default 30 s. */
  timeoutMs?: number;
  /** Called once SIGTERM is sent. */
  onSignal?: (info: PidFile) => void;
  /** Poll interval (ms). Default 50. */
  pollMs?: number;
}

/**
 * Stops the service running on `dataDir`: SIGTERM to the pid in its pid file, then waits until the
 * process is gone (a zombie counts as gone: the kernel has freed its lock). Throws
 * SERVE_ERR_NOT_RUNNING when no service runs there (a stale pid file is removed) and
 * SERVE_ERR_STOP_TIMEOUT when it is still running after `timeoutMs` (it goes on draining).
 */
export async function stopService(dataDir: string, options: StopOptions = {}): Promise<StopResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 50;
  const info = runningService(dataDir);
  if (info === undefined) {
    const stale = readPidFile(dataDir);
    // Only a file whose process is gone, or which no longer holds the lock, is stale; a service
    // that is starting has not written one yet.
    if (stale !== undefined) rmSync(pidFilePath(dataDir), { force: true });
    throw new ServeError(
      'SERVE_ERR_NOT_RUNNING',
      stale === undefined ? `no ${pidFilePath(dataDir)}` : `${pidFilePath(dataDir)} named pid ${stale.pid}, which no longer runs the service there (file removed)`,
    );
  }
  const t0 = Date.now();
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
  options.onSignal?.(info);
  const deadline = t0 + timeoutMs;
  while (holderAlive(info.pid)) {
    if (Date.now() >= deadline) {
      throw new ServeError('SERVE_ERR_STOP_TIMEOUT', `pid ${info.pid} is still running after ${(timeoutMs / 1000).toFixed(1)} s; it goes on draining (kill -KILL ${info.pid} ends it at once and loses the events not yet written)`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  // A clean stop removed the lock file before freeing the lock; a killed holder leaves it (the next start repairs).
  const clean = lockHolder(dataDir) !== info.pid;
  return { pid: info.pid, ms: Date.now() - t0, clean };
}
