/**
 * Report formats for scan results (`leakscan/reporters`): text, JSON, NDJSON and SARIF 2.1.0.
 * Every format writes only a finding's public fields; `redacted` is the only trace of a value.
 *
 * @example
 * const reporter = createReporter('ndjson', process.stdout);
 * await reporter.add({ path: 'a.json', report: await scanner.analyze(body) });
 * await reporter.end();
 */
import type { Writable } from 'node:stream';
import type { Reporter, ReporterOptions, ReportFormat } from './types.js';
import { createTextReporter } from './text.js';
import { createJsonReporter } from './json.js';
import { createNdjsonReporter } from './ndjson.js';
import { createSarifReporter } from './sarif.js';

export type { ReportFormat, ScanResult, InputError, ReportRule, ReportSummary, ReporterOptions, Reporter, DecodedBody, DetectedBy, ArchiveEntry, TextPosition } from './types.js';
export { kReportFormats, publicFinding } from './types.js';
export { textLines, summaryLine, escapeControls, formatBytes, createTextReporter } from './text.js';
export { ndjsonLines, createNdjsonReporter } from './ndjson.js';
export { buildJsonReport, jsonFileResult, createJsonReporter } from './json.js';
export type { JsonReport, JsonFileResult } from './json.js';
export { SarifBuilder, artifactLocation, findingFingerprint, createSarifReporter, kSarifSchema, kFingerprintKey, kSarifLevel, kSarifRank } from './sarif.js';
export type { SarifLog, SarifRun, SarifRule, SarifResult, SarifLocation, SarifRegion, SarifNotification, SarifLevel } from './sarif.js';
export { packageVersion } from './tool.js';
export { ruleConfidence, confidenceText, type RuleConfidence } from './rules.js';

/** A reporter of the given format writing to `out` (which it never ends). */
/** Whether `format` shows findings' lines and columns (text and SARIF do; JSON and NDJSON give offsets only). */
export function showsPositions(format: ReportFormat): boolean {
  return format === 'text' || format === 'sarif';
}

export function createReporter(format: ReportFormat, out: Writable, opts: ReporterOptions = {}): Reporter {
  switch (format) {
    case 'text':
      return createTextReporter(out);
    case 'json':
      return createJsonReporter(out, opts);
    case 'ndjson':
      return createNdjsonReporter(out);
    case 'sarif':
      return createSarifReporter(out, opts);
  }
}
