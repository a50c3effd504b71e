/** Public types of the library (see INTERFACE.md). */

/** One detection. Offsets are UTF-8 byte offsets into the decoded body (after Content-Encoding). */
export interface Finding {
  /** Stable id of a managed rule. */
  ruleId: string;
  /** The rule's description. */
  description: string;
  /** The rule's family tag (`pii`, `financial-information`, `secrets`) and its other tags. */
  tags: string[];
  /** First byte of the value, inclusive. */
  start: number;
  /** Byte after the value (exclusive). */
  end: number;
  /** The value with most characters masked (at most 4 kept); never the raw value. */
  redacted: string;
  /**
   * How sure the finding is: `high` (format, checksum or structure, and the context the rule asks
   * for), `medium` (checksum without context), `low` (a shape only). See docs/rules.md.
   */
  confidence: Confidence;
}

export type { Confidence } from './rules/types.js';
import type { Confidence } from './rules/types.js';

/** Describes the body being scanned, as an HTTP response would. */
export interface ScanMeta {
  /** `Content-Type` header value, e.g. `application/json; charset=utf-8`. Sniffed when absent. */
  contentType?: string;
  /** `Content-Encoding` header value: `gzip`, `deflate`, `br`, `identity` or a comma list of them. */
  contentEncoding?: string;
}

/** Why (part of) a body was not scanned, or what went wrong while reading it. Scanning never throws for bad bodies. */
export interface ScanNotice {
  /** Stable code from the error catalogue (`SDD_*`), see docs/errors.md. */
  code: string;
  message: string;
}

/** Everything a scan learned about one body. */
export interface ScanReport {
  findings: Finding[];
  /** Kind the body was understood as. */
  contentKind: 'text' | 'html' | 'json' | 'xml' | 'binary';
  /** Decoded bytes scanned (at most 1,048,576). */
  bytesScanned: number;
  /** Decoded bytes seen in all (scanned or only counted); with a Content-Encoding, bytes past the cap are not decompressed and `bytesReceived` tells the wire size. */
  bytesSeen: number;
  /** Bytes received before any Content-Encoding decoding. */
  bytesReceived: number;
  /** True when the body was longer than the scan cap (or the findings cap was hit). */
  truncated: boolean;
  /** Skips, truncations and decode errors, in the order they happened. */
  notices: ScanNotice[];
}

export interface ScannerOptions {
  /** Every managed rule on, default-off ones included. */
  allRules?: boolean;
  /** Rule ids or tags to turn on after the defaults. */
  enable?: readonly string[];
  /** Rule ids or tags to turn off after the defaults (wins over `enable`). */
  disable?: readonly string[];
  /**
   * The lowest confidence reported; default `high`, which keeps clean bodies clean. `medium` adds
   * checksum-valid values without their context word, `low` shapes without checksum or context.
   */
  minConfidence?: Confidence;
  /** 0 = scan in the calling thread; default: a worker pool sized to the cores. */
  workers?: number;
  /** RE2 backend: `auto` (native `re2` when it loads, else `re2-wasm`), `re2-wasm`, `re2`, or `v8` (reference only). */
  backend?: 'auto' | 're2-wasm' | 're2' | 'v8';
  /** Decoded bytes scanned per body; default and maximum 1,048,576 (the spec's 1 MB). */
  maxBytes?: number;
  /** Findings kept per body; default 10,000. */
  maxFindings?: number;
}

export type BodySource = string | Uint8Array;
export type BodyStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface Scanner {
  scan(body: BodySource, meta?: ScanMeta): Promise<Finding[]>;
  /** Same findings as `scan()` on the joined bytes, whatever the chunking. */
  scanStream(body: BodyStream, meta?: ScanMeta): Promise<Finding[]>;
  /** `scan` with the full report (notices, byte counts, truncation). */
  analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport>;
  analyzeStream(body: BodyStream, meta?: ScanMeta): Promise<ScanReport>;
  close(): Promise<void>;
}
