/**
 * The detections page's filters (rule, tag, confidence, time), its counts per rule, and its exports
 * (NDJSON, CSV) of the filtered events. An export carries the stored fields one by one, never a stored
 * line as it is, and every value as the redaction choke point made it (src/redact).
 */
import { LeakscanError } from '../errors.js';
import { redact } from '../redact/index.js';
import { kManagedRuleIds, kManagedTags } from '../rulesets/index.js';
import type { DetectionBatch } from './batches.js';
import type { LogEvent } from '../eventlog/index.js';
import type { Confidence } from '../types.js';

/** What the page and the exports keep; an absent field keeps everything. */
export interface DetectionFilter {
  rule?: string;
  tag?: string;
  confidence?: Confidence;
  /** ms since the epoch, inclusive. */
  since?: number;
  /** ms since the epoch, exclusive. */
  until?: number;
}

const kFilterKeys = ['rule', 'tag', 'confidence', 'since', 'until'] as const;

// `datetime-local` sends `2026-11-28T13:05` (read as UTC); full ISO times and plain dates are taken too.
const kTime = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?))?(Z)?$/;

function timeOf(name: string, text: string): number {
  const m = kTime.exec(text);
  const ms = m === null ? Number.NaN : Date.parse(`${m[1]}T${m[2] ?? '00:00'}Z`);
  if (Number.isNaN(ms)) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `${name} '${text}' is not a UTC time (YYYY-MM-DDTHH:MM)`);
  return ms;
}

/** The filter a query string asks for; an unknown rule, tag, level or a bad time is refused, not ignored. */
export function parseFilter(q: URLSearchParams): DetectionFilter {
  const f: DetectionFilter = {};
  const rule = q.get('rule') ?? '';
  const tag = q.get('tag') ?? '';
  const confidence = q.get('confidence') ?? '';
  const since = q.get('since') ?? '';
  const until = q.get('until') ?? '';
  if (rule !== '') {
    if (!kManagedRuleIds.has(rule)) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `rule '${rule}' is not a rule of the managed ruleset`);
    f.rule = rule;
  }
  if (tag !== '') {
    if (!kManagedTags.has(tag)) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `tag '${tag}' is not a tag of the managed ruleset`);
    f.tag = tag;
  }
  if (confidence !== '') {
    if (confidence !== 'high' && confidence !== 'medium' && confidence !== 'low') throw new LeakscanError('SDD_ERR_INVALID_OPTION', `confidence '${confidence}' is not high, medium or low`);
    f.confidence = confidence;
  }
  if (since !== '') f.since = timeOf('since', since);
  if (until !== '') f.until = timeOf('until', until);
  return f;
}

export function isEmptyFilter(f: DetectionFilter): boolean {
  return kFilterKeys.every((k) => f[k] === undefined);
}

/** The filter as a query string (no `?`), times in ISO form; `without` leaves one field out. */
export function filterQuery(f: DetectionFilter, without?: keyof DetectionFilter): string {
  const q = new URLSearchParams();
  for (const k of kFilterKeys) {
    const v = f[k];
    if (v === undefined || k === without) continue;
    q.set(k, typeof v === 'number' ? new Date(v).toISOString() : v);
  }
  return q.toString();
}

/** Whether the filter keeps `e`; `ignoreRule` for the counts per rule, which list every rule the rest keeps. */
export function keeps(f: DetectionFilter, e: LogEvent, ignoreRule = false): boolean {
  if (!ignoreRule && f.rule !== undefined && e.ruleId !== f.rule) return false;
  if (f.tag !== undefined && !(Array.isArray(e.tags) && e.tags.includes(f.tag))) return false;
  if (f.confidence !== undefined && e.confidence !== f.confidence) return false;
  if (f.since !== undefined || f.until !== undefined) {
    const t = Date.parse(e.timestamp);
    if (Number.isNaN(t) || (f.since !== undefined && t < f.since) || (f.until !== undefined && t >= f.until)) return false;
  }
  return true;
}

export interface RuleCount {
  ruleId: string;
  description: string;
  events: number;
}

/** Events per rule, the most first (then by id). */
export function countsByRule(events: Iterable<LogEvent>): RuleCount[] {
  const counts = new Map<string, RuleCount>();
  for (const e of events) {
    const c = counts.get(e.ruleId) ?? { ruleId: e.ruleId, description: e.description, events: 0 };
    c.events += 1;
    counts.set(e.ruleId, c);
  }
  return [...counts.values()].sort((a, b) => b.events - a.events || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}

/** One exported event: the stored fields by name, and whether its batch verified. */
export type ExportRow = Omit<LogEvent, 'action' | 'rulesetId' | 'confidence'> & {
  verification: DetectionBatch['state'];
  /** Null for an event stored before confidence levels existed. */
  confidence: Confidence | null;
};

/** Field order of both formats (the CSV header). */
export const kExportFields: readonly (keyof ExportRow)[] = [
  'batch', 'seq', 'verification', 'id', 'timestamp', 'zone', 'ruleId', 'description', 'tags', 'confidence',
  'host', 'method', 'path', 'status', 'contentType', 'requestId', 'start', 'end', 'redacted',
];

// What redact() makes with the service's policy (mask from the end, keep at most 4): up to 16 `*`,
// `[+N]` after 16 of them, then the kept characters.
const kMasked = /^(\*{1,16})(\[\+[1-9][0-9]*\])?([^]*)$/u;

function isMasked(v: string): boolean {
  const m = kMasked.exec(v);
  return m !== null && Array.from(m[3]!).length <= 4 && (m[2] === undefined || m[1]!.length === 16);
}

/**
 * The value column as exported: the stored value when it has the shape redact() gives; anything else
 * (a line altered in storage: its batch fails verification) goes through redact() again, so no export
 * carries a value longer than the mask keeps.
 */
export function exportedValue(stored: unknown): string {
  const v = typeof stored === 'string' ? stored : '';
  return v === '' || isMasked(v) ? v : redact(v);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** An event as exported: each field read by name and typed; nothing else of the stored line passes. */
export function exportRow(e: LogEvent, verification: DetectionBatch['state']): ExportRow {
  return {
    batch: num(e.batch), seq: num(e.seq), verification, id: str(e.id), timestamp: str(e.timestamp), zone: str(e.zone),
    ruleId: str(e.ruleId), description: str(e.description), tags: Array.isArray(e.tags) ? e.tags.filter((t) => typeof t === 'string') : [],
    confidence: e.confidence === 'high' || e.confidence === 'medium' || e.confidence === 'low' ? e.confidence : null,
    host: str(e.host), method: str(e.method), path: str(e.path), status: num(e.status), contentType: typeof e.contentType === 'string' ? e.contentType : null,
    requestId: str(e.requestId), start: num(e.start), end: num(e.end), redacted: exportedValue(e.redacted),
  };
}

export function toNdjson(rows: Iterable<ExportRow>): string {
  let out = '';
  for (const r of rows) out += `${JSON.stringify(r, kExportFields as string[])}\n`;
  return out;
}

/**
 * One CSV cell, always quoted (RFC 4180: `"` doubled). A cell a spreadsheet would read as a formula
 * (starting with = + - @, tab or carriage return) gets a leading `'`, as OWASP advises.
 */
export function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function toCsv(rows: Iterable<ExportRow>): string {
  let out = `${kExportFields.map(csvCell).join(',')}\r\n`;
  for (const r of rows) out += `${kExportFields.map((k) => csvCell(r[k])).join(',')}\r\n`;
  return out;
}
