import { describe, expect, it } from 'vitest';
import { formatCli, type CliPhaseResult, type CliRun } from '../../bench/cli.js';

const kMiB = 2 ** 20;

function phase(ms: Record<string, number>): CliPhaseResult {
  const corpora = [
    { name: 'small' as const, files: 800, bytes: 48 * kMiB },
    { name: 'large' as const, files: 3200, bytes: 190 * kMiB },
  ];
  const runs: CliRun[] = corpora.flatMap((c) =>
    (['0', '1', '2', 'default'] as const).map((w) => {
      const medianMs = ms[`${c.name}/${w}`]!;
      return { corpus: c.name, workers: w, ms: [medianMs], medianMs, mbps: c.bytes / 1e3 / medianMs };
    }),
  );
  return { status: 'ok', corpora, rounds: 1, runs };
}

describe('bench command-line table', () => {
  it('gives each run its speed against --workers 0, two workers against one, and what the default chose', () => {
    const text = formatCli(phase({ 'small/0': 1000, 'small/1': 1250, 'small/2': 1600, 'small/default': 1000, 'large/0': 4000, 'large/1': 3900, 'large/2': 3000, 'large/default': 3000 }), 2);
    const row = (corpus: string, workers: string) => text.split('\n').find((l) => l.startsWith(corpus) && l.includes(`  ${workers} `))!;
    expect(row('small', '2')).toMatch(/1\.60\s+31\.5\s+0\.63×$/);
    expect(row('large', '2')).toMatch(/3\.00\s+66\.4\s+1\.33×$/);
    expect(row('small', 'default (0)')).toBeDefined();
    expect(row('large', 'default (2)')).toBeDefined();
    expect(text).toMatch(/800 files.*\n(?:.*\n){3}\s+2 workers \/ 1 worker: 0\.78×/);
    expect(text).toMatch(/3,200 files.*\n(?:.*\n){3}\s+2 workers \/ 1 worker: 1\.30×/);
    // One core: the default never starts a pool.
    expect(formatCli(phase({ 'small/0': 1, 'small/1': 1, 'small/2': 1, 'small/default': 1, 'large/0': 1, 'large/1': 1, 'large/2': 1, 'large/default': 1 }), 1)).not.toContain('default (1)');
  });

  it('says why the phase did not run', () => {
    expect(formatCli({ status: 'skipped', message: 'dist/ is older than src/' }, 2)).toBe('leakscan scan (command line): skipped: dist/ is older than src/');
  });
});
