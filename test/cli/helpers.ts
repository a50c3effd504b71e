import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Finding, ScanMeta, ScanReport, Scanner, ScannerOptions, BodySource, BodyStream } from '../../src/types.js';
import { classifyContentType, sniffKind } from '../../src/content/index.js';
import { run, type CliIO } from '../../src/cli/run.js';

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString('utf8');
    cb();
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string | Uint8Array;
  cwd?: string;
  stderrIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  createScanner?: (o: ScannerOptions) => Promise<Scanner>;
  /** Cores the default --workers is sized to. */
  cores?: number;
}

/** Runs the CLI in-process with in-memory standard streams. */
export async function runCli(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const stdout = new Collect();
  const stderr = new Collect();
  const input = opts.stdin ?? '';
  const io: CliIO = {
    stdin: Readable.from([typeof input === 'string' ? Buffer.from(input) : Buffer.from(input)]),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: opts.stdoutIsTTY ?? false,
    stderrIsTTY: opts.stderrIsTTY ?? false,
    columns: 100,
    cwd: opts.cwd ?? process.cwd(),
  };
  if (opts.createScanner) io.createScanner = opts.createScanner;
  if (opts.cores !== undefined) io.cores = opts.cores;
  const code = await run(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'leakscan-cli-'));
}

const kAlnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomFrom(alphabet: string, n: number): string {
  return Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
}

/** `sk_live_` + 24 random letters and digits (Stripe's documented key shape), fresh per run. */
export function syntheticStripeKey(): string {
  return `${'sk_'}${'live_'}${randomFrom(kAlnum, 24)}`;
}

/** `AKIA` + 16 characters of [A-Z2-7] (the documented access key id shape), fresh per run. */
export function syntheticAwsKeyId(): string {
  return `${'AK'}${'IA'}${randomFrom('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
}

/** A Luhn-valid 16-digit Visa-range number, random per run. */
export function syntheticCard(): string {
  const digits = [4, ...Array.from(randomBytes(14), (b) => b % 10)];
  let sum = 0;
  // Check digit: double every second digit counting from the right, the check digit being position 1.
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i]!;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

/**
 * A stand-in scanner for CLI mechanics: finds `SECRET-<word>` tokens, redacts them to
 * `SECRET-****`, honours binary content types and sniffing like the engine, and records what it saw.
 */
export class FakeScanner implements Scanner {
  /** Every body scanned: its meta, its length, and whether it came whole (`analyze`) or as a stream. */
  readonly seen: Array<{ meta: ScanMeta | undefined; bytes: number; whole: boolean }> = [];
  closed = false;
  #nextWhole = false;
  constructor(readonly options: ScannerOptions, readonly delayMs: number | ((bytes: Uint8Array) => number) = 0) {}

  async analyzeStream(body: BodyStream, meta?: ScanMeta): Promise<ScanReport> {
    const whole = this.#nextWhole;
    this.#nextWhole = false;
    const chunks: Uint8Array[] = [];
    let received = 0;
    const notices: ScanReport['notices'] = [];
    try {
      for await (const c of body as AsyncIterable<Uint8Array>) {
        chunks.push(c);
        received += c.length;
      }
    } catch (err) {
      notices.push({ code: 'SDD_STREAM_ERROR', message: String(err) });
    }
    const bytes = Buffer.concat(chunks);
    const delay = typeof this.delayMs === 'number' ? this.delayMs : this.delayMs(bytes);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    this.seen.push({ meta, bytes: bytes.length, whole });
    const info = classifyContentType(meta?.contentType);
    const kind = info.kind === 'unknown' ? sniffKind(bytes) : info.kind;
    if (kind === 'binary') {
      notices.push({ code: 'SDD_SKIP_BINARY', message: 'binary content is not scanned' });
      return { findings: [], contentKind: 'binary', bytesScanned: 0, bytesSeen: bytes.length, bytesReceived: received, truncated: false, notices };
    }
    const text = bytes.toString('latin1');
    const findings: Finding[] = [];
    for (const m of text.matchAll(/SECRET-[A-Za-z0-9]+/g)) {
      findings.push({ ruleId: 'fake-secret', description: 'A fake secret', tags: ['secrets'], start: m.index, end: m.index + m[0].length, redacted: 'SECRET-****', confidence: 'high' });
    }
    return { findings, contentKind: kind, bytesScanned: bytes.length, bytesSeen: bytes.length, bytesReceived: received, truncated: false, notices };
  }

  analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    this.#nextWhole = true; // read by analyzeStream before its first await
    return this.analyzeStream((async function* () {
      if (bytes.length > 0) yield bytes;
    })(), meta);
  }

  async scan(body: BodySource, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyze(body, meta)).findings;
  }

  async scanStream(body: BodyStream, meta?: ScanMeta): Promise<Finding[]> {
    return (await this.analyzeStream(body, meta)).findings;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export function fakeFactory(delayMs: number | ((bytes: Uint8Array) => number) = 0): { create: (o: ScannerOptions) => Promise<Scanner>; scanners: FakeScanner[] } {
  const scanners: FakeScanner[] = [];
  return {
    scanners,
    create: async (o) => {
      const s = new FakeScanner(o, delayMs);
      scanners.push(s);
      return s;
    },
  };
}

const kShared = new Map<string, Promise<Scanner>>();

/**
 * The real engine, one scanner per distinct option set for the whole test file, its `close` a
 * no-op for the CLI (call `closeSharedScanners` in afterAll). Compiling every rule per CLI run
 * would make each in-process test pay the compile and hold a compiled program per run.
 */
export function sharedRealScanner(options: ScannerOptions): Promise<Scanner> {
  const key = JSON.stringify(options);
  let s = kShared.get(key);
  if (s === undefined) {
    s = import('../../src/index.js').then((lib) => lib.createScanner(options));
    kShared.set(key, s);
  }
  return s.then((real) => ({
    scan: (b, m) => real.scan(b, m),
    scanStream: (b, m) => real.scanStream(b, m),
    analyze: (b, m) => real.analyze(b, m),
    analyzeStream: (b, m) => real.analyzeStream(b, m),
    close: async () => undefined,
  }));
}

export async function closeSharedScanners(): Promise<void> {
  const all = [...kShared.values()];
  kShared.clear();
  for (const s of all) await (await s).close();
}
