/**
 * The two queries over the index: a zone's events in time order (`firewallEventsAdaptive`) and their
 * counts grouped by dimensions (`firewallEventsAdaptiveGroups`). Both read one zone's time range of the
 * index, helped by the hourly totals (per rule, action, host, method and status):
 * - a list whose filter names a field the totals hold reads only the hours where some total passes
 *   the filter's conditions on those fields (a rare rule, or a host with no events, reads few events
 *   or none);
 * - groups by such dimensions count whole hours from the totals, and read single events only for the
 *   partial hours at either end of the range.
 * Filters only on the path, description or ray name read every event of the range.
 */
import { dimensionOf } from './fields.js';
import { compileFilter, type CompiledFilter } from './filter.js';
import { kHourMs, type EventIndex, type HourCount, type IndexedEvent } from './store.js';

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
  const known = [...f.fields].filter((n) => n !== 'datetime' && kHourlyFields.has(n));
  const ranges = known.length > 0 ? hoursWithMatches(index, zone, f, options.descending, known.every((n) => kRuleFields.has(n))) : [[f.from, f.to] as const];
  let read = 0;
  for (const [from, to] of ranges) {
    for (const e of index.scan(zone, { from, to, descending: options.descending })) {
      if (++read % kYieldEvery === 0) await turn();
      if (!f.test(e)) continue;
      out.push(e);
      if (out.length >= options.limit) return out;
    }
  }
  return out;
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

/** Fields a per-rule hourly total knows (the constant ones included), and those the full hourly totals add. */
const kKnownPerRule = ['ruleId', 'rulesetId', 'action', 'source', 'kind', 'clientRequestQuery', 'clientIP', 'clientAsn', 'clientCountryName', 'userAgent'];
const kKnownPerHour = [...kKnownPerRule, 'clientRequestHTTPHost', 'clientRequestHTTPMethodName', 'edgeResponseStatus', 'originResponseStatus'];
const kRuleFields = new Set([...kKnownPerRule, 'datetime']);
const kHourlyFields = new Set([...kKnownPerHour, 'datetime']);
const kRuleDimensions = new Set([...kKnownPerRule, 'datetimeHour', 'date']);
const kHourlyDimensions = new Set([...kKnownPerHour, 'datetimeHour', 'date']);

/** Whether the per-rule totals (fewer rows) say all the filter and the dimensions need. */
function perRule(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return [...f.fields].every((n) => kRuleFields.has(n)) && dimensions.every((d) => kRuleDimensions.has(d));
}

function fromTotals(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return f.timeOnlyInRange && [...f.fields].every((n) => kHourlyFields.has(n)) && dimensions.every((d) => kHourlyDimensions.has(d));
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
  for (const e of index.scan(zone, { from, to, descending: false })) {
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
  if (fromTotals(f, options.dimensions) && firstHour < endHour) {
    await countScan(index, zone, f, f.from, firstHour, counter);
    let read = 0;
    for (const h of index.hourCounts(zone, firstHour, endHour, false, perRule(f, options.dimensions))) {
      if (++read % kYieldEvery === 0) await turn();
      const e = hourEvent(h);
      if (f.test(e)) counter.add(e, h.count);
    }
    await countScan(index, zone, f, endHour, f.to, counter);
  } else {
    await countScan(index, zone, f, f.from, f.to, counter);
  }
  return sortGroups([...counter.groups.values()], options.orderBy).slice(0, Math.max(0, options.limit));
}
