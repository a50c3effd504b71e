/**
 * The two queries over the index: a zone's events in time order (`firewallEventsAdaptive`) and their
 * counts grouped by dimensions (`firewallEventsAdaptiveGroups`). Both read one zone's time range of the
 * index; the groups query takes whole hours from the hourly per-rule totals when the dimensions and
 * the filter need nothing else, and reads single events only for the partial hours at either end.
 */
import { dimensionOf } from './fields.js';
import { compileFilter, type CompiledFilter } from './filter.js';
import { kHourMs, type EventIndex, type IndexedEvent } from './store.js';

export interface ListOptions {
  filter?: Record<string, unknown> | null | undefined;
  limit: number;
  descending: boolean;
}

/** Up to `limit` events of the zone matching the filter, newest or oldest first. */
export function listEvents(index: EventIndex, zone: string, options: ListOptions): IndexedEvent[] {
  const f = compileFilter(options.filter);
  const out: IndexedEvent[] = [];
  if (options.limit <= 0) return out;
  for (const e of index.scan(zone, { from: f.from, to: f.to, descending: options.descending })) {
    if (!f.test(e)) continue;
    out.push(e);
    if (out.length >= options.limit) break;
  }
  return out;
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

/** Fields an hourly total knows: a group by them, filtered by them, can be counted from totals. */
const kHourlyFields = new Set(['ruleId', 'rulesetId', 'action', 'source', 'datetime']);
const kHourlyDimensions = new Set(['ruleId', 'rulesetId', 'action', 'source', 'datetimeHour', 'date']);

function fromTotals(f: CompiledFilter, dimensions: readonly string[]): boolean {
  return f.timeOnlyInRange && [...f.fields].every((n) => kHourlyFields.has(n)) && dimensions.every((d) => kHourlyDimensions.has(d));
}

/** An hourly total as an event at the hour's start, carrying what the total knows. */
function hourEvent(hour: number, ruleId: string, rulesetId: string, action: string): IndexedEvent {
  return { ms: hour, batch: 0, seq: 0, id: '', action, rulesetId, ruleId, description: '', host: '', method: '', path: '', status: 0, contentType: null, requestId: '', confidence: '' };
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

function countScan(index: EventIndex, zone: string, f: CompiledFilter, from: number, to: number, counter: Counter): void {
  if (from >= to) return;
  for (const e of index.scan(zone, { from, to, descending: false })) if (f.test(e)) counter.add(e, 1);
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
export function groupEvents(index: EventIndex, zone: string, options: GroupOptions): Group[] {
  const f = compileFilter(options.filter);
  const counter = new Counter(options.dimensions);
  const firstHour = Math.ceil(f.from / kHourMs) * kHourMs;
  const endHour = Math.floor(f.to / kHourMs) * kHourMs;
  if (fromTotals(f, options.dimensions) && firstHour < endHour) {
    countScan(index, zone, f, f.from, firstHour, counter);
    for (const h of index.hourCounts(zone, firstHour, endHour)) {
      const e = hourEvent(h.hour, h.ruleId, h.rulesetId, h.action);
      if (f.test(e)) counter.add(e, h.count);
    }
    countScan(index, zone, f, endHour, f.to, counter);
  } else {
    countScan(index, zone, f, f.from, f.to, counter);
  }
  return sortGroups([...counter.groups.values()], options.orderBy).slice(0, Math.max(0, options.limit));
}
