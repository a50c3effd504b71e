import type { Writable } from 'node:stream';
import type { InputError, Reporter, ReportFormat, ReportSummary, ScanResult } from './types.js';
import { write } from './write.js';

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

  /** The archive whose entries are arriving (they come one after another), and whether one had findings. */
  #archive: string | undefined;
  #archiveFound = false;

  add({ path, report, entry }: ScanResult): void {
    const s = this.#s;
    // An archive (HAR, WARC) is one file however many responses it holds; `entries` counts those.
    const sameArchive = entry !== undefined && path === this.#archive;
    if (!sameArchive) {
      s.files++;
      this.#archiveFound = false;
    }
    this.#archive = entry === undefined ? undefined : path;
    if (entry !== undefined) s.entries = (s.entries ?? 0) + 1;
    if (report.findings.length > 0 && !(sameArchive && this.#archiveFound)) s.filesWithFindings++;
    if (report.findings.length > 0 && entry !== undefined) this.#archiveFound = true;
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

/**
 * The reporter every format is: totals kept by a `SummaryCounter`, `add` writing what `result`
 * returns at once (line formats) and `end` what `end` returns (document formats, summary lines).
 */
export function countingReporter(
  format: ReportFormat,
  out: Writable,
  parts: { result?: (r: ScanResult) => string; error?: (e: InputError) => void; end?: (s: ReportSummary) => string },
): Reporter {
  const counter = new SummaryCounter();
  return {
    format,
    async add(result: ScanResult): Promise<void> {
      counter.add(result);
      await write(out, parts.result?.(result) ?? '');
    },
    async error(err: InputError): Promise<void> {
      counter.error(err);
      parts.error?.(err);
    },
    async end(extra?: { durationMs?: number }): Promise<ReportSummary> {
      const summary = counter.summary(extra);
      await write(out, parts.end?.(summary) ?? '');
      return summary;
    },
  };
}
