/**
 * What the main thread and a scan worker exchange. A scan task carries one or more bodies (queued small
 * bodies travel together, see docs/pool.md): per body, the bytes the engine needs (the scan cap for
 * plain bodies, a bounded compressed prefix for encoded ones) in memory shared with the worker, plus
 * what was only counted, so the worker's report equals the in-thread one.
 */
import type { ScanMeta, ScanReport, ScannerOptions } from '../types.js';
import { parseContentEncoding } from '../content/index.js';

/** The options that decide which program a worker compiles (one compile per worker per distinct set). */
export interface RuleOptions {
  allRules?: boolean;
  enable?: readonly string[];
  disable?: readonly string[];
  minConfidence?: NonNullable<ScannerOptions['minConfidence']>;
  backend?: NonNullable<ScannerOptions['backend']>;
}

/** Hidden fault injection for the pool's own tests; the worker ignores it unless LEAKSCAN_TEST_HOOKS=1. */
export type TestHook = 'exit' | 'uncaught' | 'hang';

/**
 * How bytes that were received but not moved to the worker reach the report:
 * - `push`: the engine is fed that many (zero) bytes past the scan cap, where it only counts them, so
 *   bytesSeen, the truncation notice and bytesReceived come out of the engine itself;
 * - `received`: a Content-Encoding is decoded; the engine never decompresses past the cap, so the
 *   skipped compressed bytes only add to bytesReceived.
 */
export type TailMode = 'push' | 'received';

/** One body of a scan task. */
export interface ScanItem {
  /** This body's slot on the start board. */
  slot: number;
  meta: ScanMeta;
  /** The kept bytes: a view over shared memory, or over an ArrayBuffer in the transfer list. */
  bytes: Uint8Array;
  /** Lengths of the chunks the kept bytes arrived in (null: one chunk), so the engine sees the same cuts. */
  cuts: Uint32Array | null;
  /** Bytes received after the kept ones. */
  tail: number;
  tailMode: TailMode;
  /** Message of the error that ended the source stream, raised again after the kept bytes. */
  error: string | null;
  __test?: TestHook;
}

/** Bodies scanned one after the other by one worker, each marked on the start board as it starts and ends. */
export interface ScanTask {
  kind: 'scan';
  rules: RuleOptions;
  limits: { maxBytes: number; maxFindings: number };
  items: ScanItem[];
}

/** Compiles the program ahead of the first body (and checks the worker starts at all). */
export interface WarmTask {
  kind: 'warm';
  slot: number;
  rules: RuleOptions;
  __test?: TestHook;
}

export type PoolTask = ScanTask | WarmTask;

/**
 * A report's findings as they cross to the calling thread: the rule ids once, and per finding its rule's
 * index in `ids`, start and end in one array (one buffer to clone and collect, not three), then its
 * redacted value. Structured-cloning one object per finding (its rule's description and tags repeated)
 * was most of the calling thread's work per body.
 */
export interface PackedFindings {
  ids: string[];
  /** (rule index, start, end, confidence rank) per finding. */
  spans: Float64Array;
  redacted: string[];
}

/** What became of one body of a task: its report (findings packed), or the message of what the scan threw. */
export type ItemResult = { report: ScanReport; packed: PackedFindings } | { error: string };

export interface PoolResult {
  /** One per item of a scan task, in order (none for a warm-up). */
  items: ItemResult[];
  threadId: number;
  /** Programs this worker has compiled since it started (tests check it stays at one per option set). */
  compiles: number;
}

/**
 * The start board, shared by the main thread and every worker (Piscina `workerData`): one slot per body
 * in flight. As a body starts, its worker writes the time into `startedAt[slot]`, then its threadId into
 * `threads[slot]` (an Atomics store, so the time is visible once the id is); when its scan has ended,
 * minus its threadId. So 0 = not started, > 0 = being scanned, < 0 = scanned. The main thread's watchdog
 * reads it to time bodies from their start and to find the thread to terminate, and a failed task's
 * bodies are sorted by it, without a message per body.
 */
export interface StartBoard {
  threads: SharedArrayBuffer;
  startedAt: SharedArrayBuffer;
}

export function isStartBoard(v: unknown): v is StartBoard {
  return typeof v === 'object' && v !== null && (v as StartBoard).threads instanceof SharedArrayBuffer && (v as StartBoard).startedAt instanceof SharedArrayBuffer;
}

/**
 * Extra compressed bytes kept beyond twice the decoded cap. Real encoders stay under ~1.001× on
 * incompressible data (deflate stored blocks cost 5 bytes per 64 KiB, brotli less), so 2× the cap plus
 * this margin always holds the input that decodes to the cap; only a deliberately padded stream needs
 * more (docs/pool.md).
 */
export const kEncodedSlackBytes = 64 * 1024;

/**
 * Bytes of a body worth holding for a scan capped at `maxBytes` decoded bytes: the cap itself, or,
 * for a Content-Encoded body, enough compressed bytes to decode up to it. Shared by the pool and by
 * the proxy's capture, so both hold the same amount.
 */
export function keptBytes(encoded: boolean, maxBytes: number): number {
  return encoded ? 2 * maxBytes + kEncodedSlackBytes : maxBytes;
}

/**
 * How many bytes of a body the main thread keeps and moves to a worker, and what happens to the rest.
 * Mirrors the engine: a plain body is scanned up to `maxBytes` and counted past it; an encoded one is
 * decompressed until the decoded cap; an unsupported coding is only counted.
 */
export function bodyPlan(meta: ScanMeta | undefined, maxBytes: number): { keep: number; tailMode: TailMode } {
  const enc = parseContentEncoding(meta?.contentEncoding);
  if (enc.error !== undefined) return { keep: 0, tailMode: 'push' };
  if (enc.codings.length === 0) return { keep: keptBytes(false, maxBytes), tailMode: 'push' };
  return { keep: keptBytes(true, maxBytes), tailMode: 'received' };
}
