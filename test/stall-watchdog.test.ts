/** The watchdog that turns a blocked event loop into an error or a failed file instead of a hung run. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStallWatchdog } from './stall-watchdog.js';

describe('stall watchdog', () => {
  it('kills the named child a synchronous call waits on, so the call returns and the stall is known', async () => {
    const w = startStallWatchdog({ label: 'test', stallMs: 1000, killMs: 60_000, killChildren: ['sleep'] });
    try {
      const t0 = Date.now();
      const r = spawnSync('sleep', ['20']);
      expect(r.signal).toBe('SIGKILL');
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(w.stalled()).toBe(true);
    } finally {
      await w.stop();
    }
  });

  it('leaves a loop that keeps turning alone', async () => {
    const w = startStallWatchdog({ label: 'test', stallMs: 1000, killMs: 1000, killChildren: ['sleep'] });
    try {
      await new Promise((r) => setTimeout(r, 2500));
      expect(w.stalled()).toBe(false);
    } finally {
      await w.stop();
    }
  });

  it('ends a process whose main thread stays blocked, saying why on stderr', async () => {
    const code = `
      import { startStallWatchdog } from ${JSON.stringify(new URL('./stall-watchdog.ts', import.meta.url).pathname)};
      startStallWatchdog({ label: 'blocked child', stallMs: 500, killMs: 500 });
      // Blocks after a turn of the loop: the watchdog's thread starts during that turn.
      setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 100);`;
    const dir = mkdtempSync(join(tmpdir(), 'leakscan-stall-'));
    const script = join(dir, 'blocked.mjs');
    writeFileSync(script, code);
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [, signal] = (await new Promise((r) => child.once('exit', (...a) => r(a)))) as [number | null, string | null];
    clearTimeout(kill);
    rmSync(dir, { recursive: true, force: true });
    expect(signal).toBe('SIGKILL');
    expect(stderr).toContain('[stall-watchdog] blocked child: the main thread has been blocked');
    expect(stderr).toContain('ending this test process');
  });
});
