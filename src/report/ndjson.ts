import type { Writable } from 'node:stream';
import type { Reporter, ScanResult } from './types.js';
import { publicFinding } from './types.js';
import { countingReporter } from './summary.js';

/**
 * NDJSON lines of one result: one finding per line, keys exactly in the order INTERFACE.md gives
 * (`path, ruleId, description, tags, start, end, redacted`: `publicFinding`'s order). Empty for a
 * result without findings.
 */
export function ndjsonLines({ path, report }: ScanResult): string {
  let out = '';
  for (const f of report.findings) out += `${JSON.stringify({ path, ...publicFinding(f) })}\n`;
  return out;
}

/**
 * Streams findings as NDJSON. Only findings are lines: notices and unreadable inputs are not
 * findings, so they never break a consumer that expects one shape per line (the CLI reports them on
 * standard error).
 */
export function createNdjsonReporter(out: Writable): Reporter {
  return countingReporter('ndjson', out, { result: ndjsonLines });
}
