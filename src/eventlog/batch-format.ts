/**
 * The bytes of a stored batch and the digest its epoch signs, in both formats:
 *
 *   format 1  NDJSON of events (`{"batch","seq",…}` per line); digest = SHA-256 of the bytes.
 *   format 2  a header line `{"version":2,…,"coverage":{…}}`, then the events; digest = the RFC 9162
 *             Merkle root over the lines (each without its `\n`), header = leaf 0, event seq s = leaf s+1.
 *
 * Format 2 makes each event (and the header with its coverage counts) provable on its own. A batch is
 * format 2 exactly when its bytes start with `{"version":` and a number ≥ 2; format 1 lines start with
 * `{"batch":`, so old batches keep their digest and keep verifying.
 */
import { createHash } from 'node:crypto';
import { treeDigest } from '../proofs/index.js';
import type { LogEvent, PendingEvent } from './events.js';

export const kBatchFormat = 2;

/** Why a response of the zone was not scanned (each counted once, when it is known). */
export interface SkipCounts {
  /** The backlog's byte budget was spent while its body was captured. */
  overBudget: number;
  /** A binary Content-Type, or the scanner found the body binary. */
  binary: number;
  /** The zone's rules (expression, skip rules, overrides) left nothing to run on it. */
  filtered: number;
  /** No body: HEAD, 1xx, 204, 304, or zero bytes. */
  noBody: number;
  /** 1,024 bodies were already waiting for the scanner. */
  queueFull: number;
  /** The scan failed (e.g. the pool's task timeout). */
  failed: number;
}

/** What happened to a zone's responses in one batch's interval. `seen` = `scanned` + every skip. */
export interface Coverage {
  seen: number;
  scanned: number;
  skipped: SkipCounts;
  /** Of `scanned`: bodies longer than the scan cap (the first 1 MB was scanned) or with more findings than kept. */
  truncated: number;
  /** Events found but not stored, because 100,000 events were already waiting to be written. */
  eventsDropped: number;
}

export type CoverageOutcome = 'scanned' | keyof SkipCounts;

/** Leaf 0 of a format 2 batch. */
export interface BatchHeader {
  version: typeof kBatchFormat;
  zone: string;
  batch: number;
  /** The interval the coverage counts: after the previous batch's `to` (or the first count since start), up to `to`. ISO 8601. */
  from: string;
  to: string;
  /** Events in the batch (lines after this one). */
  events: number;
  coverage: Coverage;
}

export const kSkipReasons = ['overBudget', 'binary', 'filtered', 'noBody', 'queueFull', 'failed'] as const satisfies readonly (keyof SkipCounts)[];

export function emptyCoverage(): Coverage {
  return { seen: 0, scanned: 0, skipped: { overBudget: 0, binary: 0, filtered: 0, noBody: 0, queueFull: 0, failed: 0 }, truncated: 0, eventsDropped: 0 };
}

/** Adds `b` into `a` (or takes it away with `sign` -1). */
export function addCoverage(a: Coverage, b: Coverage, sign: 1 | -1 = 1): void {
  a.seen += sign * b.seen;
  a.scanned += sign * b.scanned;
  for (const k of kSkipReasons) a.skipped[k] += sign * b.skipped[k];
  a.truncated += sign * b.truncated;
  a.eventsDropped += sign * b.eventsDropped;
}

export function isCoverageEmpty(c: Coverage): boolean {
  return c.seen === 0 && c.eventsDropped === 0;
}

/** A header's coverage when every count is a non-negative integer and `seen` adds up, else null. */
export function parseCoverage(value: unknown): Coverage | null {
  const nat = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  const s = c.skipped as Record<string, unknown> | null | undefined;
  if (!nat(c.seen) || !nat(c.scanned) || !nat(c.truncated) || !nat(c.eventsDropped) || typeof s !== 'object' || s === null) return null;
  if (!kSkipReasons.every((k) => nat(s[k]))) return null;
  const out = emptyCoverage();
  out.seen = c.seen;
  out.scanned = c.scanned;
  out.truncated = c.truncated;
  out.eventsDropped = c.eventsDropped;
  for (const k of kSkipReasons) out.skipped[k] = s[k] as number;
  const skipped = kSkipReasons.reduce((n, k) => n + out.skipped[k], 0);
  return out.seen === out.scanned + skipped && out.truncated <= out.scanned ? out : null;
}

/** The bytes of format 2 batch `header.batch`: the header line, then one line per event, each ending in `\n`. */
export function treeBatchBytes(header: BatchHeader, events: readonly PendingEvent[]): Buffer {
  let text = `${JSON.stringify(header)}\n`;
  events.forEach((e, seq) => {
    const line: LogEvent = { batch: header.batch, seq, ...e };
    text += `${JSON.stringify(line)}\n`;
  });
  return Buffer.from(text, 'utf8');
}

/** The batch's format: 2 and up when it starts with `{"version":N,`, else 1. */
export function batchFormatOf(bytes: Uint8Array): number {
  const head = Buffer.from(bytes.subarray(0, 24)).toString('latin1');
  const m = /^\{"version":([0-9]{1,6}),/.exec(head);
  return m ? Number(m[1]) : 1;
}

/** The lines of a batch's bytes, each without its `\n` (the last need not end in one). */
export function batchLeaves(bytes: Uint8Array): Buffer[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Buffer[] = [];
  let from = 0;
  while (from < buf.length) {
    const nl = buf.indexOf(0x0a, from);
    const to = nl < 0 ? buf.length : nl;
    out.push(buf.subarray(from, to));
    from = to + 1;
  }
  return out;
}

/** The digest epoch n signs for batch n's bytes: SHA-256 of the bytes (format 1) or the lines' Merkle root. */
export function batchDigest(bytes: Uint8Array): string {
  if (batchFormatOf(bytes) >= 2) return treeDigest(batchLeaves(bytes));
  return createHash('sha256').update(bytes).digest('hex');
}

/** Why a format 2 header line is not this batch's, or null. */
function headerProblem(line: string, zone: string, n: number, events: number): { header: BatchHeader | null; problem: string | null } {
  let h: Record<string, unknown>;
  try {
    h = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { header: null, problem: 'line 1 (the header) is not JSON' };
  }
  if (typeof h !== 'object' || h === null || h.version !== kBatchFormat) return { header: null, problem: `line 1 says format ${JSON.stringify(h?.version)}, not ${kBatchFormat}` };
  if (h.zone !== zone) return { header: null, problem: `the header belongs to zone ${JSON.stringify(h.zone)}` };
  if (h.batch !== n) return { header: null, problem: `the header says batch ${JSON.stringify(h.batch)}` };
  if (h.events !== events) return { header: null, problem: `the header says ${JSON.stringify(h.events)} events, the batch holds ${events}` };
  const coverage = parseCoverage(h.coverage);
  if (coverage === null) return { header: null, problem: 'the header\'s coverage counts are missing or do not add up' };
  if (typeof h.from !== 'string' || typeof h.to !== 'string' || !(Date.parse(h.from) <= Date.parse(h.to))) return { header: null, problem: 'the header\'s interval is not from ≤ to' };
  return { header: { version: kBatchFormat, zone, batch: n, from: h.from, to: h.to, events, coverage }, problem: null };
}

/**
 * A batch's lines: the first thing wrong with them (null: nothing), how many events it holds, every
 * event line that parses as a JSON object (what the dashboard shows, a bad batch included), and the
 * header of a format 2 batch (its coverage counts).
 */
export function readBatchLines(bytes: Uint8Array, zone: string, n: number): { events: number; objects: Record<string, unknown>[]; problem: string | null; header: BatchHeader | null } {
  const text = Buffer.from(bytes).toString('utf8');
  const complete = text.endsWith('\n');
  const all = complete ? text.slice(0, -1).split('\n') : text.split('\n');
  // Format 2: line 1 is the header, and event seq s is on line s + 2.
  const tree = batchFormatOf(bytes) >= 2;
  const lines = tree ? all.slice(1) : all;
  const first = tree ? 1 : 0;
  const objects: Record<string, unknown>[] = [];
  let problem: string | null = null;
  let header: BatchHeader | null = null;
  if (tree) ({ header, problem } = headerProblem(all[0]!, zone, n, text.length === 0 ? 0 : lines.length));
  for (let i = 0; i < lines.length; i++) {
    let e: unknown;
    const at = i + first + 1;
    try {
      e = JSON.parse(lines[i]!);
    } catch {
      problem ??= `line ${at} is not JSON`;
      continue;
    }
    const o = e as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      problem ??= `line ${at} is not a JSON object`;
      continue;
    }
    objects.push(o);
    if (o.zone !== zone) problem ??= `line ${at} belongs to zone ${JSON.stringify(o.zone)}`;
    else if (o.batch !== n) problem ??= `line ${at} says batch ${JSON.stringify(o.batch)}`;
    else if (o.seq !== i) problem ??= `line ${at} has seq ${JSON.stringify(o.seq)}, not ${i}`;
  }
  if (text.length === 0) return { events: 0, objects, problem: 'the batch is empty', header: null };
  if (!complete) return { events: 0, objects, problem: 'the last line does not end with a newline', header: null };
  return { events: lines.length, objects, problem, header: problem === null ? header : null };
}
