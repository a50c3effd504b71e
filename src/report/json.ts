import type { Writable } from 'node:stream';
import type { Finding, ScanNotice, ScanReport } from '../types.js';
import type { InputError, Reporter, ReporterOptions, ReportSummary, ScanResult } from './types.js';
import { publicFinding, publicNotice } from './types.js';
import { countingReporter } from './summary.js';
import { kToolName, packageVersion } from './tool.js';

export interface JsonFileResult {
  path: string;
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

export function jsonFileResult({ path, report }: ScanResult): JsonFileResult {
  return {
    path,
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

function jsonDocument(results: JsonFileResult[], errors: InputError[], summary: ReportSummary, opts: ReporterOptions): JsonReport {
  return { tool: { name: kToolName, version: opts.toolVersion ?? packageVersion() }, results, errors, summary };
}

/** Builds the whole JSON document (results in the order given). */
export function buildJsonReport(results: readonly ScanResult[], errors: readonly InputError[], summary: ReportSummary, opts: ReporterOptions = {}): JsonReport {
  return jsonDocument(results.map(jsonFileResult), errors.map(jsonError), summary, opts);
}

/** Collects results and writes one pretty-printed JSON document at `end`. */
export function createJsonReporter(out: Writable, opts: ReporterOptions = {}): Reporter {
  // Converted on arrival so the engine's report objects (and any buffers they hold) can be freed.
  const results: JsonFileResult[] = [];
  const errors: InputError[] = [];
  return countingReporter('json', out, {
    result: (result) => {
      results.push(jsonFileResult(result));
      return '';
    },
    error: (err) => void errors.push(jsonError(err)),
    end: (summary) => `${JSON.stringify(jsonDocument(results, errors, summary, opts), null, 2)}\n`,
  });
}
