import type { Confidence, Finding, ScanNotice, ScanReport } from '../types.js';

/** Output formats of `leakscan scan` and `createReporter`. */
export type ReportFormat = 'text' | 'json' | 'ndjson' | 'sarif';

export const kReportFormats: readonly ReportFormat[] = ['text', 'json', 'ndjson', 'sarif'];

/**
 * How a body's Content-Encoding became known: the signature in its bytes, the file's name, an option,
 * or the archived response's own `Content-Encoding` header (WARC).
 */
export type DetectedBy = 'magic' | 'name' | 'option' | 'header';

/** A body that was decoded (gunzipped…) before it was scanned: its offsets are in the decoded bytes. */
export interface DecodedBody {
  /** The coding undone, as given (`gzip`, `br`, `gzip, br`). */
  contentEncoding: string;
  detectedBy: DetectedBy;
}

/**
 * One response inside an archive file (a HAR entry, a WARC record): the input's `path` stays the
 * archive's, and the finding offsets are inside this response's (decoded) body.
 */
export interface ArchiveEntry {
  /** Position in the archive: the HAR entry's index in `log.entries`, the WARC record's number (0-based). */
  index: number;
  url: string;
  /** The request method; empty when the archive does not record it. */
  method: string;
  /** The response status; 0 when the archive does not record it. */
  status: number;
}

/** Where a finding is as text: 1-based line and column (UTF-16 code units) of its start and its end. */
export interface TextPosition {
  line: number;
  column: number;
  endLine: number;
  /** The column just past the value (exclusive, as SARIF's `endColumn`). */
  endColumn: number;
}

/** One scanned input: `path` as the user named it (`-` for standard input). */
export interface ScanResult {
  path: string;
  report: ScanReport;
  /** Set when the body was decoded before scanning (offsets are in the decoded body). */
  decoded?: DecodedBody;
  /** Set for a response inside an archive (HAR, WARC): `path` is the archive's. */
  entry?: ArchiveEntry;
  /** Line and column of each finding (same order as `report.findings`), when the body was at hand. */
  positions?: readonly (TextPosition | undefined)[];
}

/** An input that could not be read at all (missing, unreadable, not a file). */
export interface InputError {
  path: string;
  code: string;
  message: string;
}

/** What a report needs to know about a rule (a subset of `ManagedRuleInfo`). */
export interface ReportRule {
  id: string;
  description: string;
  tags: readonly string[];
  /** The level of the rule's best finding (SARIF's `defaultConfiguration.level`); default `high`. */
  confidence?: Confidence;
}

export interface ReportSummary {
  /** Inputs scanned (including skipped binary ones, excluding unreadable ones); an archive counts once. */
  files: number;
  /** Responses scanned inside archives (HAR entries, WARC records); absent when no archive was scanned. */
  entries?: number;
  filesWithFindings: number;
  findings: number;
  /** Decoded bytes scanned, summed over inputs. */
  bytesScanned: number;
  /** Bytes read from the inputs, summed. */
  bytesReceived: number;
  /** Inputs (or archive responses) not scanned because they are binary. */
  skipped: number;
  /** Inputs only partly scanned (longer than the cap, or too many findings). */
  truncated: number;
  /** Inputs that could not be read. */
  errors: number;
  durationMs?: number;
}

export interface ReporterOptions {
  /**
   * Rules that were selected for the run. SARIF lists them all in `tool.driver.rules`; without
   * them it lists the rules that fired.
   */
  rules?: readonly ReportRule[];
  /** Tool version written in JSON and SARIF; default: this package's version. */
  toolVersion?: string;
  /**
   * Directory relative paths are relative to (the working directory of the scan). SARIF makes
   * absolute paths under it relative and records it as `%SRCROOT%`.
   */
  baseDir?: string;
}

/**
 * Receives results as they arrive and writes them to its stream: line formats (text, ndjson) at
 * once, document formats (json, sarif) at `end`. Never ends the stream it was given: the caller owns it.
 */
export interface Reporter {
  readonly format: ReportFormat;
  /** Adds one scanned input. Resolves when the stream accepted the output (backpressure). */
  add(result: ScanResult): Promise<void>;
  /** Records an input that could not be read. */
  error(err: InputError): Promise<void>;
  /** Writes whatever is left and resolves with the totals. */
  end(extra?: { durationMs?: number }): Promise<ReportSummary>;
}

/**
 * The only finding fields any sink writes, copied one by one so that a field added to `Finding` later
 * (a raw value for a verifier, say) can never leak into a report by a spread.
 */
export function publicFinding(f: Finding): Finding {
  return { ruleId: f.ruleId, description: f.description, tags: [...f.tags], start: f.start, end: f.end, redacted: f.redacted, confidence: f.confidence };
}

/** Only the public fields of an archive entry, in a fixed order (`url, method, status, index`). */
export function publicEntry(e: ArchiveEntry): ArchiveEntry {
  return { url: e.url, method: e.method, status: e.status, index: e.index };
}

export function publicDecoded(d: DecodedBody): DecodedBody {
  return { contentEncoding: d.contentEncoding, detectedBy: d.detectedBy };
}

export function publicNotice(n: ScanNotice): ScanNotice {
  return { code: n.code, message: n.message };
}
