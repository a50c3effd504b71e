/**
 * The fleet phase's processes (bench/fleet.ts): the built command's roles (`serve`, `scan-worker`,
 * `batcher`) as child processes pinned to cores, nats-server (test/support/nats.ts) found by its
 * configuration file, and what /proc says about each: CPU time (user + system, all threads).
 *
 * Pinning: a child inherits the CPU affinity of the thread that forks it, so each role is spawned while
 * this process's main thread is pinned to the role's core (`taskset -p`, the main thread only), which is
 * then restored. The role's worker threads, started later, inherit it in turn. Linux only (/proc).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { spawnUntilReady, type Spawned } from '../test/serve/helpers.js';
import type { Nats } from '../test/support/nats.js';

const kTick = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of process `pid`, all its threads; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / kTick;
  } catch {
    return Number.NaN;
  }
}

/** Why pinning cannot be done here (no `taskset`), or null. */
export function tasksetProblem(): string | null {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return null;
  } catch (e) {
    return `taskset not usable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; Debian package util-linux)`;
  }
}

/** The affinity list of the calling process's main thread, e.g. `0,1` or `0-1`. */
function affinityOf(pid: number): string {
  const out = execFileSync('taskset', ['-cp', String(pid)], { encoding: 'utf8' });
  return out.slice(out.lastIndexOf(':') + 1).trim();
}

/** Pins every thread of `pid` to `cores` (`0`, `1`, `0,1`). */
export function pin(pid: number, cores: string): void {
  execFileSync('taskset', ['-a', '-cp', cores, String(pid)], { stdio: 'ignore' });
}

/** Runs `spawn` with this process's main thread on `cores`, so the child is born there. */
export async function spawnPinned<T>(cores: string, spawn: () => Promise<T>): Promise<T> {
  const before = affinityOf(process.pid);
  execFileSync('taskset', ['-cp', cores, String(process.pid)], { stdio: 'ignore' });
  let started: Promise<T>;
  try {
    // The fork happens synchronously inside `spawn()`; only then is the affinity given back.
    started = spawn();
  } finally {
    execFileSync('taskset', ['-cp', before, String(process.pid)], { stdio: 'ignore' });
  }
  return started;
}

/** The pid of the nats-server test/support/nats.ts started (it runs `nats-server -c DIR/nats.conf`). */
export function natsPid(nats: Nats): number {
  const conf = `${nats.storeDir.slice(0, nats.storeDir.lastIndexOf('/'))}/nats.conf`;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      if (argv.includes(conf) && argv.some((a) => a.endsWith('nats-server'))) return Number(e);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`nats-server of ${conf} not found in /proc`);
}

/** A role of the built command that has printed `ready`, with its pid and a clean stop. */
export interface Role {
  spawned: Spawned;
  pid: number;
  cpu(): number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Starts `node MAIN ARGS` on `cores` and waits for its `ready`. */
export async function startRole(main: string, args: string[], cores: string, env?: NodeJS.ProcessEnv): Promise<Role> {
  const spawned = await spawnPinned(cores, () => spawnUntilReady([main, ...args], args[0] ?? 'leakscan', env === undefined ? {} : { env }));
  const pid = spawned.child.pid!;
  return {
    spawned,
    pid,
    cpu: () => cpuSeconds(pid),
    stop: async (graceMs = 60_000) => {
      const c = spawned.child;
      if (c.exitCode !== null || c.signalCode !== null) return c.exitCode;
      c.kill('SIGTERM');
      const late = setTimeout(() => c.kill('SIGKILL'), graceMs);
      const code = await spawned.exited;
      clearTimeout(late);
      return code;
    },
  };
}
