/**
 * A watchdog for a test file's main thread. Vitest's timeouts are timers: they cannot fire while the
 * event loop is blocked (a synchronous child process, an `Atomics.wait` with no timeout such as
 * miniflare's synchronous proxy calls), and such a block hangs the whole run until CI kills it. A
 * worker thread watches a heartbeat the main thread writes; when it stops for `stallMs`, the worker
 * says so on stderr and kills the named helper processes (so the blocked call returns with an error),
 * and if the thread is still blocked `killMs` later, ends the test process: the run then fails at
 * once instead of hanging.
 */
import { Worker } from 'node:worker_threads';

export interface StallWatchdog {
  /** True once a stall was seen (readable from the main thread after it wakes). */
  stalled(): boolean;
  stop(): Promise<void>;
}

export interface StallOptions {
  /** Label in the messages (a file name). */
  label: string;
  stallMs: number;
  /** After `onStall`, how much longer before the process is ended. */
  killMs: number;
  /** Names (`comm`) of descendant processes to SIGKILL at the stall, e.g. `workerd`. */
  killChildren?: string[];
}

const kWorker = `
const { workerData } = require('node:worker_threads');
const { readFileSync, readdirSync, writeSync } = require('node:fs');
const { label, stallMs, killMs, killChildren } = workerData;
// Descendants of pid whose command name is in names, from /proc (none where there is no /proc).
function descendants(pid, names) {
  let entries = [];
  try { entries = readdirSync('/proc').filter((e) => /^[0-9]+$/.test(e)); } catch { return []; }
  const parent = new Map(), comm = new Map();
  for (const e of entries) {
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
      const stat = readFileSync('/proc/' + e + '/stat', 'utf8');
      const close = stat.lastIndexOf(')');
      comm.set(Number(e), stat.slice(stat.indexOf('(') + 1, close));
      parent.set(Number(e), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {}
  }
  const out = [];
  const walk = (p) => { for (const [c, pp] of parent) if (pp === p) { if (names.includes(comm.get(c))) out.push(c); walk(c); } };
  walk(pid);
  return out;
}
const beat = new BigInt64Array(workerData.shared);
const sleep = new Int32Array(new SharedArrayBuffer(4));
const say = (m) => { try { writeSync(2, '[stall-watchdog] ' + label + ': ' + m + '\\n'); } catch {} };
let stage = 0;
for (;;) {
  if (Atomics.load(beat, 2) === 1n) break;
  Atomics.wait(sleep, 0, 0, 500);
  const idle = Date.now() - Number(Atomics.load(beat, 0));
  if (idle < stallMs) { stage = 0; continue; }
  if (stage === 0) {
    stage = 1;
    Atomics.store(beat, 1, 1n);
    say('the main thread has been blocked for ' + Math.round(idle / 1000) + ' s (a synchronous call that does not return)');
    if (killChildren.length > 0) {
      const pids = descendants(process.pid, killChildren);
      for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch {} }
      say(pids.length > 0 ? 'stopped ' + killChildren.join('/') + ' pid ' + pids.join(', ') + ' so the call returns with an error' : 'no ' + killChildren.join('/') + ' process to stop');
    }
  } else if (idle >= stallMs + killMs) {
    say('still blocked after ' + Math.round(idle / 1000) + ' s: ending this test process so the run fails instead of hanging');
    process.kill(process.pid, 'SIGKILL');
  }
}
`;

export function startStallWatchdog(o: StallOptions): StallWatchdog {
  // [0] last heartbeat (ms since the epoch), [1] stalled flag, [2] stop flag.
  const shared = new SharedArrayBuffer(24);
  const beat = new BigInt64Array(shared);
  const tick = (): void => void Atomics.store(beat, 0, BigInt(Date.now()));
  tick();
  const timer = setInterval(tick, 250);
  timer.unref();
  const worker = new Worker(kWorker, {
    eval: true,
    workerData: { shared, label: o.label, stallMs: o.stallMs, killMs: o.killMs, killChildren: o.killChildren ?? [] },
  });
  worker.unref();
  return {
    stalled: () => Atomics.load(beat, 1) === 1n,
    async stop() {
      clearInterval(timer);
      Atomics.store(beat, 2, 1n);
      await worker.terminate();
    },
  };
}
