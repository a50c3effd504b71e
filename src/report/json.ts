import type { Writable } from 'node:stream';
import type { Finding, ScanNotice, ScanReport } from '../types.js';
import type { InputError, Reporter, ReporterOptions, ReportSummary, ScanResult } from './types.js';
import { publicFinding, publicNotice } from './types.js';
import { SummaryCounter } from './summary.js';
import { kToolName, packageVersion } from './tool.js';
import { write } from './write.js';

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

/** Builds the whole JSON document (results in the order given). */
export function buildJsonReport(results: readonly ScanResult[], errors: readonly InputError[], summary: ReportSummary, opts: ReporterOptions = {}): JsonReport {
  return {
    tool: { name: kToolName, version: opts.toolVersion ?? packageVersion() },
    results: results.map(jsonFileResult),
    errors: errors.map((e) => ({ path: e.path, code: e.code, message: e.message })),
    summary,
  };
}

/** Collects results and writes one pretty-printed JSON document at `end`. */
export function createJsonReporter(out: Writable, opts: ReporterOptions = {}): Reporter {
  const counter = new SummaryCounter();
  // Converted on arrival so the engine's report objects (and any buffers they hold) can be freed.
  const results: JsonFileResult[] = [];
  const errors: InputError[] = [];
  return {
    format: 'json',
    async add(result: ScanResult): Promise<void> {
      counter.add(result);
      results.push(jsonFileResult(result));
    },
    async error(err: InputError): Promise<void> {
      counter.error(err);
      errors.push({ path: err.path, code: err.code, message: err.message });
    },
    async end(extra?: { durationMs?: number }): Promise<ReportSummary> {
      const summary = counter.summary(extra);
      const doc: JsonReport = { tool: { name: kToolName, version: opts.toolVersion ?? packageVersion() }, results, errors, summary };
      await write(out, `${JSON.stringify(doc, null, 2)}\n`);
      return summary;
    },
  };
}
