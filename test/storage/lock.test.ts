/**
 * The directory lock: a holder killed with SIGKILL frees the directory at once, even while it is an
 * unreaped zombie whose pid still answers kill(pid, 0) (a supervisor restarting right away); a live
 * holder is refused with STORE_ERR_LOCKED; handles of one process share the store as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openBucket, StoreOpenError } from '../../src/storage/index.js';
import { holderAlive, lockDir } from '../../src/storage/lock.js';

const root = mkdtempSync(join(tmpdir(), 'leakscan-store-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, String(n++));
const holder = join(import.meta.dirname, 'fixtures/lock-holder.ts');
const linux = process.platform === 'linux';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Stdout lines of `child` as they come, until it has printed `ready`. */
function linesUntilReady(child: ChildProcess): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      if (lines.includes('ready')) resolve(lines);
    });
    child.once('exit', (code, signal) => reject(new Error(`holder exited before ready (${signal ?? code})`)));
  });
}

function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2];
  } catch {
    return undefined;
  }
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}

/** Starts a holder of `dir` whose parent execs into `sleep`, which never reaps it: after SIGKILL it stays a zombie. */
async function unreapedHolder(dir: string): Promise<number> {
  const shell = spawn('/bin/sh', ['-c', '"$0" --import tsx "$1" "$2" & echo $!; exec sleep 120', process.execPath, holder, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(shell);
  const pid = Number((await linesUntilReady(shell))[0]);
  expect(Number.isInteger(pid) && pid > 0).toBe(true);
  return pid;
}

async function killToZombie(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await until('the holder to be a zombie', () => procState(pid) === 'Z');
  // What a bare pid probe sees: the dead holder still answers kill(pid, 0).
  expect(() => process.kill(pid, 0)).not.toThrow();
}

describe('bucket directory lock', () => {
  it.skipIf(!linux)('reopens at once after kill -9, while the killed holder is still an unreaped zombie', async () => {
    const dir = fresh();
    const pid = await unreapedHolder(dir);
    // An unreferenced blob, as a writer killed between its blob and its commit leaves one.
    mkdirSync(join(dir, 'blobs', 'ab'), { recursive: true });
    const orphan = join(dir, 'blobs', 'ab', 'ab'.padEnd(32, '0'));
    writeFileSync(orphan, 'never committed');

    await killToZombie(pid);
    const b = await openBucket({ dir });
    try {
      expect(procState(pid)).toBe('Z');
      expect(await (await b.get('written-by'))!.text()).toBe(String(pid));
      // The holder died without closing, so the reopen swept what it may have left behind.
      expect(existsSync(orphan)).toBe(false);
      expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
    } finally {
      await b.close();
    }
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it.skipIf(!linux)('without the kernel lock (other systems), the pid probe counts a zombie holder as dead', async () => {
    const dir = fresh();
    const pid = await unreapedHolder(dir);
    expect(holderAlive(pid)).toBe(true);
    await expect(lockDir(dir, { kernel: false })).rejects.toMatchObject({ code: 'STORE_ERR_LOCKED' });
    await killToZombie(pid);
    expect(holderAlive(pid)).toBe(false);
    expect(holderAlive(process.pid)).toBe(true);
    const lock = await lockDir(dir, { kernel: false });
    expect(lock.crashed).toBe(true);
    lock.release();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it('refuses a directory a live process holds, naming its pid, and opens it once that process is gone', async () => {
    const dir = fresh();
    const child = spawn(process.execPath, ['--import', 'tsx', holder, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(child);
    await linesUntilReady(child);
    const e = await openBucket({ dir }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(StoreOpenError);
    expect(e).toMatchObject({ code: 'STORE_ERR_LOCKED' });
    expect((e as Error).message).toContain(`(pid ${child.pid})`);
    // A refused open leaves the holder's lock as it was.
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(child.pid));
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const b = await openBucket({ dir });
    expect(await (await b.get('written-by'))!.text()).toBe(String(child.pid));
    await b.close();
  });

  it('shares one store between concurrent opens in a process, and reopens while a close is in flight', async () => {
    const dir = fresh();
    const [a, b] = await Promise.all([openBucket({ dir }), openBucket({ dir })]);
    await a.put('k', 'v');
    expect(await (await b.get('k'))!.text()).toBe('v');
    const closing = Promise.all([a.close(), b.close()]);
    const c = await openBucket({ dir });
    await closing;
    expect(await (await c.get('k'))!.text()).toBe('v');
    await c.close();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });
});
