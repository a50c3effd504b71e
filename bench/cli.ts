/**
 * The command-line phase of `npm run bench`: `leakscan scan DIR` as a user runs it (the built
 * `dist/bin/main.js`, one child process per run, NDJSON to /dev/null) over the pool phase's batch
 * corpus written to files, with `--workers 0`, `1`, `2` and the default, runs alternated in rounds.
 *
 * Two corpora: 800 files (~48 MB, below the 64 MiB from which the command starts a pool by default) and
 * 3,200 files (~190 MB, above it). Every copy of the corpus is a file of its own (the command scans a
 * hard-linked file once). A whole process is timed, start-up, folder walk, worker start and V8 warm-up
 * included: what a user waits for, and why the default uses no pool on small inputs (docs/cli.md,
 * "Speed"). Informational: the issue sets no goal for the command line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultWorkers, kPoolMinBytes } from '../src/cli/commands/scan.js';
import { median } from './measure.js';
import { fileExtension } from './bodies.js';
import { batchCorpus } from './pool.js';

const kRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kMain = join(kRoot, 'dist', 'bin', 'main.js');
/** Files per copy of the batch corpus, and copies in the small and the large corpus. */
const kPerCopy = 200;
const kSmallCopies = 4;
const kLargeCopies = 16;
/** A run that takes longer than this is killed and the phase reports an error. */
const kRunTimeoutMs = 120_000;

export type CliWorkers = '0' | '1' | '2' | 'default';
/** Each run's `--workers`, in the order of a round (rotated by one each round) and of the table. */
const kConfigs: readonly CliWorkers[] = ['0', '1', '2', 'default'];

export interface CliRun {
  corpus: 'small' | 'large';
  workers: CliWorkers;
  /** Wall milliseconds of each run (one per round). */
  ms: number[];
  medianMs: number;
  /** 10^6 bytes of the corpus per second at the median. */
  mbps: number;
}

export type CliPhaseResult =
  | {
      status: 'ok';
      corpora: Array<{ name: 'small' | 'large'; files: number; bytes: number }>;
      rounds: number;
      runs: CliRun[];
    }
  | { status: 'skipped' | 'error'; message: string };

/** Newest modification time (ms) of a `.ts` file under `dir`. */
function newestTs(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestTs(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Writes `copies` copies of the batch corpus under `dir/<copy>/`; returns files and bytes. */
function writeCorpus(dir: string, firstCopy: number, copies: number): { files: number; bytes: number } {
  const bodies = batchCorpus(kPerCopy);
  let files = 0;
  let bytes = 0;
  for (let c = firstCopy; c < firstCopy + copies; c++) {
    const sub = join(dir, String(c));
    mkdirSync(sub, { recursive: true });
    for (const [i, b] of bodies.entries()) {
      writeFileSync(join(sub, `${i}.${fileExtension(b.contentType)}`), b.bytes);
      files++;
      bytes += b.bytes.length;
    }
  }
  return { files, bytes };
}

/** One `leakscan scan` run; resolves with its wall milliseconds. Exit code 1 (findings) is expected. */
function runOnce(dir: string, workers: CliWorkers): Promise<number> {
  const argv = [kMain, 'scan', dir, '--format', 'ndjson', '--no-progress', ...(workers === 'default' ? [] : ['--workers', workers])];
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), kRunTimeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (code === 1 && stderr === '') return ok(ms);
      fail(new Error(`leakscan scan --workers ${workers} ended with ${signal ?? `exit code ${code}`}${stderr === '' ? '' : `: ${stderr.trim().slice(0, 500)}`}`));
    });
  });
}

/** Why the built command cannot be measured as the sources stand (missing or older than src/), or null. */
export function builtCliProblem(): string | null {
  if (!existsSync(kMain)) return `${kMain} not found: run npm run build (npm ci does)`;
  if (statSync(kMain).mtimeMs < newestTs(join(kRoot, 'src'))) return 'dist/ is older than src/: run npm run build to measure the command as the sources stand';
  return null;
}

/** The built command, `dist/bin/main.js`. */
export const kCliMain: string = kMain;

/**
 * Runs the phase. A round after the first starts only while `timeLeft()` says so. Each round runs every
 * configuration on each corpus once, in an order rotated by the round.
 */
export async function runCliPhase(o: { quick: boolean; timeLeft: () => boolean; log: (msg: string) => void }): Promise<CliPhaseResult> {
  const problem = builtCliProblem();
  if (problem !== null) return { status: 'skipped', message: problem };
  const root = mkdtempSync(join(tmpdir(), 'leakscan-bench-cli-'));
  try {
    // The small corpus is a folder of the large one.
    const smallDir = join(root, 'small');
    const small = writeCorpus(smallDir, 0, kSmallCopies);
    const rest = writeCorpus(join(root, 'more'), kSmallCopies, kLargeCopies - kSmallCopies);
    const corpora = [
      { name: 'small' as const, dir: smallDir, files: small.files, bytes: small.bytes },
      { name: 'large' as const, dir: root, files: small.files + rest.files, bytes: small.bytes + rest.bytes },
    ];
    o.log(`cli      corpora written: ${corpora.map((c) => `${c.name} ${c.files} files ${(c.bytes / 1e6).toFixed(1)} MB`).join(', ')}`);
    const times = new Map<string, number[]>();
    const maxRounds = o.quick ? 1 : 2;
    let rounds = 0;
    for (let r = 0; r < maxRounds && (r === 0 || o.timeLeft()); r++) {
      for (const c of corpora) {
        for (let k = 0; k < kConfigs.length; k++) {
          const w = kConfigs[(k + r) % kConfigs.length]!;
          const ms = await runOnce(c.dir, w);
          const key = `${c.name}/${w}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
          o.log(`cli      ${`${c.name} --workers ${w}`.padEnd(24)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${(c.bytes / 1e3 / ms).toFixed(1).padStart(6)} MB/s`);
        }
      }
      rounds++;
    }
    const runs: CliRun[] = corpora.flatMap((c) =>
      kConfigs.map((w) => {
        const ms = times.get(`${c.name}/${w}`)!;
        const medianMs = median(ms);
        return { corpus: c.name, workers: w, ms, medianMs, mbps: c.bytes / 1e3 / medianMs };
      }),
    );
    return { status: 'ok', corpora: corpora.map(({ name, files, bytes }) => ({ name, files, bytes })), rounds, runs };
  } catch (err) {
    return { status: 'error', message: (err as Error)?.message ?? String(err) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The phase's table: each corpus with each `--workers`, and the ratios a user would ask for. */
export function formatCli(p: CliPhaseResult, cores: number): string {
  if (p.status !== 'ok') return `leakscan scan (command line): ${p.status}: ${p.message}`;
  const lines = [
    `leakscan scan DIR --format ndjson (dist/bin/main.js, a process per run, the batch corpus as files; median of ${p.rounds} round${p.rounds === 1 ? '' : 's'}, runs alternated):`,
    `${'corpus'.padEnd(31)}${'--workers'.padEnd(13)}${'s'.padStart(6)}${'MB/s'.padStart(8)}  ×(--workers 0)`,
  ];
  for (const c of p.corpora) {
    const run = (w: CliWorkers) => p.runs.find((r) => r.corpus === c.name && r.workers === w)!;
    const zero = run('0');
    for (const w of kConfigs) {
      const r = run(w);
      // Batch files are below the 1 MiB a file the command counts, so the bytes are the bytes to scan.
      const label = w === 'default' ? `default (${defaultWorkers(c.bytes, cores)})` : w;
      lines.push(
        `${`${c.name}, ${c.files.toLocaleString('en-US')} files, ${(c.bytes / 1e6).toFixed(1)} MB`.padEnd(31)}${label.padEnd(13)}${(r.medianMs / 1000).toFixed(2).padStart(6)}${r.mbps.toFixed(1).padStart(8)}${(zero.medianMs / r.medianMs).toFixed(2).padStart(15)}×`,
      );
    }
    lines.push(`${''.padEnd(31)}2 workers / 1 worker: ${(run('1').medianMs / run('2').medianMs).toFixed(2)}×`);
  }
  lines.push(`Whole processes: start-up, folder walk, worker start and each worker's V8 warm-up included (docs/cli.md, "Speed"). The default scans in the command's own thread below ${kPoolMinBytes / 2 ** 20} MiB to scan, with one worker per core from there.`);
  return lines.join('\n');
}
