import type { InputError, ReportSummary, ScanResult } from './types.js';

/** Running totals shared by every format. */
export class SummaryCounter {
  readonly #s: ReportSummary = {
    files: 0,
    filesWithFindings: 0,
    findings: 0,
    bytesScanned: 0,
    bytesReceived: 0,
    skipped: 0,
    truncated: 0,
    errors: 0,
  };

  add({ report }: ScanResult): void {
    const s = this.#s;
    s.files++;
    if (report.findings.length > 0) s.filesWithFindings++;
    s.findings += report.findings.length;
    s.bytesScanned += report.bytesScanned;
    s.bytesReceived += report.bytesReceived;
    if (report.contentKind === 'binary') s.skipped++;
    if (report.truncated) s.truncated++;
  }

  error(_err: InputError): void {
    this.#s.errors++;
  }

  summary(extra?: { durationMs?: number }): ReportSummary {
    const out = { ...this.#s };
    if (extra?.durationMs !== undefined) out.durationMs = Math.round(extra.durationMs);
    return out;
  }
}
