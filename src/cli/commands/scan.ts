import { closeSync, constants, createWriteStream, fstatSync, openSync, readSync, type WriteStream } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Confidence, ScanMeta, ScanReport, Scanner, ScannerOptions } from '../../types.js';
import { kConfidenceLevels, selectRules, ruleTags, UnknownRuleSelectorError, type RuleDef } from '../../rules/index.js';
import { classifyContentType, contentTypeForPath, parseContentEncoding } from '../../content/index.js';
import { createReporter, kReportFormats, showsPositions, type DecodedBody, type InputError, type ReportFormat, type ScanResult, type TextPosition } from '../../report/index.js';
import { peekStream, startsWithGzip } from '../inputs/magic.js';
import { type ArchiveBody, ArchiveFormatError, kInputFormatErrorCode, kMaxArchiveBytes } from '../inputs/archive.js';
import { harBodies, isHarPath, looksLikeHar } from '../inputs/har.js';
import { isWarcPath, warcBodies } from '../inputs/warc.js';
import { decodeForPositions, findingPositions } from '../inputs/positions.js';
import { keptBytes } from '../../pool/protocol.js';
import { collectInputs, describeFsError, fileIdentity, type Input } from '../walk.js';
import { Progress } from '../progress.js';
import { type CliIO, UsageError, kExitClean, kExitFindings, kExitUsage } from '../io.js';

export interface ScanCommandOptions {
  format: ReportFormat;
  output?: string;
  allRules?: boolean;
  enable: string[];
  disable: string[];
  minConfidence?: string;
  contentType?: string;
  contentEncoding?: string;
  workers?: number;
  progress: boolean;
}

/** The values of `--min-confidence`, most precise first. */
/**
 * `--min-confidence` as given: one of `kConfidenceLevels`, else a usage error that names the
 * library's code for a bad option (`SDD_ERR_INVALID_OPTION`), so scripts can tell it from other usage errors.
 */
export function checkMinConfidence(value: string | undefined): Confidence | undefined {
  if (value === undefined) return undefined;
  if ((kConfidenceLevels as readonly string[]).includes(value)) return value as Confidence;
  throw new UsageError(`SDD_ERR_INVALID_OPTION: invalid --min-confidence ${JSON.stringify(value)} (expected ${kConfidenceLevels.join(', ')})`);
}

/** Code of an input that could not be read (not an engine notice: the engine never saw it). */
export const kInputErrorCode = 'SDD_ERR_INPUT';

/**
 * Regular files up to this size are read in one go and scanned as one body; larger ones (and
 * compressed ones, FIFOs, standard input) are streamed, and the engine counts what lies past its 1 MB cap.
 */
export const kOneReadBytes = 1_048_576;

/** What `readSmallFile` read: the bytes, and the error that cut the read short (if one did). */
export interface WholeFile {
  bytes: Uint8Array;
  readError?: unknown;
}

/**
 * The whole of a small regular file, read synchronously; null when it is not a regular file or is
 * bigger than `limit` now (it may have grown since the walk): the caller streams it instead. Throws
 * when the file cannot be opened; a read that fails returns the bytes read before it with the error.
 *
 * Synchronous on purpose: the calling thread has nothing else to do meanwhile (the workers scan what
 * is queued), and each asynchronous file operation is a round trip to libuv's thread pool, whose
 * threads compete with the workers for the cores. Streaming each file (open, 64 KiB reads, the read
 * that finds the end, close) is four or more round trips a file; see docs/cli.md, "Speed".
 */
export function readSmallFile(abs: string, limit: number): WholeFile | null {
  // Non-blocking: had the walk's regular file been replaced by a FIFO since, a plain open would wait
  // for a writer in the calling thread; this one returns, and fstat sends the FIFO to the stream path.
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  let buf: Buffer | undefined;
  let n = 0;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > limit) return null;
    // One byte more than the size, to see a file that grew since fstat; then up to `limit` + 1.
    buf = Buffer.allocUnsafeSlow(st.size + 1);
    for (;;) {
      if (n === buf.length) {
        if (n > limit) return null;
        const bigger = Buffer.allocUnsafeSlow(limit + 1);
        buf.copy(bigger);
        buf = bigger;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) return { bytes: buf.subarray(0, n) };
      n += got;
    }
  } catch (readError) {
    if (buf === undefined) throw readError; // fstat failed: nothing read
    return { bytes: buf.subarray(0, n), readError };
  } finally {
    closeSync(fd);
  }
}

/**
 * Bytes to scan below which the command scans in its own thread unless `--workers` says otherwise.
 * Each worker pays a fixed cost before it scans at full speed (starting, compiling the rules, and
 * above all V8 optimizing the engine's code once per thread: about 0.25 s of CPU each), so on this
 * 2-core machine two workers only caught up with one thread at ~95 MB of the bench's batch corpus
 * (6-48 MB: one thread 10-45% faster; 189 MB: two workers 1.17× faster). See docs/cli.md, "Speed".
 */
export const kPoolMinBytes = 64 * 1024 * 1024;

/** `--workers` when not given: a pool sized to the cores for large inputs, else the calling thread. */
export function defaultWorkers(bytesToScan: number, cores: number): number {
  return cores >= 2 && bytesToScan >= kPoolMinBytes ? cores : 0;
}

function commaList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter((s) => s !== '')];
}

function workerCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number (0 = scan in-process)');
  return Number(value);
}

/** Registers `leakscan scan`; the action stores its exit code through `setExit`. */
export function registerScan(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('scan')
    .description('scan files, folders (recursively) or standard input for sensitive data')
    .argument('[paths...]', 'files or folders to scan; "-" (or nothing) reads standard input')
    .addOption(new Option('-f, --format <format>', 'output format').choices(kReportFormats).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of standard output')
    .option('--all-rules', 'turn on every managed rule, default-off ones included')
    .option('--enable <ids>', 'turn on rules by id or tag (comma list, repeatable)', commaList, [])
    .option('--disable <ids>', 'turn off rules by id or tag (comma list, repeatable; wins over --enable)', commaList, [])
    .option('--min-confidence <level>', 'lowest confidence reported: high (default: format, checksum and context), medium (adds checksum-valid values without their context word), low (adds bare shapes)')
    .option('--content-type <type>', 'Content-Type of standard input; with paths, forces it for every file')
    .option('--content-encoding <coding>', 'Content-Encoding (gzip, deflate, br) of standard input; with paths, forces it for every file')
    .option('--workers <n>', 'scan worker threads (0 = in-process; default: one per core when there are 64 MiB or more to scan, else 0)', workerCount)
    .option('--no-progress', 'never draw the progress bar')
    .action(async (paths: string[], opts: ScanCommandOptions) => {
      setExit(await scanCommand(paths, opts, io));
    });
}

interface Outcome {
  report?: ScanReport;
  /** Set when the body was decoded before it was scanned. */
  decoded?: DecodedBody | undefined;
  /** Line and column of each finding, when the body could be looked at again. */
  positions?: TextPosition[] | undefined;
  /** An archive's responses (HAR entries), each reported on its own under the archive's path. */
  entries?: ScanResult[];
  error?: InputError;
}

/**
 * Line and column of a report's findings, from the bytes the engine was given (`raw`, still in its
 * Content-Encoding): decoded again here only when there are findings, so clean bodies cost nothing.
 */
function positionsOf(report: ScanReport, raw: Uint8Array, meta: ScanMeta): TextPosition[] | undefined {
  if (report.findings.length === 0) return undefined;
  const body = meta.contentEncoding === undefined ? raw : decodeForPositions(raw, meta.contentEncoding);
  return body === undefined ? undefined : findingPositions(report.findings, body, meta.contentType);
}

/** Response bodies of an archive scanned at once (the pool spreads them over its workers). */
const kEntriesInFlight = 16;

/** What `header` (a Content-Encoding) says was decoded, or undefined when it undoes nothing (`identity`). */
function decodedBy(header: string | undefined, detectedBy: DecodedBody['detectedBy']): DecodedBody | undefined {
  if (header === undefined || parseContentEncoding(header).codings.length === 0) return undefined;
  return { contentEncoding: header, detectedBy };
}

/** Gzip found by its signature: the body is decoded, bounded like any Content-Encoding (the engine's cap). */
const kGzipByMagic: DecodedBody = { contentEncoding: 'gzip', detectedBy: 'magic' };

/** An unreadable input, described as `<reason> (<errno code>)`. */
function inputError(path: string, err: { code: string; message: string }): InputError {
  return { path, code: kInputErrorCode, message: `${err.message} (${err.code})` };
}

/** Checks the options; returns the rules they select (for the report's rule list). */
function checkOptions(opts: ScanCommandOptions): RuleDef[] {
  let selected: RuleDef[];
  try {
    selected = selectRules({ allRules: opts.allRules, enable: opts.enable, disable: opts.disable });
  } catch (err) {
    if (err instanceof UnknownRuleSelectorError) throw new UsageError(err.message);
    throw err;
  }
  checkMinConfidence(opts.minConfidence);
  if (opts.contentType !== undefined && classifyContentType(opts.contentType).mediaType === '') {
    throw new UsageError(`invalid --content-type ${JSON.stringify(opts.contentType)} (expected type/subtype, e.g. application/json)`);
  }
  if (opts.contentEncoding !== undefined) {
    const enc = parseContentEncoding(opts.contentEncoding);
    if (enc.error !== undefined) throw new UsageError(`invalid --content-encoding: ${enc.error}`);
  }
  return selected;
}

/** An `--output` report being written: to a temporary file beside the target, renamed when complete. */
interface Output {
  stream: WriteStream;
  /** Identities of the temporary file and of an existing target: neither is scanned. */
  ids: string[];
  temp: string;
  target: string;
}

async function openOutput(file: string, cwd: string): Promise<Output> {
  const target = resolve(cwd, file);
  const temp = `${target}.leakscan-${process.pid}.tmp`;
  const stream = createWriteStream(temp);
  try {
    await new Promise<void>((ok, fail) => {
      stream.once('open', () => ok());
      stream.once('error', fail);
    });
    const ids = [fileIdentity(await stat(temp))];
    const existing = await stat(target).catch(() => undefined);
    if (existing !== undefined) ids.push(fileIdentity(existing));
    return { stream, ids, temp, target };
  } catch (err) {
    stream.destroy();
    await rm(temp, { force: true });
    throw new UsageError(`cannot write --output ${JSON.stringify(file)}: ${describeFsError(err).message}`);
  }
}

function closeOutput(stream: WriteStream): Promise<void> {
  return new Promise<void>((ok, fail) => {
    stream.once('error', fail);
    stream.end(() => ok());
  });
}

/** The report is complete: it replaces the target in one rename. */
async function commitOutput(o: Output): Promise<void> {
  await closeOutput(o.stream);
  await rename(o.temp, o.target);
}

/** A usage error or a failure before the report was complete: the target is left as it was. */
async function discardOutput(o: Output): Promise<void> {
  await closeOutput(o.stream).catch(() => undefined);
  await rm(o.temp, { force: true }).catch(() => undefined);
}

/**
 * Runs in stable order while keeping up to `concurrency` scans in flight: outcomes are emitted in
 * input order (so output does not depend on timing), and no runner gets more than `window` items
 * ahead of the emitter, which bounds the finished reports held in memory.
 */
async function forEachOrdered<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>, emit: (r: R, item: T) => Promise<void>): Promise<void> {
  const window = concurrency * 4;
  const slots = items.map(() => {
    let settle!: (r: R) => void;
    let fail!: (err: unknown) => void;
    const promise = new Promise<R>((ok, ko) => {
      settle = ok;
      fail = ko;
    });
    // Awaited in order below; this only keeps a failure the emitter has not reached yet from
    // being reported as an unhandled rejection.
    promise.catch(() => undefined);
    return { promise, settle, fail };
  });
  let next = 0;
  let emitted = 0;
  let waiting: Array<() => void> = [];
  const runner = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      while (i >= emitted + window) await new Promise<void>((ok) => waiting.push(ok));
      try {
        slots[i]!.settle(await fn(items[i]!));
      } catch (err) {
        slots[i]!.fail(err);
      }
    }
  };
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, runner);
  for (let i = 0; i < items.length; i++) {
    await emit(await slots[i]!.promise, items[i]!);
    emitted++;
    const wake = waiting;
    waiting = [];
    for (const w of wake) w();
  }
  await Promise.all(runners);
}

async function defaultCreateScanner(options: ScannerOptions): Promise<Scanner> {
  // Loaded on demand: `leakscan rules` and usage errors should not pay for compiling the engine.
  const lib = await import('../../index.js');
  return lib.createScanner(options);
}

/** `leakscan scan`: returns the exit code (0 clean, 1 findings, 2 usage or input error). */
export async function scanCommand(paths: readonly string[], opts: ScanCommandOptions, io: CliIO): Promise<number> {
  const started = Date.now();
  const selected = checkOptions(opts);
  const args = paths.length === 0 ? ['-'] : paths;

  const minConfidence = checkMinConfidence(opts.minConfidence);
  let output: Output | undefined;
  if (opts.output !== undefined) output = await openOutput(opts.output, io.cwd);
  const out: Writable = output?.stream ?? io.stdout;

  const scannerOptions: ScannerOptions = {
    allRules: opts.allRules === true,
    enable: opts.enable,
    disable: opts.disable,
  };
  // Only when given, so that the default stays the library's (and a scanner factory sees what was asked).
  if (minConfidence !== undefined) scannerOptions.minConfidence = minConfidence;
  // The scanner starts (its workers compile the rules) while the folders are walked: at once with
  // --workers, else as soon as the walk has found enough to scan to be worth a pool (see
  // defaultWorkers). Settled into a value so that a failure waits for the walk unreported.
  let scannerReady: Promise<{ ok: Scanner } | { err: unknown }> | undefined;
  const startScanner = (workers: number): void => {
    scannerOptions.workers = workers;
    scannerReady = (io.createScanner ?? defaultCreateScanner)(scannerOptions).then(
      (ok) => ({ ok }),
      (err: unknown) => ({ err }),
    );
  };
  if (opts.workers !== undefined) startScanner(opts.workers);
  const cores = io.cores ?? availableParallelism();
  let toScan = 0;
  const onInput = (input: Input): void => {
    if (scannerReady !== undefined) return;
    toScan += input.kind === 'file' && input.regular ? Math.min(input.size, kOneReadBytes) : kOneReadBytes;
    if (toScan >= kPoolMinBytes) startScanner(defaultWorkers(toScan, cores));
  };

  let inputErrors = 0;
  const pendingErrors: InputError[] = [];
  let inputs: Input[];
  try {
    inputs = await collectInputs(args, {
      cwd: io.cwd,
      exclude: output ? output.ids : [],
      onError: (e) => pendingErrors.push(inputError(e.path, e)),
      onInput,
    });
  } catch (err) {
    const made = await scannerReady;
    if (made !== undefined && 'ok' in made) await made.ok.close();
    if (output) await discardOutput(output);
    throw err;
  }
  if (scannerReady === undefined) startScanner(defaultWorkers(toScan, cores));
  if (inputs.some((i) => i.kind === 'stdin') && io.stdinIsTTY) {
    io.stderr.write('leakscan: reading standard input (end with Ctrl-D); give paths to scan files\n');
  }

  let scanner: Scanner;
  try {
    const made = (await scannerReady)!;
    if (!('ok' in made)) throw made.err;
    scanner = made.ok;
  } catch (err) {
    if (output) await discardOutput(output);
    const code = (err as { code?: unknown })?.code;
    if (err instanceof UnknownRuleSelectorError || code === 'SDD_ERR_UNKNOWN_RULE' || code === 'SDD_ERR_INVALID_OPTION') {
      throw new UsageError((err as Error).message);
    }
    throw err;
  }

  // Lines and columns cost a second decode of every body with findings: only for the formats that show them.
  const withPositions = showsPositions(opts.format);
  const reporter = createReporter(opts.format, out, {
    rules: selected.map((r) => ({ id: r.id, description: r.description, tags: ruleTags(r), confidence: r.confidence ?? 'high' })),
    baseDir: io.cwd,
  });
  const progress = new Progress(io.stderr, {
    enabled: opts.progress && io.stderrIsTTY,
    columns: io.columns,
    totalFiles: inputs.length,
    totalBytes: inputs.reduce((n, i) => n + (i.kind === 'file' ? i.size : 0), 0),
  });
  // Report lines and the bar share the terminal only when stdout is one too.
  const sharesTerminal = output === undefined && io.stdoutIsTTY;

  const reportError = async (e: InputError): Promise<void> => {
    inputErrors++;
    progress.clear();
    const what = e.path === '-' ? 'standard input' : JSON.stringify(e.path);
    io.stderr.write(e.code === kInputErrorCode ? `leakscan: cannot read ${what}: ${e.message}\n` : `leakscan: ${what}: ${e.message}\n`);
    await reporter.error(e);
  };

  // Never rejects: a scan that fails (a crashed worker, say) is that input's error, and the others go on.
  const scanOne = async (input: Input): Promise<Outcome> => {
    try {
      return await scanInput(input);
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      return { error: { path: input.path, code: typeof code === 'string' ? code : 'SDD_ERR_SCAN_FAILED', message: `scan failed: ${(err as Error)?.message ?? String(err)}` } };
    }
  };

  /** Each response of an archive with its own type and (by magic) coding; offsets inside that body. */
  const scanArchive = async (path: string, bodies: readonly ArchiveBody[]): Promise<Outcome> => {
    if (bodies.length === 0) {
      // Listed like any other file, with nothing scanned: an archive of requests without bodies.
      return { report: await scanner.analyze(new Uint8Array(0), { contentType: 'application/json' }) };
    }
    const entries = new Array<ScanResult>(bodies.length);
    for (let at = 0; at < bodies.length; at += kEntriesInFlight) {
      await Promise.all(bodies.slice(at, at + kEntriesInFlight).map(async (b, i) => {
        const meta: ScanMeta = {};
        if (b.contentType !== undefined) meta.contentType = b.contentType;
        let decoded: DecodedBody | undefined;
        // A crawler that stored the body decoded but kept `Content-Encoding: gzip`: scanned as stored.
        const gzipped = startsWithGzip(b.body);
        const storedDecoded = b.contentEncoding !== undefined && !gzipped && parseContentEncoding(b.contentEncoding).codings.join() === 'gzip';
        if (b.contentEncoding !== undefined && !storedDecoded) {
          meta.contentEncoding = b.contentEncoding;
          decoded = decodedBy(b.contentEncoding, 'header');
        } else if (gzipped) {
          meta.contentEncoding = 'gzip';
          decoded = kGzipByMagic;
        }
        const report = await scanner.analyze(b.body, meta);
        const result: ScanResult = { path, report, entry: b.entry };
        if (decoded !== undefined) result.decoded = decoded;
        const positions = withPositions ? positionsOf(report, b.body, meta) : undefined;
        if (positions !== undefined) result.positions = positions;
        entries[at + i] = result;
      }));
    }
    return { entries };
  };

  /** An archive (HAR, WARC) read whole (bounded), gunzipped when it is compressed, and its responses scanned. */
  const scanArchiveFile = async (input: Extract<Input, { kind: 'file' }>, format: 'HAR' | 'WARC', known?: Uint8Array): Promise<Outcome> => {
    let bytes: Uint8Array;
    if (known !== undefined) {
      bytes = known;
    } else {
      if (input.regular && input.size > kMaxArchiveBytes) {
        return { error: { path: input.path, code: kInputFormatErrorCode, message: `${format} file larger than ${kMaxArchiveBytes / 1048576} MiB; not scanned` } };
      }
      try {
        bytes = await readFile(input.abs);
      } catch (err) {
        return { error: inputError(input.path, describeFsError(err)) };
      }
      progress.addBytes(bytes.length);
    }
    try {
      if (startsWithGzip(bytes)) bytes = gunzipSync(bytes, { maxOutputLength: kMaxArchiveBytes });
    } catch (err) {
      return { error: { path: input.path, code: kInputFormatErrorCode, message: `not a ${format} file: gzip does not decode (${(err as Error).message})` } };
    }
    let bodies: ArchiveBody[];
    let late: ArchiveFormatError | undefined;
    try {
      if (format === 'HAR') {
        bodies = harBodies(bytes);
      } else {
        const read = warcBodies(bytes);
        bodies = read.bodies;
        late = read.error;
      }
    } catch (err) {
      if (err instanceof ArchiveFormatError) return { error: { path: input.path, code: err.code, message: err.message } };
      throw err;
    }
    const outcome = await scanArchive(input.path, bodies);
    // A WARC cut short: the records before the break are reported, and the break is an input error.
    if (late !== undefined) outcome.error = { path: input.path, code: late.code, message: late.message };
    return outcome;
  };

  const scanInput = async (input: Input): Promise<Outcome> => {
    const meta: ScanMeta = {};
    let decoded: DecodedBody | undefined;
    let body: AsyncIterable<Uint8Array>;
    let readError: unknown;
    let close = (): void => undefined;
    if (input.kind === 'stdin') {
      if (opts.contentType !== undefined) meta.contentType = opts.contentType;
      if (opts.contentEncoding !== undefined) meta.contentEncoding = opts.contentEncoding;
      decoded = decodedBy(opts.contentEncoding, 'option');
      body = io.stdin;
    } else {
      // A HAR by its name (`export.har`, `.har.gz`), unless --content-type forces another reading.
      if (opts.contentType === undefined && isHarPath(input.path)) return scanArchiveFile(input, 'HAR');
      if (opts.contentType === undefined && isWarcPath(input.path)) return scanArchiveFile(input, 'WARC');
      const byName = contentTypeForPath(input.path);
      const contentType = opts.contentType ?? byName.contentType;
      // A forced type does not cancel a `.gz` suffix: the bytes on disk are still compressed.
      const contentEncoding = opts.contentEncoding ?? byName.contentEncoding;
      if (contentType !== undefined) meta.contentType = contentType;
      if (contentEncoding !== undefined) meta.contentEncoding = contentEncoding;
      decoded = decodedBy(contentEncoding, opts.contentEncoding !== undefined ? 'option' : 'name');
      if (contentType !== undefined && contentEncoding === undefined && classifyContentType(contentType).kind === 'binary') {
        // Known binary by its name: the engine's skip notice without reading a possibly huge file.
        return { report: await scanner.analyze(new Uint8Array(0), meta) };
      }
      if (input.regular && contentEncoding === undefined && input.size <= kOneReadBytes) {
        let whole: WholeFile | null;
        try {
          whole = readSmallFile(input.abs, kOneReadBytes);
        } catch (err) {
          return { error: inputError(input.path, describeFsError(err)) };
        }
        if (whole !== null) {
          progress.addBytes(whole.bytes.length);
          // A HAR saved under another name (`export.json`): read as one when it parses as one.
          if (opts.contentType === undefined && whole.readError === undefined && looksLikeHar(whole.bytes)) {
            const har = await scanArchiveFile(input, 'HAR', whole.bytes);
            if (har.error === undefined) return har;
          }
          // Gzip under a name that does not say so (`body.json`, `dump`): decoded, not skipped as binary.
          if (startsWithGzip(whole.bytes)) {
            meta.contentEncoding = 'gzip';
            decoded = kGzipByMagic;
          }
          const report = await scanner.analyze(whole.bytes, meta);
          const positions = withPositions ? positionsOf(report, whole.bytes, meta) : undefined;
          // As for a stream below: what was read before the failure is scanned and reported.
          if (whole.readError !== undefined) return { report, decoded, positions, error: inputError(input.path, describeFsError(whole.readError)) };
          return { report, decoded, positions };
        }
        // Grown past the limit since the walk: streamed below.
      }
      let fh;
      try {
        fh = await open(input.abs, 'r');
      } catch (err) {
        return { error: inputError(input.path, describeFsError(err)) };
      }
      const stream = fh.createReadStream({ highWaterMark: 64 * 1024 });
      close = () => stream.destroy();
      body = stream;
    }
    if (meta.contentEncoding === undefined) {
      // No coding given or named: look at the first two bytes for gzip's signature (`cat x.gz | leakscan scan -`).
      const peeked = await peekStream(body, 2);
      body = peeked.body;
      if (startsWithGzip(peeked.head)) {
        meta.contentEncoding = 'gzip';
        decoded = kGzipByMagic;
      }
    }
    // Read errors are caught here rather than left to the engine, which turns them into a notice
    // and carries on: for the command line an unreadable input is an input error (exit code 2).
    // What the engine can use of the body (its scan cap, or the compressed bytes that decode to it),
    // kept to find the findings' lines and columns afterwards.
    const captureCap = withPositions ? keptBytes(meta.contentEncoding !== undefined, kOneReadBytes) : 0;
    const captured: Uint8Array[] = [];
    let capturedBytes = 0;
    const counted = (async function* (): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of body) {
          progress.addBytes((chunk as Uint8Array).length);
          if (capturedBytes < captureCap) {
            const part = (chunk as Uint8Array).subarray(0, captureCap - capturedBytes);
            captured.push(part);
            capturedBytes += part.length;
          }
          yield chunk as Uint8Array;
        }
      } catch (err) {
        readError = err;
        throw err;
      } finally {
        close();
      }
    })();
    let report: ScanReport;
    try {
      report = await scanner.analyzeStream(counted, meta);
    } finally {
      close(); // also when the scanner gave up before iterating: never leak the file descriptor
    }
    const positions = report.findings.length === 0 || !withPositions ? undefined : positionsOf(report, Buffer.concat(captured), meta);
    if (readError !== undefined) {
      // Findings made before the failure are still reported: hiding them would be worse.
      return { report, decoded, positions, error: inputError(input.path, describeFsError(readError)) };
    }
    return { report, decoded, positions };
  };

  let findings = 0;
  let complete = false;
  // Inputs that produced a report: when none did (every named input unreadable or malformed), --output
  // is left as it was, since a report of nothing scanned would read as a clean result.
  let reported = 0;
  try {
    for (const e of pendingErrors) await reportError(e);
    // Eight files in flight per worker (at most 64): while the workers scan, the next files are read
    // and queued, and the pool hands queued small files to a worker several at a time. With one file
    // per worker the workers waited on each file's read and round trip: the corpus/ folder (2,728
    // files, 85 MB) took 5.7-7.5 s on 2 workers, 3.9-4.8 s with eight per worker. Memory stays bounded:
    // the pool keeps at most the scan cap of each body, and `forEachOrdered` at most 4 × this many reports.
    const workers = scannerOptions.workers ?? cores;
    const concurrency = workers === 0 ? 2 : Math.max(2, Math.min(64, 8 * workers));
    await forEachOrdered(inputs, concurrency, scanOne, async (outcome, input) => {
      progress.fileDone(input.kind === 'file' ? input.size : 0);
      if (outcome.report !== undefined || (outcome.entries?.length ?? 0) > 0) reported++;
      for (const entry of outcome.entries ?? []) {
        findings += entry.report.findings.length;
        if (sharesTerminal) progress.clear();
        await reporter.add(entry);
      }
      if (outcome.report !== undefined) {
        findings += outcome.report.findings.length;
        if (sharesTerminal) progress.clear();
        const result: ScanResult = { path: input.path, report: outcome.report };
        if (outcome.decoded !== undefined) result.decoded = outcome.decoded;
        if (outcome.positions !== undefined) result.positions = outcome.positions;
        await reporter.add(result);
      }
      if (outcome.error !== undefined) await reportError(outcome.error);
    });
    progress.stop();
    await reporter.end({ durationMs: Date.now() - started });
    complete = inputErrors === 0 || reported > 0;
  } finally {
    progress.stop();
    await scanner.close();
    if (output) await (complete ? commitOutput(output) : discardOutput(output));
  }
  if (inputErrors > 0) return kExitUsage;
  return findings > 0 ? kExitFindings : kExitClean;
}
