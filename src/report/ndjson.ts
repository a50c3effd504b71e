import type { Writable } from 'node:stream';
import type { InputError, Reporter, ReportSummary, ScanResult } from './types.js';
import { SummaryCounter } from './summary.js';
import { write } from './write.js';

/**
 * NDJSON lines of one result: one finding per line, keys exactly in the order INTERFACE.md gives
 * (`path, ruleId, description, tags, start, end, redacted`). Empty for a result without findings.
 */
export function ndjsonLines({ path, report }: ScanResult): string {
  let out = '';
  for (const f of report.findings) {
    out += JSON.stringify({
      path,
      ruleId: f.ruleId,
      description: f.description,
      tags: [...f.tags],
      start: f.start,
      end: f.end,
      redacted: f.redacted,
    });
    out += '\n';
  }
  return out;
}

/**
 * Streams findings as NDJSON. Only findings are lines: notices and unreadable inputs are not
 * findings, so they never break a consumer that expects one shape per line (the CLI reports them on
 * standard error).
 */
export function createNdjsonReporter(out: Writable): Reporter {
  const counter = new SummaryCounter();
  return {
    format: 'ndjson',
    add(result: ScanResult): Promise<void> {
      counter.add(result);
      return write(out, ndjsonLines(result));
    },
    async error(err: InputError): Promise<void> {
      counter.error(err);
    },
    async end(extra?: { durationMs?: number }): Promise<ReportSummary> {
      return counter.summary(extra);
    },
  };
}
