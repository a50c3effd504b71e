/**
 * secretlint as an anchor of `npm run bench` (bench/anchors.ts): `secretlint` with its recommended
 * preset and `leakscan scan` (the built `dist/bin/main.js`) as whole processes, each on the same files:
 * the engine cases' four 1 MiB bodies of one density written to a folder (sparse, dense), plus one
 * tiny file (what starting each tool costs). Runs alternate tool by tool, in an order rotated each
 * round; each run's CPU time (user + system) comes from the child's rusage through GNU time
 * (`/usr/bin/time -f`), its wall time from this process. Where GNU time is missing the CPU cells stay
 * empty and the reason is printed.
 *
 * secretlint is not one of leakscan's dependencies (every install would fetch it for a bench row):
 * the first run installs the pinned versions into `bench/.cache/secretlint/` (git-ignored) with npm,
 * says so, and later runs reuse them; when npm cannot, the rows are skipped with the reason. secretlint
 * resolves its inputs against its working folder, so the files are written under that folder and
 * both tools run from it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { kFileExtensions, type Body } from './bodies.js';
import { median } from './measure.js';

const kTime = '/usr/bin/time';
const kRunTimeoutMs = 180_000;
/** The secretlint release measured and its preset, pinned: the figures in results/anchors.md are for it. */
const kSecretlintVersion = '11.7.1';
const kSecretlintPackages = { secretlint: kSecretlintVersion, '@secretlint/secretlint-rule-preset-recommend': kSecretlintVersion };
/** The recommended preset, as `--secretlintrcJSON` (no rc file in the repository). */
const kSecretlintConfig = JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] });

export type ToolName = 'leakscan' | 'secretlint';
export const kTools: readonly ToolName[] = ['leakscan', 'secretlint'];

export interface ProcessRun {
  wallMs: number;
  /** User + system CPU of the child, from its rusage; null without GNU time. */
  cpuMs: number | null;
  maxRssMB: number | null;
}

export interface ToolRuns {
  tool: ToolName;
  corpus: string;
  runs: ProcessRun[];
  /** Findings of the last run (leakscan: NDJSON records; secretlint: messages). */
  findings: number;
  medianWallMs: number;
  medianCpuMs: number | null;
}

export type ProcessPhaseResult =
  | {
      status: 'ok';
      corpora: Array<{ name: string; files: number; bytes: number }>;
      rounds: number;
      /** Why CPU time is missing, when it is. */
      cpuNote?: string;
      secretlint: string;
      tools: ToolRuns[];
    }
  | { status: 'skipped' | 'error'; message: string };

/**
 * GNU time's output for `-f '%e %U %S %M'`: its last line (a line "Command exited with non-zero status
 * N" may come first). CPU = user + system, in milliseconds; max RSS in MB.
 */
export function parseGnuTime(text: string): { cpuMs: number; maxRssMB: number } {
  const last = text.trim().split('\n').pop() ?? '';
  const [e, u, s, m] = last.trim().split(/\s+/).map(Number);
  if (![e, u, s, m].every((x) => x !== undefined && Number.isFinite(x))) throw new Error(`unexpected GNU time output ${JSON.stringify(text)}`);
  return { cpuMs: (u! + s!) * 1000, maxRssMB: m! / 1024 };
}

/** A tool's run median per corpus. */
function summarize(tool: ToolName, corpus: string, runs: ProcessRun[], findings: number): ToolRuns {
  const cpus = runs.map((r) => r.cpuMs);
  return {
    tool,
    corpus,
    runs,
    findings,
    medianWallMs: median(runs.map((r) => r.wallMs)),
    medianCpuMs: cpus.every((c): c is number => c !== null) ? median(cpus) : null,
  };
}

interface Corpus {
  name: string;
  dir: string;
  files: string[];
  bytes: number;
}

function writeCorpus(root: string, name: string, bodies: readonly Body[]): Corpus {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = bodies.map((b) => {
    const kind = b.name.split('/')[0] as keyof typeof kFileExtensions;
    const file = join(dir, `${b.name.replaceAll('/', '-')}.${kFileExtensions[kind] ?? 'txt'}`);
    writeFileSync(file, b.bytes);
    return file;
  });
  return { name, dir, files, bytes: bodies.reduce((a, b) => a + b.bytes.length, 0) };
}

/** One whole-process run under GNU time (when present); resolves with its times and its stdout. */
function runTimed(argv: readonly string[], cwd: string, timeFile: string | null): Promise<{ run: ProcessRun; stdout: string; code: number | null }> {
  const [cmd, args] = timeFile === null ? [argv[0]!, argv.slice(1)] : [kTime, ['-f', '%e %U %S %M', '-o', timeFile, ...argv]];
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), kRunTimeoutMs);
    child.on('error', (err) => (clearTimeout(timer), fail(err)));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      if (signal !== null || (code !== 0 && code !== 1)) {
        fail(new Error(`${argv.slice(0, 3).join(' ')} … ended with ${signal ?? `exit code ${code}`}: ${stderr.trim().slice(0, 400)}`));
        return;
      }
      const t = timeFile === null ? null : parseGnuTime(readFileSync(timeFile, 'utf8'));
      ok({ run: { wallMs, cpuMs: t?.cpuMs ?? null, maxRssMB: t?.maxRssMB ?? null }, stdout, code });
    });
  });
}

/**
 * secretlint and its preset at the pinned version in `cache` (installed there by npm the first time):
 * its command and version, or why it cannot be had.
 */
async function ensureSecretlint(cache: string, log: (msg: string) => void): Promise<{ bin: string; version: string } | string> {
  const pkgPath = join(cache, 'node_modules', 'secretlint', 'package.json');
  const current = (): boolean => existsSync(pkgPath) && (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string }).version === kSecretlintVersion;
  if (!current()) {
    log(`anchors  installing secretlint ${kSecretlintVersion} and its recommended preset into ${cache} (once; npm install)`);
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'leakscan-bench-secretlint', private: true, dependencies: kSecretlintPackages }, null, 2));
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const code = await new Promise<number | string>((done) => {
      const child = spawn(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: cache, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', (e) => done(e.message));
      child.on('close', (c) => done(c === 0 ? 0 : `npm install exited with ${c}: ${err.trim().split('\n').slice(-1)[0] ?? ''}`));
    });
    if (code !== 0 || !current()) return `secretlint ${kSecretlintVersion} could not be installed into ${cache} (${code === 0 ? 'not found after npm install' : code})`;
  }
  const require = createRequire(join(cache, 'package.json'));
  try {
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string; bin: string | Record<string, string> };
    require.resolve('@secretlint/secretlint-rule-preset-recommend');
    return { bin: join(pkgPath, '..', typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin.secretlint ?? 'bin/secretlint.js')), version: `secretlint ${pkg.version}, @secretlint/secretlint-rule-preset-recommend` };
  } catch (err) {
    return `secretlint's recommended preset not found in ${cache}: ${(err as Error).message.split('\n')[0]}`;
  }
}

/**
 * Runs the phase on `corpora` (name → bodies) plus a one-line file, `rounds` rounds. `root` is the
 * repository (secretlint's working folder), `cliMain` the built command.
 */
export async function runProcessPhase(o: {
  root: string;
  cliMain: string;
  /** Why the built command cannot be measured (bench/cli.ts, `builtCliProblem`), or null. */
  cliProblem: string | null;
  corpora: ReadonlyArray<{ name: string; bodies: readonly Body[] }>;
  rounds: number;
  log: (msg: string) => void;
}): Promise<ProcessPhaseResult> {
  const cache = join(o.root, 'bench', '.cache', 'secretlint');
  const installed = await ensureSecretlint(cache, o.log);
  if (typeof installed === 'string') return { status: 'skipped', message: installed };
  const { bin: secretlintBin, version: secretlintVersion } = installed;
  if (o.cliProblem !== null) return { status: 'skipped', message: o.cliProblem };
  const base = join(cache, 'corpus');
  const timeFile = existsSync(kTime) ? join(base, 'time.txt') : null;
  try {
    const tiny: Body = { name: 'text/tiny', contentType: 'text/plain; charset=utf-8', bytes: Buffer.from('GET /healthz 200 1ms\n'), planted: 0 };
    const corpora = [...o.corpora.map((c) => writeCorpus(base, c.name, c.bodies)), writeCorpus(base, 'start-up', [tiny])];
    const outFile = join(base, 'secretlint-out.json');
    const argv = (tool: ToolName, c: Corpus): string[] =>
      tool === 'leakscan'
        ? [process.execPath, o.cliMain, 'scan', c.dir, '--format', 'ndjson', '--no-progress']
        : [process.execPath, secretlintBin, '--no-glob', '--no-color', '--format', 'json', '--output', outFile, '--secretlintrcJSON', kSecretlintConfig, ...c.files.map((f) => relative(cache, f))];
    const runs = new Map<string, ProcessRun[]>();
    const findings = new Map<string, number>();
    for (let r = 0; r < o.rounds; r++) {
      for (const c of corpora) {
        for (let k = 0; k < kTools.length; k++) {
          const tool = kTools[(k + r + corpora.indexOf(c)) % kTools.length]!;
          const out = await runTimed(argv(tool, c), cache, timeFile);
          const key = `${tool}\0${c.name}`;
          runs.set(key, [...(runs.get(key) ?? []), out.run]);
          findings.set(
            key,
            tool === 'leakscan'
              ? out.stdout.split('\n').filter((l) => l.startsWith('{')).length
              : (JSON.parse(readFileSync(outFile, 'utf8')) as Array<{ messages: unknown[] }>).reduce((a, f) => a + f.messages.length, 0),
          );
          const cpu = out.run.cpuMs === null ? '' : `, CPU ${(out.run.cpuMs / 1000).toFixed(2)} s`;
          o.log(`anchors  ${`${tool} ${c.name}`.padEnd(26)} wall ${(out.run.wallMs / 1000).toFixed(2)} s${cpu}  (round ${r + 1})`);
        }
      }
    }
    const tools = corpora.flatMap((c) => kTools.map((t) => summarize(t, c.name, runs.get(`${t}\0${c.name}`)!, findings.get(`${t}\0${c.name}`) ?? 0)));
    return {
      status: 'ok',
      corpora: corpora.map((c) => ({ name: c.name, files: c.files.length, bytes: c.bytes })),
      rounds: o.rounds,
      ...(timeFile === null && { cpuNote: `${kTime} (GNU time) not found: wall time only` }),
      secretlint: secretlintVersion,
      tools,
    };
  } catch (err) {
    return { status: 'error', message: (err as Error)?.message ?? String(err) };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
