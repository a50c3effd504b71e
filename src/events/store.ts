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
 *   paths    [zone, path, hourMs, batch]               → where the batch's events of that path in that hour are:
 *            (ms − hourMs, seq) pairs of uint32, so a filter on a few paths reads their events only. One
 *            entry per path, hour and batch rather than per event: a quarter of the size or less, since
 *            LMDB leaves pages of interleaved appends half full.
 *   pathHours [zone, hourMs, path]                     → events of that path in that hour (groups by path)
 *   pathNames [zone, path]                             → the zone's events of that path, all time (which paths
 *            a filter can match, and whether reading them beats reading the time range)
 *   totals   [zone]                                    → the zone's events, all time
 *   requests [zone, batch]                             → the sorted 32-bit hashes of the request ids of the
 *            batch's events (an event's id is `<requestId>-<n>`: a proof reads the batches whose set
 *            holds its hash, not every batch). One entry per batch, appended as the batch is, rather
 *            than one per exchange keyed by its hash: those land all over the tree, and rewriting a
 *            page per exchange made indexing two to three times slower. A collision (one in 2^32 per
 *            exchange) only names a batch more.
 *   meta     'format'                                  → the layout's number; another one is cleared and rebuilt
 *
 * LMDB readers work on a snapshot and never wait for the writer, and the writer never waits for them,
 * so queries and batch writes go on side by side (also across processes: `leakscan events` reads
 * while `leakscan serve` writes).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { open as openLmdb, type Database, type RootDatabase } from 'lmdb';
import { readBatchLines } from '../eventlog/index.js';

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

/** Events of one path in one hour of one zone. */
export interface PathHourCount {
  hour: number;
  path: string;
  count: number;
}

/** Where an event sits in the index: its time, batch and line (the `events` key without the zone). */
export interface EventKey {
  ms: number;
  batch: number;
  seq: number;
}

/** What opening an index found. */
export interface EventIndexOptions {
  /** Told when an index of another format is emptied to be rebuilt (service.ts logs it). */
  log?: (line: string) => void;
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
export const kIndexFormat = 5;

function tally(counts: Map<string, { key: Key; count: number }>, id: string, key: () => Key): void {
  const c = counts.get(id);
  if (c) c.count++;
  else counts.set(id, { key: key(), count: 1 });
}

type Key = (string | number)[];

/** 32 bits mixed from `words` (multiply-xorshift rounds). */
function mix32(words: readonly number[], seed: number): number {
  let h = seed;
  for (const w of words) {
    h = Math.imul(h ^ w, 0x9e3779b1);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

const hexWords = (hex: string): number[] => [0, 8, 16, 24].map((i) => Number.parseInt(hex.slice(i, i + 8), 16));

/**
 * A 32-bit hash of a request id (32 hex digits); undefined for another id. Hashed rather than cut, so
 * ids that differ only at their end (as counters do) still spread.
 */
function requestHash(requestId: string): number | undefined {
  return /^[0-9a-f]{32}$/.test(requestId) ? mix32(hexWords(requestId), 0x811c9dc5) : undefined;
}

/** Whether sorted little-endian uint32s `set` hold `h` (binary search). */
function holds(set: Buffer, h: number): boolean {
  let lo = 0;
  let hi = (set.length >> 2) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = set.readUInt32LE(mid * 4);
    if (v === h) return true;
    if (v < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Numbers below 2^32 as little-endian uint32s (path postings, request hash sets). */
function packPairs(values: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(values.length * 4);
  values.forEach((v, i) => out.writeUInt32LE(v, i * 4));
  return out;
}
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
  readonly #paths: Database<Buffer, Key>;
  readonly #pathHours: Database<number, Key>;
  readonly #pathNames: Database<number, Key>;
  readonly #totals: Database<number, Key>;
  readonly #requests: Database<Buffer, Key>;
  /** The format of the index found on open when it was another one (and so emptied), else undefined. */
  readonly replacedFormat: number | undefined;

  constructor(path: string, options: EventIndexOptions = {}) {
    mkdirSync(dirname(path), { recursive: true });
    this.#env = openLmdb({ path });
    // Shared structures keep each event's field names out of its record (a third of its size).
    this.#events = this.#env.openDB<StoredValue, Key>({ name: 'events', sharedStructuresKey: Symbol.for('structures') });
    this.#hours = this.#env.openDB<number, Key>({ name: 'hours' });
    this.#rules = this.#env.openDB<number, Key>({ name: 'rules' });
    this.#batches = this.#env.openDB<number, Key>({ name: 'batches' });
    this.#paths = this.#env.openDB<Buffer, Key>({ name: 'paths', encoding: 'binary' });
    this.#pathHours = this.#env.openDB<number, Key>({ name: 'pathHours' });
    this.#pathNames = this.#env.openDB<number, Key>({ name: 'pathNames' });
    this.#totals = this.#env.openDB<number, Key>({ name: 'totals' });
    this.#requests = this.#env.openDB<Buffer, Key>({ name: 'requests', encoding: 'binary' });
    this.replacedFormat = this.#checkFormat();
    if (this.replacedFormat !== undefined) {
      options.log?.(`events index: format ${this.replacedFormat} found, emptied to be rebuilt as format ${kIndexFormat} from the stored batches`);
    }
  }

  /**
   * Empties an index of another layout (or of none, when it holds anything), so the next catch-up
   * rebuilds it from the batches; returns the format it found then (0: none), else undefined.
   */
  #checkFormat(): number | undefined {
    const meta = this.#env.openDB<number, string>({ name: 'meta' });
    return this.#env.transactionSync(() => {
      const found = meta.get('format');
      if (found === kIndexFormat) return undefined;
      const dbs = [this.#events, this.#hours, this.#rules, this.#batches, this.#paths, this.#pathHours, this.#pathNames, this.#totals, this.#requests];
      const empty = found === undefined && dbs.every((db) => db.getKeysCount({ limit: 1 }) === 0);
      for (const db of dbs) db.clearSync();
      meta.putSync('format', kIndexFormat);
      return empty ? undefined : (found ?? 0);
    });
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
      const pathHours = new Map<string, { key: Key; count: number }>();
      const pathNames = new Map<string, { key: Key; count: number }>();
      const postings = new Map<string, { key: Key; at: number[] }>();
      for (const { ms, seq, value } of parsed) {
        this.#events.put([zone, ms, n, seq], value);
        const hour = Math.floor(ms / kHourMs) * kHourMs;
        const posting = `${value.path}\0${hour}`;
        const list = postings.get(posting) ?? postings.set(posting, { key: [zone, value.path, hour, n], at: [] }).get(posting)!;
        list.at.push(ms - hour, seq);
        const rule = `${hour}\0${value.ruleId}\0${value.rulesetId}\0${value.action}`;
        tally(rules, rule, () => [zone, hour, value.ruleId, value.rulesetId, value.action]);
        tally(hours, `${rule}\0${value.host}\0${value.method}\0${value.status}`, () => [zone, hour, value.ruleId, value.rulesetId, value.action, value.host, value.method, value.status]);
        tally(pathHours, `${hour}\0${value.path}`, () => [zone, hour, value.path]);
        tally(pathNames, value.path, () => [zone, value.path]);
      }
      for (const [db, counts] of [[this.#hours, hours], [this.#rules, rules], [this.#pathHours, pathHours], [this.#pathNames, pathNames]] as const) {
        for (const { key, count } of counts.values()) db.put(key, (db.get(key) ?? 0) + count);
      }
      for (const { key, at } of postings.values()) this.#paths.put(key, packPairs(at));
      const hashes = [...new Set(parsed.map((p) => requestHash(p.value.requestId)))].filter((h) => h !== undefined);
      this.#requests.put([zone, n], packPairs(hashes.sort((a, b) => a - b)));
      this.#totals.put([zone], (this.#totals.get([zone]) ?? 0) + parsed.length);
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

  /**
   * Batches of the zone holding events of exchange `requestId` (an event id's part before the dash),
   * newest first; a batch of another exchange whose id hashes alike may be among them. Reads each
   * batch's set of hashes (4 bytes per exchange), not its events.
   */
  requestBatches(zone: string, requestId: string): number[] {
    const h = requestHash(requestId);
    if (h === undefined) return [];
    const out: number[] = [];
    for (const { key, value } of this.#requests.getRange({ start: [zone, Infinity], end: [zone, -Infinity], reverse: true })) {
      if (holds(value, h)) out.push(key[1] as number);
    }
    return out;
  }

  /** The zone's event at `key`, or undefined. */
  event(zone: string, key: EventKey): IndexedEvent | undefined {
    const value = this.#events.get([zone, key.ms, key.batch, key.seq]);
    return value === undefined ? undefined : { ...key, ...value };
  }

  /** Where the zone's events of `path` with `from <= ms < to` sit, in the time index's order (oldest or newest first). */
  *pathKeys(zone: string, path: string, range: { from: number; to: number; descending: boolean }): Generator<EventKey> {
    // Entries of hours starting in [hour of from, to); an hour's entries (one per batch) are read whole, then sorted.
    const lo: Key = [zone, path, Math.floor(range.from / kHourMs) * kHourMs];
    const hi: Key = [zone, path, range.to];
    const sign = range.descending ? -1 : 1;
    let hour: number | undefined;
    let group: EventKey[] = [];
    const sorted = () => group.sort((a, b) => sign * (a.ms - b.ms || a.batch - b.batch || a.seq - b.seq));
    for (const { key, value } of this.#paths.getRange(range.descending ? { start: hi, end: lo, reverse: true } : { start: lo, end: hi })) {
      const h = key[2] as number;
      if (h !== hour) {
        yield* sorted();
        hour = h;
        group = [];
      }
      const batch = key[3] as number;
      for (let i = 0; i + 8 <= value.length; i += 8) {
        const ms = h + value.readUInt32LE(i);
        if (ms >= range.from && ms < range.to) group.push({ ms, batch, seq: value.readUInt32LE(i + 4) });
      }
    }
    yield* sorted();
  }

  /**
   * The zone's paths with their events of all time, in path order: those starting with `prefix`
   * (every path when it is empty), at most `limit` of them.
   */
  *pathNames(zone: string, prefix = '', limit = Infinity): Generator<{ path: string; count: number }> {
    for (const { key, value } of this.#pathNames.getRange({ start: [zone, prefix], limit })) {
      const path = key[1];
      if (key[0] !== zone || typeof path !== 'string' || !path.startsWith(prefix)) break;
      yield { path, count: value };
    }
  }

  /** The zone's events of `path`, all time (0 for a path it never saw). */
  pathCount(zone: string, path: string): number {
    return this.#pathNames.get([zone, path]) ?? 0;
  }

  /** The zone's events, all time. */
  total(zone: string): number {
    return this.#totals.get([zone]) ?? 0;
  }

  /** The zone's hourly counts per path of the hours starting in [fromHour, toHour), in hour order. */
  *pathHourCounts(zone: string, fromHour: number, toHour: number): Generator<PathHourCount> {
    for (const { key, value } of this.#pathHours.getRange({ start: [zone, fromHour], end: [zone, toHour] })) {
      yield { hour: key[1] as number, path: key[2] as string, count: value };
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

/**
 * Opens (creating when missing) the index at `path`; an index of another format is emptied (and
 * `options.log` told) so that the next catch-up rebuilds it.
 */
export function openEventIndex(path: string, options: EventIndexOptions = {}): EventIndex {
  return new EventIndex(path, options);
}
