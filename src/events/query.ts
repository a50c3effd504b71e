/**
 * The two queries over the index: a zone's events in time order (`firewallEventsAdaptive`) and their
 * counts grouped by dimensions (`firewallEventsAdaptiveGroups`). Both read one zone's time range of the
 * index, helped by the hourly totals (per rule, action, host, method and status):
 * - a list whose filter names a field the totals hold reads only the hours where some total passes
 *   the filter's conditions on those fields (a rare rule, or a host with no events, reads few events
 *   or none);
 * - groups by such dimensions count whole hours from the totals, and read single events only for the
 *   partial hours at either end of the range.
 * The index by path and the hourly totals per path do the same for the path:
 * - a filter that narrows the path to a few values (equality, `_in`, a `_like` with a literal start,
 *   or any condition the zone's paths can be tested against, when they are few) reads only those
 *   paths' events, when they are fewer than the range's;
 * - groups by path (and hour or day) count whole hours from the path totals.
 * Other filters only on the path, description or ray name read every event of the range.
 */
import { dimensionOf } from './fields.js';
import { compileFilter, type CompiledFilter } from './filter.js';
import { kHourMs, type EventIndex, type EventKey, type HourCount, type IndexedEvent } from './store.js';

export interface ListOptions {
  filter?: Record<string, unknown> | null | undefined;
  limit: number;
  descending: boolean;
}

/** Events read between two turns of the event loop, so a long scan never holds the service's other work. */
const kYieldEvery = 4096;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Up to `limit` events of the zone matching the filter, newest or oldest first. */
export async function listEvents(index: EventIndex, zone: string, options: ListOptions): Promise<IndexedEvent[]> {
  const f = compileFilter(options.filter);
  const out: IndexedEvent[] = [];
  if (options.limit <= 0) return out;
  let read = 0;
  for (const e of candidates(index, zone, f, options.descending)) {
    if (++read % kYieldEvery === 0) await turn();
    if (!f.test(e)) continue;
    out.push(e);
    if (out.length >= options.limit) return out;
  }
  return out;
}

/**
 * The events a list has to test, in its order: those of the paths the filter narrows to, or those of
 * the hours whose totals can hold a match, or every event of the range.
 */
function* candidates(index: EventIndex, zone: string, f: CompiledFilter, descending: boolean): Generator<IndexedEvent> {
  const paths = pathPlan(index, zone, f);
  if (paths !== null) return yield* mergedPaths(index, zone, paths, f.from, f.to, descending);
  const known = [...f.fields].filter((n) => n !== 'datetime' && kHourlyFields.has(n));
  const ranges = known.length > 0 ? hoursWithMatches(index, zone, f, descending, known.every((n) => kRuleFields.has(n))) : [[f.from, f.to] as const];
  for (const [from, to] of ranges) yield* index.scan(zone, { from, to, descending });
}

/** The parts of the filter's range in hours where some hourly total passes the filter's looser test, in scan order. */
function* hoursWithMatches(index: EventIndex, zone: string, f: CompiledFilter, descending: boolean, byRule: boolean): Generator<readonly [number, number]> {
  const clip = (hour: number) => [Math.max(hour, f.from), Math.min(hour + kHourMs, f.to)] as const;
  const passes = f.looser(byRule ? kRuleFields : kHourlyFields);
  let hour: number | undefined;
  let hit = false;
  for (const h of index.hourCounts(zone, Math.floor(f.from / kHourMs) * kHourMs, f.to, descending, byRule)) {
    if (h.hour !== hour) {
      if (hit) yield clip(hour!);
      hour = h.hour;
      hit = false;
    }
    if (!hit && passes(hourEvent(h))) hit = true;
  }
  if (hit) yield clip(hour!);
}

export interface GroupOptions {
  filter?: Record<string, unknown> | null | undefined;
  limit: number;
  /** Dimension names to group by (those the query selects). */
  dimensions: readonly string[];
  /** `count_DESC`, `<dimension>_ASC`, …: applied in order. */
  orderBy: readonly string[];
}

export interface Group {
  count: number;
  dimensions: Record<string, string | number>;
}

/** Fields with one value for every event (fields.ts): any total knows them. */
const kConstantFields = ['source', 'kind', 'clientRequestQuery', 'clientIP', 'clientAsn', 'clientCountryName', 'userAgent'];
/** Fields a per-rule hourly total knows (the constant ones included), and those the full hourly totals add. */
const kKnownPerRule = ['ruleId', 'rulesetId', 'action', ...kConstantFields];
const kKnownPerHour = [...kKnownPerRule, 'clientRequestHTTPHost', 'clientRequestHTTPMethodName', 'edgeResponseStatus', 'originResponseStatus'];
const kRuleFields = new Set([...kKnownPerRule, 'datetime']);
const kHourlyFields = new Set([...kKnownPerHour, 'datetime']);
const kRuleDimensions = new Set([...kKnownPerRule, 'datetimeHour', 'date']);
const kHourlyDimensions = new Set([...kKnownPerHour, 'datetimeHour', 'date']);
/** What the path index and the hourly totals per path know. */
const kPathKnown = new Set([...kConstantFields, 'clientRequestPath']);
const kPathFields = new Set([...kPathKnown, 'datetime']);
const kPathDimensions = new Set([...kPathKnown, 'datetimeHour', 'date']);

/** Paths a plan may read side by side, and paths of a zone tested one by one against a filter that gives no values. */
const kMaxPathStreams = 256;
const kMaxPathNames = 4096;

/**
 * The paths whose events hold every match of the filter, when there are few and they hold at most
 * half the zone's events (all time: a guide to their share of the range); else null (read the range).
 */
function pathPlan(index: EventIndex, zone: string, f: CompiledFilter): string[] | null {
  if (!f.fields.has('clientRequestPath')) return null;
  const values = f.valuesOf('clientRequestPath');
  const candidates = new Map<string, number>();
  const take = (prefix: string): boolean => {
    let n = 0;
    for (const { path, count } of index.pathNames(zone, prefix, kMaxPathNames + 1)) {
      if (++n > kMaxPathNames) return false;
      candidates.set(path, count);
    }
    return true;
  };
  if (values === null) {
    if (!take('')) return null;
  } else {
    for (const path of values.exact) candidates.set(path, index.pathCount(zone, path));
    for (const prefix of values.prefixes) if (!take(prefix)) return null;
  }
  // The filter's conditions on the path (and on fields every event shares) decide each candidate.
  const passes = f.looser(kPathKnown);
  const paths: string[] = [];
  let events = 0;
  for (const [path, count] of candidates) {
    if (count === 0 || !passes(pathEvent(path, 0))) continue;
    paths.push(path);
    events += count;
  }
  return paths.length <= kMaxPathStreams && events * 2 <= index.total(zone) ? paths : null;
}

const before = (a: EventKey, b: EventKey): number => a.ms - b.ms || a.batch - b.batch || a.seq - b.seq;

/** The zone's events of `paths` with `from <= ms < to`, in the order of the time index (a merge of one stream per path). */
function* mergedPaths(index: EventIndex, zone: string, paths: readonly string[], from: number, to: number, descending: boolean): Generator<IndexedEvent> {
  const sign = descending ? -1 : 1;
  const heap: { key: EventKey; rest: Iterator<EventKey> }[] = [];
  const less = (i: number, j: number): boolean => sign * before(heap[i]!.key, heap[j]!.key) < 0;
  const swap = (i: number, j: number): void => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const m = l + 1 < heap.length && less(l + 1, l) ? l + 1 : l;
      if (l >= heap.length || !less(m, i)) return;
      swap(i, m);
      i = m;
    }
  };
  for (const path of paths) {
    const rest = index.pathKeys(zone, path, { from, to, descending });
    const first = rest.next();
    if (!first.done) heap.push({ key: first.value, rest });
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0]!;
    const e = index.event(zone, top.key);
    const next = top.rest.next();
    if (next.done) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    } else {
      top.key = next.value;
    }
    down(0);
    // An event is written before its path entry, in one transaction: a key without one cannot occur.
    if (e !== undefined) yield e;
  }
}

/** A path total as an event at the hour's start, carrying what the total knows. */
function pathEvent(path: string, hour: number): IndexedEvent {
  return { ms: hour, batch: 0, seq: 0, action: '', rulesetId: '', ruleId: '', description: '', host: '', method: '', path, status: 0, requestId: '', confidence: '' };
}

/** Whether the per-rule totals (fewer rows) say all the filter and the dimensions need. */
function perRule(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return [...f.fields].every((n) => kRuleFields.has(n)) && dimensions.every((d) => kRuleDimensions.has(d));
}

function fromTotals(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return f.timeOnlyInRange && [...f.fields].every((n) => kHourlyFields.has(n)) && dimensions.every((d) => kHourlyDimensions.has(d));
}

/** Hourly totals as events carrying what they know, with their counts. */
function* totalsOf<T extends { count: number }>(rows: Iterable<T>, asEvent: (row: T) => IndexedEvent): Generator<[IndexedEvent, number]> {
  for (const row of rows) yield [asEvent(row), row.count];
}

function fromPathTotals(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return f.timeOnlyInRange && [...f.fields].every((n) => kPathFields.has(n)) && dimensions.every((d) => kPathDimensions.has(d));
}

/** An hourly total as an event at the hour's start, carrying what the total knows. */
function hourEvent(h: HourCount): IndexedEvent {
  return { ms: h.hour, batch: 0, seq: 0, action: h.action, rulesetId: h.rulesetId, ruleId: h.ruleId, description: '', host: h.host, method: h.method, path: '', status: h.status, requestId: '', confidence: '' };
}

class Counter {
  readonly groups = new Map<string, Group>();
  constructor(readonly dimensions: readonly string[]) {}
  add(e: IndexedEvent, count: number): void {
    const values = this.dimensions.map((d) => dimensionOf(d, e));
    const key = JSON.stringify(values);
    const g = this.groups.get(key);
    if (g) g.count += count;
    else this.groups.set(key, { count, dimensions: Object.fromEntries(this.dimensions.map((d, i) => [d, values[i]!])) });
  }
}

async function countScan(index: EventIndex, zone: string, f: CompiledFilter, from: number, to: number, counter: Counter): Promise<void> {
  if (from >= to) return;
  let read = 0;
  const paths = pathPlan(index, zone, f);
  const events = paths === null ? index.scan(zone, { from, to, descending: false }) : mergedPaths(index, zone, paths, from, to, false);
  for (const e of events) {
    if (++read % kYieldEvery === 0) await turn();
    if (f.test(e)) counter.add(e, 1);
  }
}

function sortGroups(groups: Group[], orderBy: readonly string[]): Group[] {
  const keys = orderBy.map((o) => {
    const cut = o.lastIndexOf('_');
    return { name: o.slice(0, cut), sign: o.slice(cut + 1) === 'DESC' ? -1 : 1 };
  });
  const valueOf = (g: Group, name: string): string | number => (name === 'count' ? g.count : (g.dimensions[name] ?? ''));
  return groups.sort((a, b) => {
    for (const { name, sign } of keys) {
      const x = valueOf(a, name);
      const y = valueOf(b, name);
      if (x !== y) return x < y ? -sign : sign;
    }
    return 0;
  });
}

/** Counts of the zone's matching events per distinct value of `dimensions`, sorted, at most `limit`. */
export async function groupEvents(index: EventIndex, zone: string, options: GroupOptions): Promise<Group[]> {
  const f = compileFilter(options.filter);
  const counter = new Counter(options.dimensions);
  const firstHour = Math.ceil(f.from / kHourMs) * kHourMs;
  const endHour = Math.floor(f.to / kHourMs) * kHourMs;
  const totals = firstHour >= endHour ? null : fromTotals(f, options.dimensions) ? 'hours' : fromPathTotals(f, options.dimensions) ? 'paths' : null;
  if (totals !== null) {
    await countScan(index, zone, f, f.from, firstHour, counter);
    let read = 0;
    const rows = totals === 'hours' ? totalsOf(index.hourCounts(zone, firstHour, endHour, false, perRule(f, options.dimensions)), hourEvent) : totalsOf(index.pathHourCounts(zone, firstHour, endHour), (h) => pathEvent(h.path, h.hour));
    for (const [e, count] of rows) {
      if (++read % kYieldEvery === 0) await turn();
      if (f.test(e)) counter.add(e, count);
    }
    await countScan(index, zone, f, endHour, f.to, counter);
  } else {
    await countScan(index, zone, f, f.from, f.to, counter);
  }
  return sortGroups([...counter.groups.values()], options.orderBy).slice(0, Math.max(0, options.limit));
}
