/**
 * The index of stored security events by zone and time: an LMDB environment beside the events bucket,
 * built only from the stored batches (whose fields were masked before they were written), so it holds
 * nothing a batch does not. It can be deleted and rebuilt from the batches at any time.
 *
 *   events   [zone, ms, batch, seq]                    → the event's stored fields
 *   hours    [zone, hourMs, ruleId, rulesetId, action, host, method, status] → events in that hour
 *            (group counts without reading events; which hours can hold a match at all)
 *   rules    [zone, hourMs, ruleId, rulesetId, action] → the same per rule only (a few rows per hour)
 *   batches  [zone, batch]                             → events indexed from it (makes indexing idempotent)
 *   meta     'format'                                  → the layout's number; another one is cleared and rebuilt
 *
 * LMDB readers work on a snapshot and never wait for the writer, and the writer never waits for them,
 * so queries and batch writes go on side by side (also across processes: `leakscan events` reads
 * while `leakscan serve` writes).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { open as openLmdb, type Database, type RootDatabase } from 'lmdb';
// The format module itself, not serve's index: the service imports the events index.
import { readBatchLines } from '../serve/batch-format.js';

/** One event as the index keeps it: the stored event's fields, without the zone (in the key). */
export interface IndexedEvent {
  ms: number;
  batch: number;
  seq: number;
  action: string;
  rulesetId: string;
  ruleId: string;
  description: string;
  host: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  confidence: string;
}

/** Events in one hour of one zone with the same rule, action, host, method and status. */
export interface HourCount {
  hour: number;
  ruleId: string;
  rulesetId: string;
  action: string;
  host: string;
  method: string;
  status: number;
  count: number;
}

/** Where the stored batches come from (service.ts and the CLI give the events bucket's). */
export interface BatchSource {
  /** Zones with stored batches. */
  zones(): Promise<string[]>;
  /** The zone's batch numbers, ascending. */
  batches(zone: string): Promise<number[]>;
  /** Batch n's stored bytes (NDJSON), or null when it is missing. */
  read(zone: string, n: number): Promise<Uint8Array | null>;
}

export const kHourMs = 3_600_000;

/** The index's layout; an index of another number is emptied on open and rebuilt from the batches. */
const kFormat = 2;

function tally(counts: Map<string, { key: Key; count: number }>, id: string, key: () => Key): void {
  const c = counts.get(id);
  if (c) c.count++;
  else counts.set(id, { key: key(), count: 1 });
}

type Key = (string | number)[];
type StoredValue = Omit<IndexedEvent, 'ms' | 'batch' | 'seq'>;

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

/** The fields the index keeps of one event line of zone `zone`'s batch `n`; undefined for a line that is not one of its events. */
function parseLine(e: Record<string, unknown>, zone: string, n: number): { ms: number; seq: number; value: StoredValue } | undefined {
  const ms = Date.parse(str(e['timestamp']));
  if (e['zone'] !== zone || e['batch'] !== n || !Number.isInteger(e['seq']) || !Number.isFinite(ms)) return undefined;
  const value: StoredValue = {
    action: str(e['action'], 'log'),
    rulesetId: str(e['rulesetId']),
    ruleId: str(e['ruleId']),
    description: str(e['description']),
    host: str(e['host']),
    method: str(e['method']),
    path: str(e['path']),
    status: typeof e['status'] === 'number' ? e['status'] : 0,
    requestId: str(e['requestId']),
    confidence: str(e['confidence'], 'high'),
  };
  return { ms, seq: e['seq'] as number, value };
}

/**
 * @example
 * const index = openEventIndex('.leakscan/events-index.mdb');
 * await index.catchUp(source);                 // batches stored before the index saw them
 * for (const e of index.scan(zone, { from, to, descending: true })) …
 * await index.close();
 */
export class EventIndex {
  readonly #env: RootDatabase;
  readonly #events: Database<StoredValue, Key>;
  readonly #hours: Database<number, Key>;
  readonly #rules: Database<number, Key>;
  readonly #batches: Database<number, Key>;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.#env = openLmdb({ path });
    // Shared structures keep each event's field names out of its record (a third of its size).
    this.#events = this.#env.openDB<StoredValue, Key>({ name: 'events', sharedStructuresKey: Symbol.for('structures') });
    this.#hours = this.#env.openDB<number, Key>({ name: 'hours' });
    this.#rules = this.#env.openDB<number, Key>({ name: 'rules' });
    this.#batches = this.#env.openDB<number, Key>({ name: 'batches' });
    const meta = this.#env.openDB<number, string>({ name: 'meta' });
    if (meta.get('format') !== kFormat) {
      // An index of another layout (or none): emptied, so the next catch-up rebuilds it from the batches.
      this.#env.transactionSync(() => {
        for (const db of [this.#events, this.#hours, this.#rules, this.#batches]) db.clearSync();
        meta.putSync('format', kFormat);
      });
    }
  }

  /** Whether batch n of the zone is indexed. */
  has(zone: string, n: number): boolean {
    return this.#batches.get([zone, n]) !== undefined;
  }

  /**
   * Indexes batch n of the zone from its stored bytes, in one transaction; a batch already indexed is
   * left as it is (so a repeat cannot count its events twice). Resolves with the events it added.
   */
  async addBatch(zone: string, n: number, bytes: Uint8Array): Promise<number> {
    // The batch's lines as verify reads them (a format 2 header left out).
    const parsed = readBatchLines(bytes, zone, n).objects.map((e) => parseLine(e, zone, n)).filter((p) => p !== undefined);
    return this.#env.transaction(() => {
      if (this.#batches.get([zone, n]) !== undefined) return 0;
      const hours = new Map<string, { key: Key; count: number }>();
      const rules = new Map<string, { key: Key; count: number }>();
      for (const { ms, seq, value } of parsed) {
        this.#events.put([zone, ms, n, seq], value);
        const hour = Math.floor(ms / kHourMs) * kHourMs;
        const rule = `${hour}\0${value.ruleId}\0${value.rulesetId}\0${value.action}`;
        tally(rules, rule, () => [zone, hour, value.ruleId, value.rulesetId, value.action]);
        tally(hours, `${rule}\0${value.host}\0${value.method}\0${value.status}`, () => [zone, hour, value.ruleId, value.rulesetId, value.action, value.host, value.method, value.status]);
      }
      for (const { key, count } of hours.values()) this.#hours.put(key, (this.#hours.get(key) ?? 0) + count);
      for (const { key, count } of rules.values()) this.#rules.put(key, (this.#rules.get(key) ?? 0) + count);
      this.#batches.put([zone, n], parsed.length);
      return parsed.length;
    });
  }

  /** Indexes every stored batch the index does not hold yet (a new or deleted index, a crash between write and index). */
  async catchUp(source: BatchSource): Promise<{ batches: number; events: number }> {
    let batches = 0;
    let events = 0;
    for (const zone of await source.zones()) {
      for (const n of await source.batches(zone)) {
        if (this.has(zone, n)) continue;
        const bytes = await source.read(zone, n);
        if (bytes === null) continue;
        events += await this.addBatch(zone, n, bytes);
        batches++;
      }
    }
    return { batches, events };
  }

  /** The zone's events with `from <= ms < to`, oldest first or newest first. */
  *scan(zone: string, range: { from: number; to: number; descending: boolean }): Generator<IndexedEvent> {
    const lo: Key = [zone, range.from];
    const hi: Key = [zone, range.to];
    const entries = this.#events.getRange(range.descending ? { start: hi, end: lo, reverse: true } : { start: lo, end: hi });
    for (const { key, value } of entries) {
      yield { ms: key[1] as number, batch: key[2] as number, seq: key[3] as number, ...value };
    }
  }

  /**
   * The zone's hourly counts of the hours starting in [fromHour, toHour), in hour order (or reversed):
   * per rule, action, host, method and status, or with `perRule` per rule and action only (fewer rows;
   * `host` and `method` are then empty and `status` 0).
   */
  *hourCounts(zone: string, fromHour: number, toHour: number, descending = false, perRule = false): Generator<HourCount> {
    const lo: Key = [zone, fromHour];
    const hi: Key = [zone, toHour];
    const db = perRule ? this.#rules : this.#hours;
    for (const { key, value } of db.getRange(descending ? { start: hi, end: lo, reverse: true } : { start: lo, end: hi })) {
      const [, hour, ruleId, rulesetId, action, host = '', method = '', status = 0] = key as [string, number, string, string, string, string?, string?, number?];
      yield { hour, ruleId, rulesetId, action, host, method, status, count: value };
    }
  }

  /** Zones with indexed events. */
  zones(): string[] {
    const out: string[] = [];
    let last: string | undefined;
    for (const key of this.#batches.getKeys()) {
      if (key[0] !== last) out.push((last = key[0] as string));
    }
    return out;
  }

  /** Waits until every write is on disk, then closes. */
  async close(): Promise<void> {
    await this.#env.flushed;
    await this.#env.close();
  }
}

/** Opens (creating when missing) the index at `path`. */
export function openEventIndex(path: string): EventIndex {
  return new EventIndex(path);
}
