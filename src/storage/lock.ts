/**
 * The directory lock of a bucket: one process at a time, and a holder killed with `kill -9` must not
 * keep the directory from the next one (a supervisor restarts at once, while the dead process may
 * still be an unreaped zombie whose pid answers `kill(pid, 0)`).
 *
 * On Linux the lock is a listening Unix socket in the abstract namespace, named after the directory's
 * device and inode: the kernel frees the name when the holder's last thread has exited, whether or not
 * its parent ever reaps it. Elsewhere (and where that socket cannot be made) the `LOCK` file's pid is
 * probed, counting a zombie as dead where /proc shows it. The `LOCK` file also names the holder in the
 * refusal, and finding it at open means the last holder died without closing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { StoreOpenError } from './errors.js';

/** How long an open waits for the name of a holder that is dead (or has no `LOCK` yet) to be freed. */
const kDyingHolderMs = 2000;

export interface DirLock {
  /** True when a previous holder died without closing: blobs it wrote but never committed may remain. */
  readonly crashed: boolean;
  /** Removes the `LOCK` file, then frees the directory. */
  release(): void;
}

/** The abstract socket name of a directory (the same through any symlink or bind mount of it). */
function kernelLockName(dir: string): string {
  const st = statSync(dir, { bigint: true });
  return `\0leakscan-lock-${createHash('sha256').update(`${st.dev}:${st.ino}`).digest('hex')}`;
}

/**
 * Takes the lock of `dir` (an existing, resolved directory) or throws STORE_ERR_LOCKED. `kernel: false`
 * uses only the pid probe, as on other systems (for tests of that path).
 */
export async function lockDir(dir: string, options: { kernel?: boolean } = {}): Promise<DirLock> {
  const path = join(dir, 'LOCK');
  let server: Server | undefined;
  if (process.platform === 'linux' && options.kernel !== false) {
    const name = kernelLockName(dir);
    const deadline = Date.now() + kDyingHolderMs;
    for (;;) {
      const got = await listen(name);
      if (got !== 'held') {
        server = got;
        break;
      }
      // A holder that is still running is refused at once. One killed a moment ago can show as a
      // zombie for tens of ms while its other threads exit and still hold the name: wait for those.
      const pid = readPid(path);
      if ((pid !== undefined && holderAlive(pid)) || Date.now() >= deadline) throw lockedError(path, pid);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  let crashed: boolean;
  try {
    crashed = writePid(path, server === undefined);
  } catch (e) {
    server?.close();
    throw e;
  }
  return {
    crashed,
    release(): void {
      // The file goes first, so the next holder never finds the LOCK of one that closed cleanly.
      rmSync(path, { force: true });
      server?.close();
    },
  };
}

/** The listening socket; 'held' when another process has it; undefined when it cannot be made here. */
function listen(name: string): Promise<Server | 'held' | undefined> {
  return new Promise((resolve) => {
    // Nothing is served: a connection someone makes to the name is closed at once.
    const server = createServer((socket) => socket.destroy());
    // Kept after listening too: a failed accept on the lock must not become an uncaught error.
    server.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRINUSE' ? 'held' : undefined));
    // exclusive: a cluster worker binds the name itself instead of asking the primary to.
    server.listen({ path: name, exclusive: true }, () => {
      server.unref();
      resolve(server);
    });
  });
}

/** Writes this process's pid to `LOCK`; returns whether one was there. With `probe`, a live holder's pid refuses. */
function writePid(path: string, probe: boolean): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new StoreOpenError('STORE_ERR_OPEN', path, { cause: e });
  }
  if (probe) {
    const pid = readPid(path);
    if (pid !== undefined && pid !== process.pid && holderAlive(pid)) throw lockedError(path, pid);
  }
  writeFileSync(path, String(process.pid));
  return true;
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function lockedError(path: string, pid = readPid(path)): StoreOpenError {
  return new StoreOpenError('STORE_ERR_LOCKED', pid === undefined ? path : `${path} (pid ${pid})`);
}

/** Whether `pid` is a running process: `kill(pid, 0)` answers, and /proc (where there is one) does not show a zombie. */
export function holderAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    // Gone between the two checks (reaped), if this system has a /proc at all.
    return !((e as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat'));
  }
  // "pid (comm) S …": the state follows the last ')' (comm may itself hold parentheses).
  const state = stat[stat.lastIndexOf(')') + 2];
  return state !== 'Z' && state !== 'X';
}
