/**
 * Security › Events of a zone, read from the events index (src/events) rather than from the batches:
 * the counts per rule over time come from `groupEvents` (hourly totals where the filter allows), the
 * list and the export walk the index in time order, and only the batches of the events shown are read,
 * for each event's stored fields and its batch's verification (Detections keeps a batch's result while
 * its bytes are unchanged). Every row goes through `exportRow`, the detections export's choke point:
 * fields read by name, a value not shaped as redact() makes it masked again.
 * @example
 * const q = parseEventsQuery(new URLSearchParams('rule=us-ssn&since=2026-11-28T09:00'), Date.now());
 * const chart = await eventsChart(index, zone, q);              // counts per rule and bucket
 * const { rows, older } = await eventsList(index, detections, zone, q);
 * for await (const chunk of exportRows(index, detections, zone, q)) out.write(toNdjson(chunk));
 */
import { groupEvents, kHourMs, type EventIndex, type IndexedEvent } from '../events/index.js';
import { LeakscanError } from '../errors.js';
import { managedRuleset } from '../rules/index.js';
import type { DetectionBatch } from './batches.js';
import type { LogEvent } from '../eventlog/index.js';
import { exportRow, filterQuery, parseFilter, type DetectionFilter, type ExportRow } from './detections.js';
import type { DetectionSource } from './model.js';

/** The detections' filter and a host (as stored: lower case, any match masked). */
export interface EventsFilter extends DetectionFilter {
  host?: string;
}

/** A place in the list, newest first: the events strictly older than it come next. */
export interface Cursor {
  ms: number;
  batch: number;
  seq: number;
}

export interface EventsQuery {
  filter: EventsFilter;
  /** The time range read, [from, to) in ms: `since` and `until`, or the day before `until` (or now). */
  from: number;
  to: number;
  /** Whether `since` was left out (the page then says it shows the last day). */
  sinceDefaulted: boolean;
  before?: Cursor;
}

/** The page's range when `since` is left out. */
export const kDefaultRangeMs = 24 * kHourMs;
/** The longest range the page counts over. */
export const kMaxRangeMs = 400 * 24 * kHourMs;
/** Events listed per page. */
export const kEventsPerPage = 50;

const kParams = ['rule', 'tag', 'confidence', 'host', 'since', 'until', 'before'] as const;
const kCursor = /^(\d{1,16})-(\d{1,10})-(\d{1,6})$/;

const invalid = (message: string): LeakscanError => new LeakscanError('SDD_ERR_INVALID_OPTION', message);

/** The query a page URL asks for; an unknown or repeated parameter, or a bad value, is refused with its reason. */
export function parseEventsQuery(q: URLSearchParams, now: number): EventsQuery {
  for (const k of new Set(q.keys())) {
    if (!(kParams as readonly string[]).includes(k)) throw invalid(`unknown parameter '${k}': the page takes ${kParams.join(', ')}`);
    if (q.getAll(k).length > 1) throw invalid(`parameter '${k}' is given ${q.getAll(k).length} times`);
  }
  const filter: EventsFilter = parseFilter(q);
  const host = (q.get('host') ?? '').trim().toLowerCase();
  if (host !== '') {
    // eslint-disable-next-line no-control-regex
    if (host.length > 253 || /[\s\u0000-\u001f\u007f]/u.test(host)) throw invalid(`host '${host.slice(0, 64)}' is not a host name`);
    filter.host = host;
  }
  const to = filter.until ?? now;
  const from = filter.since ?? to - kDefaultRangeMs;
  if (from >= to) throw invalid(`since (${new Date(from).toISOString()}) must be before until (${new Date(to).toISOString()})`);
  if (to - from > kMaxRangeMs) throw invalid(`the range from since to until is over ${kMaxRangeMs / (24 * kHourMs)} days`);
  const out: EventsQuery = { filter, from, to, sinceDefaulted: filter.since === undefined };
  const before = q.get('before');
  if (before !== null && before !== '') {
    const m = kCursor.exec(before);
    if (m === null) throw invalid(`before '${before.slice(0, 64)}' is not a place in the list (the Older events link gives one)`);
    out.before = { ms: Number(m[1]), batch: Number(m[2]), seq: Number(m[3]) };
  }
  return out;
}

/** The filter as a query string (no `?`), host included, `before` left out. */
export function eventsFilterQuery(f: EventsFilter): string {
  const q = new URLSearchParams(filterQuery(f));
  if (f.host !== undefined) q.set('host', f.host);
  return q.toString();
}

/** The cursor as `before=` carries it: `MS-BATCH-SEQ`. */
export function cursorText(c: Cursor): string {
  return `${c.ms}-${c.batch}-${c.seq}`;
}

/** Rules the filter's rule and tag leave (undefined: every rule). */
function rulesOf(f: EventsFilter): Set<string> | undefined {
  if (f.rule === undefined && f.tag === undefined) return undefined;
  return new Set(managedRuleset.rules.filter((r) => (f.rule === undefined || r.id === f.rule) && (f.tag === undefined || r.tags.includes(f.tag))).map((r) => r.id));
}

/** The filter in Cloudflare's GraphQL filter shape, for the index's queries (confidence aside: the index's totals do not hold it). */
function indexFilter(q: EventsQuery, rules: Set<string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { datetime_geq: new Date(q.from).toISOString(), datetime_lt: new Date(q.to).toISOString() };
  if (rules !== undefined) out['ruleId_in'] = [...rules];
  if (q.filter.host !== undefined) out['clientRequestHTTPHost'] = q.filter.host;
  return out;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Events read between two turns of the event loop. */
const kYieldEvery = 4096;

/** Whether index key (ms, batch, seq) of `e` comes before `c` (is older). */
function olderThan(e: IndexedEvent, c: Cursor): boolean {
  return e.ms !== c.ms ? e.ms < c.ms : e.batch !== c.batch ? e.batch < c.batch : e.seq < c.seq;
}

/**
 * The hours of [from, to) whose hourly totals hold a rule and host the filter keeps, clipped to the
 * range, in scan order: a rare rule or host reads only its hours.
 */
function hoursWith(index: EventIndex, zone: string, from: number, to: number, rules: Set<string> | undefined, host: string | undefined, descending: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (const h of index.hourCounts(zone, Math.floor(from / kHourMs) * kHourMs, to, descending, host === undefined)) {
    if ((rules !== undefined && !rules.has(h.ruleId)) || (host !== undefined && h.host !== host)) continue;
    const range: [number, number] = [Math.max(h.hour, from), Math.min(h.hour + kHourMs, to)];
    if (out.at(-1)?.[0] !== range[0]) out.push(range);
  }
  return out;
}

/** The zone's events the query keeps, newest or oldest first, from `before` on when given. */
export async function* matchingEvents(index: EventIndex, zone: string, q: EventsQuery, descending: boolean): AsyncGenerator<IndexedEvent> {
  const f = q.filter;
  const rules = rulesOf(f);
  const to = q.before === undefined ? q.to : Math.min(q.to, q.before.ms + 1);
  const ranges: [number, number][] = rules === undefined && f.host === undefined ? [[q.from, to]] : hoursWith(index, zone, q.from, to, rules, f.host, descending);
  let read = 0;
  for (const [from, end] of ranges) {
    for (const e of index.scan(zone, { from, to: end, descending })) {
      if (++read % kYieldEvery === 0) await turn();
      if (q.before !== undefined && !olderThan(e, q.before)) continue;
      if (rules !== undefined && !rules.has(e.ruleId)) continue;
      if (f.host !== undefined && e.host !== f.host) continue;
      if (f.confidence !== undefined && e.confidence !== f.confidence) continue;
      yield e;
    }
  }
}

/** Chart buckets as Cloudflare's GraphQL time dimensions: the smallest that keeps a range to a readable number of bars. */
const kBuckets = [
  { dimension: 'datetimeMinute', ms: 60_000, upTo: 2 * kHourMs },
  { dimension: 'datetimeFiveMinutes', ms: 300_000, upTo: 8 * kHourMs },
  // Hours and days are counted from the index's hourly totals (no event is read but at the range's ends).
  { dimension: 'datetimeHour', ms: kHourMs, upTo: 7 * 24 * kHourMs },
  { dimension: 'date', ms: 24 * kHourMs, upTo: Number.POSITIVE_INFINITY },
] as const;

export interface ChartSeries {
  /** A rule id, or '' for the rules past the first kChartSeries, together. */
  ruleId: string;
  description: string;
  total: number;
  /** Events per bucket. */
  counts: number[];
}

export interface EventsChart {
  /** First bucket's start (ms) and each bucket's length. */
  start: number;
  bucketMs: number;
  buckets: number;
  /** The most events first; at most kChartSeries rules and one series of the others. */
  series: ChartSeries[];
  total: number;
}

/** Rules the chart draws on their own; the rest are one series. */
export const kChartSeries = 8;

/** Events per rule and time bucket over the query's range (its `before` aside). */
export async function eventsChart(index: EventIndex, zone: string, q: EventsQuery): Promise<EventsChart> {
  const bucket = kBuckets.find((b) => q.to - q.from <= b.upTo)!;
  const start = Math.floor(q.from / bucket.ms) * bucket.ms;
  const buckets = Math.ceil((q.to - start) / bucket.ms);
  const perRule = new Map<string, number[]>();
  const add = (ruleId: string, at: number, count: number): void => {
    const i = Math.floor((at - start) / bucket.ms);
    if (i < 0 || i >= buckets) return;
    let counts = perRule.get(ruleId);
    if (counts === undefined) perRule.set(ruleId, (counts = new Array<number>(buckets).fill(0)));
    counts[i]! += count;
  };
  if (q.filter.confidence === undefined) {
    const groups = await groupEvents(index, zone, { filter: indexFilter(q, rulesOf(q.filter)), limit: Number.MAX_SAFE_INTEGER, dimensions: ['ruleId', bucket.dimension], orderBy: [] });
    for (const g of groups) add(String(g.dimensions['ruleId']), Date.parse(String(g.dimensions[bucket.dimension])), g.count);
  } else {
    // The index's totals do not hold confidence: every event of the range is read.
    const { before: _older, ...range } = q;
    for await (const e of matchingEvents(index, zone, range, false)) add(e.ruleId, e.ms, 1);
  }
  const descriptions = new Map(managedRuleset.rules.map((r) => [r.id, r.description]));
  const all = [...perRule]
    .map(([ruleId, counts]): ChartSeries => ({ ruleId, description: descriptions.get(ruleId) ?? '', counts, total: counts.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total || (a.ruleId < b.ruleId ? -1 : 1));
  const series = all.slice(0, kChartSeries);
  const rest = all.slice(kChartSeries);
  if (rest.length > 0) {
    const counts = new Array<number>(buckets).fill(0);
    for (const s of rest) s.counts.forEach((n, i) => (counts[i]! += n));
    series.push({ ruleId: '', description: `${rest.length} other rules`, counts, total: rest.reduce((a, s) => a + s.total, 0) });
  }
  return { start, bucketMs: bucket.ms, buckets, series, total: all.reduce((a, s) => a + s.total, 0) };
}

/** One listed or exported event: its stored fields as exported, and its batch's check. */
export interface EventRow {
  row: ExportRow;
  problems: DetectionBatch['problems'];
}

/**
 * The batches of the events being shown or exported, each read (and checked) once per request; at
 * most `keep` held at a time (an export walks the zone in time order, so batch by batch).
 */
export class BatchReader {
  readonly #source: DetectionSource;
  readonly #zone: string;
  readonly #keep: number;
  readonly #held = new Map<number, { batch: DetectionBatch; bySeq: Map<number, LogEvent> }>();

  constructor(source: DetectionSource, zone: string, keep = 8) {
    this.#source = source;
    this.#zone = zone;
    this.#keep = keep;
  }

  async #batch(n: number): Promise<{ batch: DetectionBatch; bySeq: Map<number, LogEvent> }> {
    let b = this.#held.get(n);
    if (b === undefined) {
      const batch = await this.#source.read(this.#zone, n);
      b = { batch, bySeq: new Map(batch.events.map((e) => [e.seq, e])) };
      if (this.#held.size >= this.#keep) this.#held.delete(this.#held.keys().next().value!);
      this.#held.set(n, b);
    }
    return b;
  }

  /**
   * Event `e` of the index as its batch holds it. An index entry its batch no longer holds (a batch
   * altered or removed since it was indexed) is shown from the index, without a value or an id, and
   * its batch as failed.
   */
  async row(e: IndexedEvent): Promise<EventRow> {
    const { batch, bySeq } = await this.#batch(e.batch);
    const stored = bySeq.get(e.seq);
    if (stored !== undefined) return { row: exportRow(stored, batch.state), problems: batch.problems };
    const rule = managedRuleset.rules.find((r) => r.id === e.ruleId);
    const fromIndex = { ...e, id: '', timestamp: new Date(e.ms).toISOString(), zone: this.#zone, tags: rule?.tags ?? [], contentType: null, start: 0, end: 0, redacted: '' } as unknown as LogEvent;
    const problem = { code: 'VERIFY_BAD_BATCH', message: `batch ${e.batch} holds no event ${e.seq} (indexed before the batch changed)` };
    return { row: exportRow(fromIndex, 'failed'), problems: batch.state === 'failed' ? batch.problems : [problem] };
  }
}

export interface EventsList {
  rows: EventRow[];
  /** Where the next (older) page starts, when there is one. */
  older: Cursor | undefined;
}

/** One page of the list, newest first. */
export async function eventsList(index: EventIndex, source: DetectionSource, zone: string, q: EventsQuery, size = kEventsPerPage): Promise<EventsList> {
  const found: IndexedEvent[] = [];
  for await (const e of matchingEvents(index, zone, q, true)) {
    found.push(e);
    if (found.length > size) break;
  }
  const shown = found.slice(0, size);
  const reader = new BatchReader(source, zone);
  const rows: EventRow[] = [];
  for (const e of shown) rows.push(await reader.row(e));
  const last = shown.at(-1);
  return { rows, older: found.length > size && last !== undefined ? { ms: last.ms, batch: last.batch, seq: last.seq } : undefined };
}

/** Every event the query keeps, oldest first, as export rows in chunks. */
export async function* exportRows(index: EventIndex, source: DetectionSource, zone: string, q: EventsQuery, chunk = 500): AsyncGenerator<ExportRow[]> {
  const reader = new BatchReader(source, zone);
  let out: ExportRow[] = [];
  for await (const e of matchingEvents(index, zone, q, false)) {
    out.push((await reader.row(e)).row);
    if (out.length >= chunk) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}
