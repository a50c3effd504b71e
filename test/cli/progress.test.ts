import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatEta, kEtaAfterMs, Progress } from '../../src/cli/progress.js';
import { fakeFactory, runCli, tempDir } from './helpers.js';

const kMiB = 1024 * 1024;
const t0 = 1_000_000;

function bar(totalBytes: number, totalFiles = 10): { p: Progress; written: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  // Disabled: no timer; line() is what a terminal would be shown.
  const p = new Progress(out, { enabled: false, columns: 120, totalFiles, totalBytes, started: t0 });
  return { p, written: () => text };
}

describe('progress bar ETA', () => {
  it('shows the time left at the rate so far, only after a few seconds', () => {
    const { p } = bar(100 * kMiB);
    p.addBytes(10 * kMiB);
    expect(p.line(t0 + 1000)).not.toContain('ETA');
    expect(p.line(t0 + kEtaAfterMs - 1)).not.toContain('ETA');
    // 10 MiB in 5 s: 2 MiB/s, 90 MiB left.
    expect(p.line(t0 + 5000)).toMatch(/10\.0 MiB\/100\.0 MiB {2}2\.0 MiB\/s {2}ETA 45s$/);
    p.addBytes(20 * kMiB);
    // 30 MiB in 10 s: 70 MiB left at 3 MiB/s.
    expect(p.line(t0 + 10_000)).toContain('ETA 23s');
  });

  it('has no ETA when the total is unknown (standard input), before any byte, or once everything is read', () => {
    const stdin = bar(0, 1);
    stdin.p.addBytes(5 * kMiB);
    expect(stdin.p.line(t0 + 10_000)).not.toContain('ETA');
    const idle = bar(100 * kMiB);
    expect(idle.p.line(t0 + 10_000)).not.toContain('ETA');
    const read = bar(10 * kMiB);
    read.p.addBytes(10 * kMiB);
    expect(read.p.line(t0 + 10_000)).not.toContain('ETA');
  });

  it('counts files done by their size, so files skipped unread (binary by name) move it', () => {
    const { p } = bar(100 * kMiB);
    p.fileDone(50 * kMiB); // never read
    expect(p.line(t0 + 5000)).toContain('ETA 5s');
  });

  it('writes nothing when disabled (standard error not a terminal)', () => {
    const { p, written } = bar(100 * kMiB);
    p.addBytes(kMiB);
    p.fileDone(kMiB);
    p.clear();
    p.stop();
    expect(written()).toBe('');
  });

  it.each([
    [0.2, '1s'],
    [42, '42s'],
    [185, '3m05s'],
    [3720, '1h02m'],
  ])('formatEta(%d) is %s', (s, text) => {
    expect(formatEta(s)).toBe(text);
  });
});

describe('leakscan scan on a terminal', () => {
  it('draws the ETA once a few seconds have passed, on standard error only', async () => {
    const root = tempDir();
    for (let i = 0; i < 10; i++) writeFileSync(join(root, `f${i}.txt`), 'x'.repeat(100_000));
    // Two files in flight, 0.8 s each: about 4 s in all, files still unread after 3 s.
    const r = await runCli(['scan', '--workers', '0', root], { stderrIsTTY: true, createScanner: fakeFactory(800).create });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\d+\/10 files {2}[0-9.]+ KiB\/976\.6 KiB {2}[0-9.]+ MiB\/s {2}ETA \d+s/);
    expect(r.stdout).not.toContain('ETA');
  }, 20_000);
});
