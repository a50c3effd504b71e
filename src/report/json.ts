import type { Writable } from 'node:stream';
import type { Finding, ScanNotice, ScanReport } from '../types.js';
import type { ArchiveEntry, DecodedBody, InputError, Reporter, ReporterOptions, ReportSummary, ScanResult } from './types.js';
import { publicDecoded, publicEntry, publicFinding, publicNotice } from './types.js';
import { countingReporter } from './summary.js';
import { kToolName, packageVersion } from './tool.js';
import { JsonArrayWriter, jsonAt } from './json-stream.js';

export interface JsonFileResult {
  path: string;
  /** The archive entry (HAR, WARC) this result is about; `path` is the archive's. */
  entry?: ArchiveEntry;
  /** Set when the body was decoded before scanning: offsets are in the decoded body. */
  decoded?: DecodedBody;
  contentKind: ScanReport['contentKind'];
  bytesScanned: number;
  bytesSeen: number;
  bytesReceived: number;
  truncated: boolean;
  findings: Finding[];
  notices: ScanNotice[];
}

/** The `--format json` document. */
export interface JsonReport {
  tool: { name: string; version: string };
  results: JsonFileResult[];
  errors: InputError[];
  summary: ReportSummary;
}

export function jsonFileResult({ path, report, decoded, entry }: ScanResult): JsonFileResult {
  return {
    path,
    ...(entry === undefined ? {} : { entry: publicEntry(entry) }),
    ...(decoded === undefined ? {} : { decoded: publicDecoded(decoded) }),
    contentKind: report.contentKind,
    bytesScanned: report.bytesScanned,
    bytesSeen: report.bytesSeen,
    bytesReceived: report.bytesReceived,
    truncated: report.truncated,
    findings: report.findings.map(publicFinding),
    notices: report.notices.map(publicNotice),
  };
}

/** Only an input error's public fields, as for findings. */
function jsonError(e: InputError): InputError {
  return { path: e.path, code: e.code, message: e.message };
}

function jsonTool(opts: ReporterOptions): JsonReport['tool'] {
  return { name: kToolName, version: opts.toolVersion ?? packageVersion() };
}

function jsonDocument(results: JsonFileResult[], errors: InputError[], summary: ReportSummary, opts: ReporterOptions): JsonReport {
  return { tool: jsonTool(opts), results, errors, summary };
}

/** Builds the whole JSON document (results in the order given). */
export function buildJsonReport(results: readonly ScanResult[], errors: readonly InputError[], summary: ReportSummary, opts: ReporterOptions = {}): JsonReport {
  return jsonDocument(results.map(jsonFileResult), errors.map(jsonError), summary, opts);
}

/**
 * Writes one pretty-printed JSON document (the same bytes as `JSON.stringify(buildJsonReport(…), null,
 * 2)`) as results arrive: each result is written when added, and only the input errors (for their
 * array after the results) are kept until `end`, which writes them and the summary. A scan with
 * millions of findings is never held in memory.
 */
export function createJsonReporter(out: Writable, opts: ReporterOptions = {}): Reporter {
  const errors: InputError[] = [];
  const results = new JsonArrayWriter(1, `{\n  "tool": ${jsonAt(jsonTool(opts), 1)},\n  "results": `);
  return countingReporter('json', out, {
    result: (result) => results.item(jsonFileResult(result)),
    error: (err) => void errors.push(jsonError(err)),
    end: (summary) => `${results.close()},\n  "errors": ${jsonAt(errors, 1)},\n  "summary": ${jsonAt(summary, 1)}\n}\n`,
  });
}
