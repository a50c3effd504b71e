import type { Writable } from 'node:stream';
import type { ArchiveEntry, DecodedBody, Reporter, ReportSummary, ScanResult } from './types.js';
import { countingReporter } from './summary.js';

/**
 * Control characters (a newline in a file name, an ANSI escape inside a matched PEM block) are shown
 * escaped: text output goes to terminals, and a crafted input must not be able to rewrite the screen.
 */
export function escapeControls(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

function displayPath(path: string): string {
  return path === '-' ? '<stdin>' : escapeControls(path);
}

/**
 * Where a finding of an archive entry is: the archive's path, the entry's number, method, URL and
 * status (`export.har#3 (GET https://example.test/a 200)`); offsets follow, inside that response's body.
 */
export function entryLabel(path: string, e: ArchiveEntry): string {
  const parts: string[] = [];
  if (e.method !== '') parts.push(escapeControls(e.method));
  parts.push(escapeControls(e.url));
  if (e.status !== 0) parts.push(String(e.status));
  return `${displayPath(path)}#${e.index} (${parts.join(' ')})`;
}

const kDetectedBy: Readonly<Record<DecodedBody['detectedBy'], string>> = {
  magic: 'recognised by its magic bytes',
  name: 'named by its suffix',
  option: 'as --content-encoding says',
  header: "as the response's Content-Encoding says",
};

/** The note on a decoded body: what was undone and that offsets are in the decoded bytes. */
export function decodedNote(d: DecodedBody): string {
  return `decoded ${escapeControls(d.contentEncoding)} (${kDetectedBy[d.detectedBy]}); offsets are in the decoded body`;
}

/** Notices the text format leaves to the summary line: one per skipped image would drown the findings. */
const kQuietNotices = new Set(['SDD_SKIP_BINARY']);

/**
 * Human-readable lines of one result: `path:line:column (start-end)  ruleId  confidence  redacted
 * description` (`path:start-end  …` when the positions are not known),
 * then notices. The confidence (`high`, `medium`, `low`) comes before the value so that the columns
 * that vary in width (value, description) stay last.
 */
export function textLines({ path, report, decoded, entry, positions }: ScanResult): string {
  const p = entry === undefined ? displayPath(path) : entryLabel(path, entry);
  let out = '';
  // A body found compressed by its bytes is always said (nothing else would tell the user it was
  // decoded); one named compressed only when its findings' offsets need the note.
  if (decoded !== undefined && (decoded.detectedBy === 'magic' || report.findings.length > 0)) out += `${p}: note: ${decodedNote(decoded)}\n`;
  for (let i = 0; i < report.findings.length; i++) {
    const f = report.findings[i]!;
    const at = positions?.[i];
    // `path:line:column` first (what editors and terminals open), the byte offsets beside it.
    const where = at === undefined ? `${f.start}-${f.end}` : `${at.line}:${at.column} (${f.start}-${f.end})`;
    out += `${p}:${where}  ${escapeControls(f.ruleId)}  ${escapeControls(f.confidence)}  ${escapeControls(f.redacted)}  ${escapeControls(f.description)}\n`;
  }
  for (const n of report.notices) {
    if (kQuietNotices.has(n.code)) continue;
    out += `${p}: note ${escapeControls(n.code)}: ${escapeControls(n.message)}\n`;
  }
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(n / (1024 * 1024 * 1024)).toFixed(2)} GiB`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The closing line, e.g. `3 findings in 2 files; 57 files scanned (1.2 MiB), 12 binary skipped, 0.4 s`. */
export function summaryLine(s: ReportSummary): string {
  const head = s.findings === 0 ? 'no findings' : `${plural(s.findings, 'finding')} in ${plural(s.filesWithFindings, 'file')}`;
  const inside = s.entries === undefined ? '' : `${plural(s.entries, 'archived response')}, `;
  const parts = [`${plural(s.files, 'file')} scanned (${inside}${formatBytes(s.bytesScanned)})`];
  if (s.skipped > 0) parts.push(`${s.skipped} binary skipped`);
  if (s.truncated > 0) parts.push(`${s.truncated} truncated`);
  if (s.errors > 0) parts.push(`${s.errors} unreadable`);
  if (s.durationMs !== undefined) parts.push(`${(s.durationMs / 1000).toFixed(1)} s`);
  return `${head}; ${parts.join(', ')}`;
}

/**
 * Streams human-readable lines as results arrive and a summary line at the end. Unreadable inputs
 * only count in the summary: the CLI reports them on standard error, where diagnostics belong.
 */
export function createTextReporter(out: Writable): Reporter {
  return countingReporter('text', out, { result: textLines, end: (summary) => `${summaryLine(summary)}\n` });
}
