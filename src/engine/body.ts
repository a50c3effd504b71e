import type { Finding, ScanNotice, ScanReport } from '../types.js';
import { notice } from '../errors.js';
import { classifyContentType, kSniffBytes, normalizeCharset, sniffKind } from '../content/index.js';
import { Matcher } from './matcher.js';
import { encodedSpan } from './decoded.js';
import type { Program } from './program.js';
import { createCharsetDecoder, type CharsetDecoder, type CharsetKind } from './text/charset.js';
import { createEscapeDecoder, type EscapeDecoder, type EscapeSyntax } from './text/escapes.js';

/** The spec's cap: the first 1 MB (1,048,576 bytes) of decoded body is scanned. */
export const kMaxScanBytes = 1_048_576;
/** Bytes gathered before decoding, so tiny chunks do not each pay the per-chunk costs. */
const kCoalesceBytes = 32 * 1024;
/**
 * Large chunks are decoded in slices of this size: the per-character offset arrays, the slice's
 * decoded string and the matcher's buffer then stay small and cache-resident, so a 1 MB body costs 8×
 * a 128 KB one rather than more (measured: the ratio was 9.4–9.8 with whole-megabyte slices). 16 KB
 * rather than 64 KB: the matcher joins each slice's string to the text it keeps, and V8 copies the
 * joined string whole the first time it is read (a flattened cons string); with 64 KB slices that copy
 * cost 3.6 ms per MB of a sparse JSON body (18% of its scan) and 0.7 ms with 16 KB ones, and sparse
 * 1 MB bodies scanned 15–35% faster (bench/README.md, "Slice size").
 */
export const kSliceBytes = 16 * 1024;

export type ContentKind = ScanReport['contentKind'];

const kEscapesFor: Record<Exclude<ContentKind, 'binary'>, EscapeSyntax> = {
  // Plain text is scanned as written but for the `\uXXXX` and `\/` of JSON strings that logs print
  // (a `\n` in a .env file stays two characters; see EscapeSyntax). JavaScript is classified as JSON.
  text: 'text',
  json: 'json',
  html: 'html',
  xml: 'xml',
};

export interface BodyOptions {
  contentType?: string | undefined;
  maxBytes?: number;
  maxFindings?: number;
  /** Bytes gathered before decoding (tests set 1 to exercise every cut). */
  coalesceBytes?: number;
  /**
   * Size of the slices large chunks are decoded in, and the dead text the matcher keeps before it
   * compacts its buffer (default kSliceBytes; bench/slices.ts compares sizes). Findings do not depend
   * on it.
   */
  sliceBytes?: number;
  /** Decode base64 candidates and scan their text (default true; false for that scan itself). */
  decode?: boolean;
}

/**
 * One body, pushed as decoded bytes (after Content-Encoding) in chunks of any size. Decides the
 * content kind (header, else sniffed from the first bytes), decodes the charset and the kind's
 * escapes, feeds the matcher, stops scanning at the cap and keeps counting. Never throws on content.
 */
export class BodyScanner {
  readonly #program: Program;
  readonly #maxBytes: number;
  readonly #maxFindings: number;
  readonly #coalesce: number;
  readonly #slice: number;
  readonly #decode: boolean;
  readonly notices: ScanNotice[] = [];
  #kind: ContentKind | 'unknown';
  #charsetKind: CharsetKind = 'utf-8';
  #charsetLabel = 'utf-8';
  #matcher: Matcher | null = null;
  #charset: CharsetDecoder | null = null;
  #escapes: EscapeDecoder | null = null;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #seen = 0;
  #scanned = 0;
  #cutShort = false;

  constructor(program: Program, opts: BodyOptions = {}) {
    this.#program = program;
    this.#maxBytes = Math.min(opts.maxBytes ?? kMaxScanBytes, kMaxScanBytes);
    this.#maxFindings = opts.maxFindings ?? 10_000;
    this.#coalesce = opts.coalesceBytes ?? kCoalesceBytes;
    this.#slice = Math.max(1, opts.sliceBytes ?? kSliceBytes);
    this.#decode = opts.decode ?? true;
    const info = classifyContentType(opts.contentType);
    this.#kind = info.kind;
    if (info.kind === 'binary') this.notices.push(notice('SDD_SKIP_BINARY', info.skipReason ?? info.mediaType));
    const cs = normalizeCharset(info.charset);
    if (info.charset !== undefined && !cs.supported) this.notices.push(notice('SDD_UNSUPPORTED_CHARSET', info.charset));
    this.#charsetKind = cs.encoding;
    this.#charsetLabel = cs.label;
  }

  /** False once nothing more will be scanned (cap reached, binary, or findings cap): later bytes are only counted. */
  get wantsMore(): boolean {
    return this.#kind !== 'binary' && this.#scanned < this.#maxBytes && !(this.#matcher?.findingsTruncated ?? false);
  }

  /**
   * The producer stopped before the end of the body because of the cap (a Content-Encoding is no
   * longer decompressed past it): the body counts as truncated even if no byte past the cap was seen.
   */
  markCutShort(): void {
    this.#cutShort = true;
  }

  push(chunk: Uint8Array): void {
    const slice = this.#slice;
    if (chunk.length > slice && this.wantsMore) {
      for (let i = 0; i < chunk.length; i += slice) this.push(chunk.subarray(i, Math.min(chunk.length, i + slice)));
      return;
    }
    this.#seen += chunk.length;
    if (!this.wantsMore) return;
    const room = this.#maxBytes - this.#scanned - this.#pendingBytes;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length === 0) return;
    this.#pending.push(part);
    this.#pendingBytes += part.length;
    if (this.#kind === 'unknown' && this.#pendingBytes < kSniffBytes) return;
    if (this.#pendingBytes >= this.#coalesce || this.#scanned + this.#pendingBytes >= this.#maxBytes) this.#drain(false);
  }

  end(): Omit<ScanReport, 'bytesReceived'> {
    this.#drain(true);
    const matcher = this.#matcher;
    if (matcher) {
      matcher.finish();
      if (matcher.findingsTruncated) this.notices.push(notice('SDD_FINDINGS_TRUNCATED', `kept the first ${this.#maxFindings}`));
      if (matcher.windowsCut > 0) this.notices.push(notice('SDD_CONFIRM_BUDGET', `${matcher.windowsCut} window(s)`));
    }
    const over = this.#kind !== 'binary' && (this.#seen > this.#scanned || this.#cutShort);
    if (over) {
      const detail = this.#cutShort
        ? `scanned ${this.#scanned} decoded bytes; the rest was not decompressed`
        : `scanned ${this.#scanned} of ${this.#seen} bytes`;
      this.notices.push(notice('SDD_BODY_TRUNCATED', detail));
    }
    const invalid = this.#charset?.invalidSequences ?? 0;
    if (invalid > 0) this.notices.push(notice('SDD_INVALID_UTF8', `${invalid} sequence(s)`));
    // Nothing reads the scan's scratch arrays from here on.
    matcher?.release();
    this.#charset?.release?.();
    this.#escapes?.release?.();
    const findings = matcher ? [...matcher.findings] : [];
    let truncated = matcher?.findingsTruncated ?? false;
    if (matcher) {
      // One level: the decoded texts are scanned without decoding again (see src/engine/decoded.ts).
      for (const c of matcher.decoded) {
        if (findings.length >= this.#maxFindings) {
          truncated = true;
          break;
        }
        const inner = new BodyScanner(this.#program, { contentType: 'application/json', maxFindings: this.#maxFindings - findings.length, decode: false });
        inner.push(c.bytes);
        const r = inner.end();
        if (r.truncated) truncated = true;
        for (const f of r.findings) {
          const [start, end] = encodedSpan(c, f.start, f.end);
          findings.push({ ...f, start, end });
        }
      }
    }
    sortFindings(findings);
    return {
      findings,
      contentKind: this.#kind === 'unknown' ? 'text' : this.#kind,
      bytesScanned: this.#scanned,
      bytesSeen: this.#seen,
      truncated: over || truncated,
      notices: this.notices,
    };
  }

  #drain(final: boolean): void {
    if (this.#pendingBytes === 0 && !final) return;
    const bytes = joined(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#kind === 'unknown') {
      this.#kind = sniffKind(bytes.subarray(0, kSniffBytes));
      if (this.#kind === 'binary') {
        this.notices.push(notice('SDD_SKIP_BINARY', 'sniffed binary content'));
        return;
      }
    }
    if (this.#kind === 'binary') return;
    if (!this.#matcher) {
      this.#matcher = new Matcher(this.#program, this.#maxFindings, this.#slice, this.#decode);
      this.#charset = createCharsetDecoder(this.#charsetKind, this.#charsetLabel);
      this.#escapes = createEscapeDecoder(kEscapesFor[this.#kind]);
    }
    this.#scanned += bytes.length;
    const text = this.#charset!.push(bytes, final);
    this.#matcher.push(this.#escapes!.push(text, final));
  }
}

/** The order of a body's findings: by start, then end, then rule id (a stable sort). */
function byPlace(a: Finding, b: Finding): number {
  return a.start - b.start || a.end - b.end || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0);
}

/**
 * Sorts findings `byPlace`. The matcher records them rule by rule in each batch of windows; with a
 * comparator the sort cost half a millisecond for a dense 1 MiB body's 3,500. Instead each finding's
 * start, length and index are packed into one number and the numbers sorted natively; findings of
 * one span (rare) are then ordered by rule id, stably. Out of the packing's bounds, the comparator.
 */
export function sortFindings(findings: Finding[]): void {
  const n = findings.length;
  if (n < kPackedSortMin || n > kPackedIndexes) {
    findings.sort(byPlace);
    return;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = findings[i]!;
    const length = f.end - f.start;
    if (!(f.start >= 0 && f.start < kPackedStarts && length >= 0 && length < kPackedLengths)) {
      findings.sort(byPlace);
      return;
    }
    keys[i] = (f.start * kPackedLengths + length) * kPackedIndexes + i;
  }
  keys.sort();
  const out = new Array<Finding>(n);
  for (let i = 0; i < n; i++) out[i] = findings[keys[i]! % kPackedIndexes]!;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && out[j]!.start === out[i]!.start && out[j]!.end === out[i]!.end) j++;
    if (j - i > 1) {
      const same = out.slice(i, j).sort(byPlace);
      for (let k = i; k < j; k++) out[k] = same[k - i]!;
    }
    i = j;
  }
  for (let i = 0; i < n; i++) findings[i] = out[i]!;
}
/** Below this many findings the comparator is as quick. */
const kPackedSortMin = 64;
/** The packing's bounds (2^21 · 2^15 · 2^14 = 2^50, exact in a double). */
const kPackedStarts = 2 ** 21;
const kPackedLengths = 2 ** 15;
const kPackedIndexes = 2 ** 14;

/**
 * The pending chunks as one array: a view when they lie back to back in one buffer (the slices of a
 * large chunk, see `push`), else a copy.
 */
function joined(parts: readonly Uint8Array[], total: number): Uint8Array {
  const first = parts[0];
  if (first === undefined) return new Uint8Array(0);
  let end = first.byteOffset + first.byteLength;
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.buffer !== first.buffer || p.byteOffset !== end) return Buffer.concat(parts as Uint8Array[], total);
    end += p.byteLength;
  }
  return parts.length === 1 ? first : new Uint8Array(first.buffer, first.byteOffset, total);
}
