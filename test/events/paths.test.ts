/**
 * The index by path and the hourly totals per path answer exactly what a scan of every event answers:
 * lists and groups with each path operator, alone and with others under AND and OR, either order,
 * any limit, events at the same millisecond in several batches and paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { compileFilter, eventView, executeEventsQuery, kIndexFormat, openEventIndex, type EventIndex, type GraphqlResponse } from '../../src/events/index.js';
import { dimensionOf } from '../../src/events/fields.js';
import { kMaxTime } from '../../src/events/filter.js';
import { batchOf, tempIndex, type SyntheticEvent } from './helpers.js';

const Z = 'c3'.repeat(16);
const OTHER = 'd4'.repeat(16);
const kStart = Date.UTC(2026, 4, 1, 9, 17);
const kPaths = ['/api/v1/items/1', '/api/v1/items/10', '/api/v1/items/2', '/admin/users', '/admin', '/p_x', '/login', '/%odd', ''];
const kRules = ['card-visa', 'us-ssn', 'email-address', 'iban'];

const kBulk = '/static/bulk';

/**
 * 8 batches of 75 events over about 10 hours, most of them of one path (so reading the others beats
 * reading every event); every seventh event shares its millisecond with the one before, and one event
 * of each batch is at the same millisecond as one of every other batch, some of them of the same path,
 * at a line whose order is not the batches' order.
 */
function synthetic(batch: number): SyntheticEvent[] {
  return Array.from({ length: 75 }, (_, seq) => {
    const i = batch * 75 + seq;
    const step = i % 7 === 0 ? i - 1 : i;
    const shared = seq === (batch * 11) % 75;
    return {
      at: new Date(kStart + (shared ? 18_000_000 : (step * 61_003) % 36_000_000)).toISOString(),
      ruleId: kRules[(i * 5) % kRules.length]!,
      host: i % 3 === 0 ? 'shop.example' : 'api.example',
      path: shared ? kPaths[batch % 3]! : i % 10 < 6 ? kBulk : kPaths[(i * i + 3 * i) % kPaths.length]!,
      status: i % 5 === 0 ? 404 : 200,
    };
  });
}

let t: ReturnType<typeof tempIndex>;
let index: EventIndex;

beforeAll(async () => {
  t = tempIndex();
  index = t.index;
  for (let n = 1; n <= 8; n++) await index.addBatch(Z, n, batchOf(Z, n, synthetic(n)));
  // Another zone with the same paths: its events are never answered for Z.
  await index.addBatch(OTHER, 1, batchOf(OTHER, 1, synthetic(0)));
});
afterAll(async () => t.remove());

const all = { canRead: () => true };

function rows(r: GraphqlResponse, field: string): Record<string, unknown>[] {
  expect(r.errors).toBeNull();
  return ((r.data!['viewer'] as Record<string, unknown>)['zones'] as Record<string, unknown>[])[0]![field] as Record<string, unknown>[];
}

/** Every event of Z, through the time index alone, oldest first. */
const everyEvent = () => [...index.scan(Z, { from: 0, to: kMaxTime, descending: false })];

const kFilters: Record<string, unknown>[] = [
  { clientRequestPath: '/admin' },
  { clientRequestPath: '/nowhere' },
  { clientRequestPath: '' },
  { clientRequestPath_in: ['/login', '/api/v1/items/10', '/nowhere'] },
  { clientRequestPath_in: [] },
  { clientRequestPath_like: '/api/v1/items/1%' },
  { clientRequestPath_like: '/admin%' },
  { clientRequestPath_like: '/admin/%' },
  { clientRequestPath_like: '/p_x' },
  { clientRequestPath_like: '/p\\_%' },
  { clientRequestPath_like: '%items%' },
  { clientRequestPath_neq: kBulk },
  { clientRequestPath_notlike: '/static/%', datetime_geq: '2026-05-01T14:17:00Z', datetime_leq: '2026-05-01T14:17:00Z' },
  { clientRequestPath_like: '_%' },
  { clientRequestPath_neq: '/login' },
  { clientRequestPath_notin: ['/login', '/admin'] },
  { clientRequestPath_notlike: '/api/%' },
  { clientRequestPath: '/login', ruleId: 'us-ssn' },
  { clientRequestPath_like: '/api/%', clientRequestHTTPHost: 'shop.example', edgeResponseStatus: 404 },
  { clientRequestPath_in: ['/login', '/admin'], datetime_geq: '2026-05-01T11:30:00Z', datetime_lt: '2026-05-01T15:05:00Z' },
  { OR: [{ clientRequestPath: '/login' }, { clientRequestPath_like: '/admin%', ruleId: 'iban' }] },
  { OR: [{ clientRequestPath: '/login' }, { ruleId: 'iban' }] },
  { OR: [] },
  { AND: [{ clientRequestPath_like: '/api/%' }, { clientRequestPath_in: ['/api/v1/items/2', '/login'] }] },
  { AND: [{ OR: [{ clientRequestPath: '/admin' }, { clientRequestPath: '/p_x' }] }, { datetime_gt: '2026-05-01T12:00:00Z' }], source: 'dlp' },
  { clientRequestPath: '/admin', source: 'waf' },
  { clientRequestPath: '/admin', datetime_neq: '2026-05-01T12:00:00Z' },
];

describe('lists over the path index', () => {
  it.each(kFilters.map((f) => [JSON.stringify(f), f]))('%s: the events a scan of every event finds, in order', async (_, filter) => {
    const test = compileFilter(filter).test;
    for (const order of ['datetime_ASC', 'datetime_DESC']) {
      for (const limit of [1, 7, 10_000]) {
        const r = await executeEventsQuery(index, {
          query: `query ($f: FirewallEventsAdaptiveFilter_InputObject) { viewer { zones(filter: { zoneTag: "${Z}" }) {
            firewallEventsAdaptive(filter: $f, limit: ${limit}, orderBy: [${order}]) { datetime ruleId clientRequestHTTPHost clientRequestPath edgeResponseStatus rayName } } } }`,
          variables: { f: filter },
        }, all);
        const scanned = everyEvent().filter(test);
        if (order === 'datetime_DESC') scanned.reverse();
        const want = scanned.slice(0, limit).map((e) => {
          const v = eventView(e);
          return { datetime: v['datetime'], ruleId: v['ruleId'], clientRequestHTTPHost: v['clientRequestHTTPHost'], clientRequestPath: v['clientRequestPath'], edgeResponseStatus: v['edgeResponseStatus'], rayName: v['rayName'] };
        });
        expect(rows(r, 'firewallEventsAdaptive')).toEqual(want);
      }
    }
  });
});

describe('the path index', () => {
  it('gives where the events of a path in a range are, in the time index order', () => {
    const from = Date.parse('2026-05-01T11:42:10.5Z');
    const to = Date.parse('2026-05-01T14:05:00Z');
    for (const path of [...kPaths, kBulk]) {
      for (const descending of [false, true]) {
        const want = [...index.scan(Z, { from, to, descending })].filter((e) => e.path === path).map(({ ms, batch, seq }) => ({ ms, batch, seq }));
        expect([...index.pathKeys(Z, path, { from, to, descending })]).toEqual(want);
      }
    }
    expect([...index.pathKeys(Z, kBulk, { from, to: from, descending: false })]).toEqual([]);
  });
});

describe('groups over the path totals and the path index', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, ['clientRequestPath']],
    [{}, ['clientRequestPath', 'datetimeHour']],
    [{ datetime_geq: '2026-05-01T10:40:00Z', datetime_lt: '2026-05-01T16:20:00Z' }, ['clientRequestPath', 'date', 'source']],
    [{ datetime_geq: '2026-05-01T10:40:00Z', datetime_lt: '2026-05-01T16:20:00Z', clientRequestPath_like: '/admin%' }, ['clientRequestPath', 'datetimeHour']],
    [{ clientRequestPath_notin: ['/login'] }, ['clientRequestPath']],
    [{ clientRequestPath_notin: [kBulk] }, ['ruleId']],
    [{ clientRequestPath: '/login' }, ['ruleId', 'clientRequestHTTPHost']],
    [{ clientRequestPath_in: ['/admin', '/p_x'], ruleId_neq: 'iban' }, ['clientRequestPath', 'ruleId']],
    [{ clientRequestPath: '/login', datetime_neq: '2026-05-01T12:00:00Z' }, ['clientRequestPath', 'datetimeHour']],
  ];

  it.each(cases.map(([f, d]) => [`${JSON.stringify(f)} by ${d.join(', ')}`, f, d] as const))('%s: the counts of a scan of every event', async (_, filter, dims) => {
    const r = await executeEventsQuery(index, {
      query: `query ($f: FirewallEventsAdaptiveGroupsFilter_InputObject) { viewer { zones(filter: { zoneTag: "${Z}" }) {
        firewallEventsAdaptiveGroups(filter: $f, limit: 10000) { count dimensions { ${dims.join(' ')} } } } } }`,
      variables: { f: filter },
    }, all);
    const test = compileFilter(filter).test;
    const want = new Map<string, number>();
    for (const e of everyEvent().filter(test)) {
      const key = JSON.stringify(dims.map((d) => dimensionOf(d, e)));
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    const got = new Map(rows(r, 'firewallEventsAdaptiveGroups').map((g) => [JSON.stringify(dims.map((d) => (g['dimensions'] as Record<string, unknown>)[d])), g['count']]));
    expect(got).toEqual(want);
  });
});

describe('an index written before the path index', () => {
  it('is emptied on open with a log line, and the catch-up rebuilds it whole', async () => {
    const u = tempIndex();
    const stored = new Map([1, 2, 3].map((n) => [n, batchOf(Z, n, synthetic(n))]));
    const source = { zones: async () => [Z], batches: async () => [1, 2, 3], read: async (_z: string, n: number) => stored.get(n) ?? null };
    const lines: string[] = [];
    try {
      const fresh = openEventIndex(join(u.dir, 'fresh.mdb'), { log: (l) => lines.push(l) });
      expect(fresh.replacedFormat).toBeUndefined();
      await fresh.close();
      expect(lines).toEqual([]);
      // Format 2 as it was: the time index, the hourly totals and the batches, no path tables.
      await u.index.catchUp(source);
      await u.index.close();
      const env = openLmdb({ path: join(u.dir, 'events-index.mdb') });
      for (const name of ['paths', 'pathHours', 'pathNames', 'totals', 'requests']) await env.openDB({ name }).clearAsync();
      await env.openDB<number, string>({ name: 'meta' }).put('format', 2);
      await env.close();
      const again = openEventIndex(join(u.dir, 'events-index.mdb'), { log: (l) => lines.push(l) });
      try {
        expect(again.replacedFormat).toBe(2);
        expect(lines).toEqual([`events index: format 2 found, emptied to be rebuilt as format ${kIndexFormat} from the stored batches`]);
        expect(again.zones()).toEqual([]);
        expect(await again.catchUp(source)).toEqual({ batches: 3, events: 225 });
        const r = await executeEventsQuery(again, { query: `{ viewer { zones(filter: { zoneTag: "${Z}" }) { firewallEventsAdaptiveGroups(limit: 100, filter: { clientRequestPath_neq: "${kBulk}" }) { count } } } }` }, all);
        const want = [1, 2, 3].flatMap((n) => synthetic(n)).filter((e) => e.path !== kBulk).length;
        expect(rows(r, 'firewallEventsAdaptiveGroups')).toEqual([{ count: want }]);
      } finally {
        await again.close();
      }
      // Opened again, it is kept.
      const kept = openEventIndex(join(u.dir, 'events-index.mdb'), { log: (l) => lines.push(l) });
      expect(kept.replacedFormat).toBeUndefined();
      expect(kept.zones()).toEqual([Z]);
      await kept.close();
      expect(lines).toHaveLength(1);
    } finally {
      await u.remove();
    }
  });
});
