/**
 * Hyperscan as an anchor of `npm run bench` (bench/anchors.ts): bench/hyperscan/hs-bench.c, built at
 * bench time with the system's C compiler against Debian's `libhyperscan-dev` (skipped, with the reason,
 * where it is not installed or the build fails), run as one long-lived child process that compiles its
 * pattern files once and then scans bodies on command, so its scans take turns with the engine's in
 * the same rounds. It times its own scan loops in CPU time (CLOCK_PROCESS_CPUTIME_ID): compiling,
 * start-up and the pipe are outside the figures.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const kSource = join(dirname(fileURLToPath(import.meta.url)), 'hyperscan', 'hs-bench.c');
/** Compiling every pattern alone twice, then the databases: seconds for leakscan's rules. */
const kStartTimeoutMs = 180_000;
const kScanTimeoutMs = 60_000;

export type HsBuild = { status: 'ok'; binary: string; dir: string; library: string } | { status: 'skipped'; reason: string };

/** One line the harness prints (see hs-bench.c). */
export type HsLine =
  | { kind: 'db'; db: number; patterns: number; accepted: number; som: number; compileMs: number }
  | { kind: 'reject' | 'nosom'; db: number; index: number; message: string }
  | { kind: 'body'; body: number; bytes: number }
  | { kind: 'ready' }
  | { kind: 'scan'; db: number; body: number; passes: number; bytes: number; matches: number; cpuNs: number; wallNs: number };

/** Parses one line of the harness's output; throws on anything else. */
export function parseHsLine(line: string): HsLine {
  const w = line.trim().split(' ');
  const n = (i: number): number => {
    const x = Number(w[i]);
    if (w[i] === undefined || w[i] === '' || !Number.isFinite(x)) throw new Error(`hs-bench: unexpected line ${JSON.stringify(line)}`);
    return x;
  };
  switch (w[0]) {
    case 'ready':
      return { kind: 'ready' };
    case 'db':
      return { kind: 'db', db: n(1), patterns: n(2), accepted: n(3), som: n(4), compileMs: n(5) };
    case 'reject':
    case 'nosom':
      return { kind: w[0], db: n(1), index: n(2), message: w.slice(3).join(' ') };
    case 'body':
      return { kind: 'body', body: n(1), bytes: n(2) };
    case 'scan':
      return { kind: 'scan', db: n(1), body: n(2), passes: n(3), bytes: n(4), matches: n(5), cpuNs: n(6), wallNs: n(7) };
    default:
      throw new Error(`hs-bench: unexpected line ${JSON.stringify(line)}`);
  }
}

function firstLines(text: string, n: number): string {
  return text.trim().split('\n').slice(0, n).join(' | ');
}

/** Compiler and linker flags for libhs: pkg-config's, else Debian's paths; null when the header is absent. */
function hsFlags(): { cflags: string[]; libs: string[] } | null {
  try {
    const cflags = execFileSync('pkg-config', ['--cflags', 'libhs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const libs = execFileSync('pkg-config', ['--libs', 'libhs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { cflags: cflags.split(/\s+/).filter(Boolean), libs: libs.split(/\s+/).filter(Boolean) };
  } catch {
    return existsSync('/usr/include/hs/hs.h') ? { cflags: ['-I/usr/include/hs'], libs: ['-lhs'] } : null;
  }
}

/** Builds the harness into a fresh temporary folder (the caller removes `dir`), or says why not. */
export function buildHarness(): HsBuild {
  const flags = hsFlags();
  if (flags === null) return { status: 'skipped', reason: 'Hyperscan not installed (no libhs in pkg-config, no /usr/include/hs/hs.h): apt-get install libhyperscan-dev' };
  const cc = process.env.CC ?? 'cc';
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-bench-hs-'));
  const binary = join(dir, 'hs-bench');
  try {
    execFileSync(cc, ['-O2', '-std=c11', ...flags.cflags, '-o', binary, kSource, ...flags.libs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as { stderr?: string; message?: string };
    return { status: 'skipped', reason: `building bench/hyperscan/hs-bench.c with ${cc} failed: ${firstLines(e.stderr || e.message || String(err), 3)}` };
  }
  let library = 'libhs';
  try {
    library = `libhs ${execFileSync('pkg-config', ['--modversion', 'libhs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`;
  } catch {
    // pkg-config absent: the version is unknown, the build still stands.
  }
  return { status: 'ok', binary, dir, library };
}

/** One scan command's answer, in milliseconds. */
export interface HsScan {
  passes: number;
  bytes: number;
  matches: number;
  cpuMs: number;
  wallMs: number;
}

/** What the harness said about one pattern file at start-up. */
export interface HsDatabase {
  patterns: number;
  accepted: number;
  /** Accepted with start of match (HS_FLAG_SOM_LEFTMOST). */
  som: number;
  compileMs: number;
  /** Refused by Hyperscan: pattern index in its file and Hyperscan's message. */
  rejected: Array<{ index: number; message: string }>;
  /** Accepted only without start of match. */
  noSom: Array<{ index: number; message: string }>;
}

/** The running harness: `scan` one body with one database, one command at a time. */
export class HsHarness {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: Interface;
  readonly #waiting: Array<{ ok: (line: string) => void; fail: (err: Error) => void }> = [];
  readonly #buffered: string[] = [];
  #stderr = '';
  #ended: Error | null = null;

  private constructor(binary: string, args: readonly string[]) {
    this.#child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.setEncoding('utf8').on('data', (s: string) => (this.#stderr += s));
    this.#lines = createInterface({ input: this.#child.stdout });
    this.#lines.on('line', (line) => {
      const w = this.#waiting.shift();
      if (w === undefined) this.#buffered.push(line);
      else w.ok(line);
    });
    const end = (why: string) => {
      this.#ended ??= new Error(`hs-bench ${why}${this.#stderr === '' ? '' : `: ${firstLines(this.#stderr, 3)}`}`);
      for (const w of this.#waiting.splice(0)) w.fail(this.#ended);
    };
    this.#child.on('error', (err) => end(`could not run: ${err.message}`));
    this.#child.on('close', (code, signal) => end(`ended with ${signal ?? `exit code ${code}`}`));
  }

  #next(timeoutMs: number): Promise<string> {
    const line = this.#buffered.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.#ended !== null) return Promise.reject(this.#ended);
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => {
        this.#child.kill('SIGKILL');
        fail(new Error(`hs-bench: no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.#waiting.push({
        ok: (l) => (clearTimeout(timer), ok(l)),
        fail: (e) => (clearTimeout(timer), fail(e)),
      });
    });
  }

  /**
   * Starts the harness on pattern files (one database each, in this order) and body files, and waits
   * until it has compiled and read them.
   */
  static async start(binary: string, patternFiles: readonly string[], bodyFiles: readonly string[]): Promise<{ harness: HsHarness; databases: HsDatabase[] }> {
    const h = new HsHarness(binary, [...patternFiles, '--', ...bodyFiles]);
    const databases: HsDatabase[] = patternFiles.map(() => ({ patterns: 0, accepted: 0, som: 0, compileMs: 0, rejected: [], noSom: [] }));
    try {
      for (;;) {
        const l = parseHsLine(await h.#next(kStartTimeoutMs));
        if (l.kind === 'ready') break;
        const d = 'db' in l ? databases[l.db] : undefined;
        if (d === undefined) continue;
        if (l.kind === 'db') Object.assign(d, { patterns: l.patterns, accepted: l.accepted, som: l.som, compileMs: l.compileMs });
        else if (l.kind === 'reject') d.rejected.push({ index: l.index, message: l.message });
        else if (l.kind === 'nosom') d.noSom.push({ index: l.index, message: l.message });
      }
    } catch (err) {
      h.close();
      throw err;
    }
    return { harness: h, databases };
  }

  /** Scans body `body` (index in the start's body files) `passes` times with database `db`. */
  async scan(db: number, body: number, passes: number): Promise<HsScan> {
    if (this.#ended !== null) throw this.#ended;
    const answer = this.#next(kScanTimeoutMs);
    this.#child.stdin.write(`scan ${db} ${body} ${passes}\n`);
    const l = parseHsLine(await answer);
    if (l.kind !== 'scan' || l.db !== db || l.body !== body) throw new Error(`hs-bench: answer ${JSON.stringify(l)} to scan ${db} ${body}`);
    return { passes: l.passes, bytes: l.bytes, matches: l.matches, cpuMs: l.cpuNs / 1e6, wallMs: l.wallNs / 1e6 };
  }

  close(): void {
    this.#lines.close();
    this.#child.stdin.end();
    if (this.#child.exitCode === null) this.#child.kill();
  }
}
