/**
 * The GraphQL events query over an index of synthetic batches: Cloudflare's tutorial query, the filter
 * operators, ordering, limits, the groups query (hourly totals and single events agree), zone scoping
 * and the GraphQL errors for what the schema does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { executeEventsQuery, openEventIndex, type EventIndex, type EventsAccess, type GraphqlResponse } from '../../src/events/index.js';
import { batchOf, tempIndex, type SyntheticEvent } from './helpers.js';

const Z = 'a1'.repeat(16);
const OTHER = 'b2'.repeat(16);

// 2026-05-01: one event every 20 minutes from 10:00 to 13:40 (12 events), rules and hosts alternating.
const day: SyntheticEvent[] = Array.from({ length: 12 }, (_, i) => ({
  at: new Date(Date.UTC(2026, 4, 1, 10, i * 20)).toISOString(),
  ruleId: ['card-visa', 'us-ssn', 'email-address'][i % 3]!,
  host: i % 2 === 0 ? 'shop.example' : 'api.example',
  path: `/p/${i}`,
  status: i % 4 === 0 ? 404 : 200,
}));

let t: ReturnType<typeof tempIndex>;
let index: EventIndex;

beforeAll(async () => {
  t = tempIndex();
  index = t.index;
  await index.addBatch(Z, 1, batchOf(Z, 1, day.slice(0, 7)));
  await index.addBatch(Z, 2, batchOf(Z, 2, day.slice(7)));
  await index.addBatch(OTHER, 1, batchOf(OTHER, 1, [{ at: '2026-05-01T10:30:00Z', ruleId: 'card-visa' }]));
});
afterAll(async () => t.remove());

const all: EventsAccess = { canRead: () => true };
const q = (query: string, variables?: Record<string, unknown>, access: EventsAccess = all): Promise<GraphqlResponse> => executeEventsQuery(index, { query, variables }, access);

type Row = Record<string, unknown>;
function events(r: GraphqlResponse, field = 'firewallEventsAdaptive'): Row[] {
  expect(r.errors).toBeNull();
  return ((r.data!['viewer'] as Row)['zones'] as Row[])[0]![field] as Row[];
}

/** `firewallEventsAdaptive` of zone Z with this filter literal, oldest first, as path strings. */
async function paths(filter: string): Promise<string[]> {
  const r = await q(`{ viewer { zones(filter: { zoneTag: "${Z}" }) { firewallEventsAdaptive(filter: ${filter}, limit: 100, orderBy: [datetime_ASC]) { clientRequestPath } } } }`);
  return events(r).map((e) => e['clientRequestPath'] as string);
}
const p = (...i: number[]): string[] => i.map((n) => `/p/${n}`);

describe('firewallEventsAdaptive', () => {
  it("answers the query of Cloudflare's 'Querying Firewall Events with GraphQL' tutorial", async () => {
    // The tutorial's operation, variables and fields; only the zone tag and the hour are ours.
    const query = `query ListFirewallEvents($zoneTag: string, $filter: FirewallEventsAdaptiveFilter_InputObject) {
      viewer {
        zones(filter: { zoneTag: $zoneTag }) {
          firewallEventsAdaptive(
            filter: $filter
            limit: 10
            orderBy: [datetime_DESC]
          ) {
            action
            clientAsn
            clientCountryName
            clientIP
            clientRequestPath
            clientRequestQuery
            datetime
            source
            userAgent
          }
        }
      }
    }`;
    const r = await q(query, { zoneTag: Z, filter: { datetime_geq: '2026-05-01T11:00:00Z', datetime_leq: '2026-05-01T12:00:00Z' } });
    expect(events(r)).toEqual([6, 5, 4, 3].map((i) => ({
      action: 'log', clientAsn: '', clientCountryName: '', clientIP: '', clientRequestPath: `/p/${i}`, clientRequestQuery: '',
      datetime: new Date(Date.UTC(2026, 4, 1, 10, i * 20)).toISOString().replace('.000Z', 'Z'), source: 'dlp', userAgent: '',
    })));
  });

  it('returns the fields of the stored event under their Cloudflare names', async () => {
    const r = await q(`{ viewer { zones(filter: { zoneTag: "${Z}" }) { zoneTag firewallEventsAdaptive(limit: 1, orderBy: [datetime_ASC]) {
      action datetime ruleId rulesetId source description clientRequestHTTPHost clientRequestPath clientRequestHTTPMethodName edgeResponseStatus originResponseStatus rayName } } } }`);
    expect((r.data!['viewer'] as Row)['zones']).toEqual([{ zoneTag: Z, firewallEventsAdaptive: [{
      action: 'log', datetime: '2026-05-01T10:00:00Z', ruleId: 'card-visa', rulesetId: 'e22d83c647c64a3eae91b71b499d988e', source: 'dlp',
      description: 'rule card-visa', clientRequestHTTPHost: 'shop.example', clientRequestPath: '/p/0', clientRequestHTTPMethodName: 'GET',
      edgeResponseStatus: 404, originResponseStatus: 404, rayName: `${'0'.repeat(15)}1${'0'.repeat(16)}`,
    }] }]);
  });

  it('orders by datetime either way and stops at limit', async () => {
    const one = async (order: string, limit: number) =>
      events(await q(`{ viewer { zones(filter: { zoneTag: "${Z}" }) { firewallEventsAdaptive(limit: ${limit}, orderBy: [${order}]) { clientRequestPath } } } }`)).map((e) => e['clientRequestPath']);
    expect(await one('datetime_ASC', 3)).toEqual(p(0, 1, 2));
    expect(await one('datetime_DESC', 3)).toEqual(p(11, 10, 9));
    expect(await one('datetime_DESC', 100)).toEqual(p(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  });

  it('filters with the documented operators, AND and OR', async () => {
    expect(await paths('{ ruleId: "us-ssn" }')).toEqual(p(1, 4, 7, 10));
    expect(await paths('{ ruleId_in: ["us-ssn", "email-address"], datetime_lt: "2026-05-01T11:00:00Z" }')).toEqual(p(1, 2));
    expect(await paths('{ datetime_gt: "2026-05-01T10:20:00Z", datetime_leq: "2026-05-01T11:00:00Z" }')).toEqual(p(2, 3));
    expect(await paths('{ datetime_geq: "2026-05-01T10:20:00Z", datetime_lt: "2026-05-01T11:00:00Z" }')).toEqual(p(1, 2));
    expect(await paths('{ AND: [{ clientRequestHTTPHost: "api.example" }, { ruleId: "card-visa" }] }')).toEqual(p(3, 9));
    expect(await paths('{ OR: [{ clientRequestHTTPHost: "api.example" }, { ruleId: "card-visa" }] }')).toEqual(p(0, 1, 3, 5, 6, 7, 9, 11));
    expect(await paths('{ OR: [{ AND: [{ ruleId: "us-ssn" }, { datetime_geq: "2026-05-01T12:00:00Z" }] }, { edgeResponseStatus: 404 }] }')).toEqual(p(0, 4, 7, 8, 10));
    expect(await paths('{ source: "dlp", action: "log", ruleId_notin: ["card-visa", "us-ssn"] }')).toEqual(p(2, 5, 8, 11));
    expect(await paths('{ source: "waf" }')).toEqual([]);
    expect(await paths('{ clientRequestPath_like: "/p/1%" }')).toEqual(p(1, 10, 11));
    expect(await paths('{ ruleId: "us-ssn", clientRequestPath_like: "/p/1%" }')).toEqual(p(1, 10));
    expect(await paths('{ OR: [{ ruleId: "card-visa", clientRequestPath: "/p/3" }, { clientRequestPath_in: ["/p/4", "/p/5"] }] }')).toEqual(p(3, 4, 5));
  });

  it('reads only the zone asked for', async () => {
    const r = await q(`{ viewer { zones(filter: { zoneTag: "${OTHER}" }) { firewallEventsAdaptive(limit: 100) { ruleId } } } }`);
    expect(events(r)).toEqual([{ ruleId: 'card-visa' }]);
  });
});

describe('firewallEventsAdaptiveGroups', () => {
  const groups = async (args: string, dims: string): Promise<Row[]> =>
    events(await q(`{ viewer { zones(filter: { zoneTag: "${Z}" }) { firewallEventsAdaptiveGroups(${args}) { count dimensions { ${dims} } } } } }`), 'firewallEventsAdaptiveGroups');

  it('counts per rule, ordered by count', async () => {
    expect(await groups('limit: 10, orderBy: [count_DESC, ruleId_ASC]', 'ruleId source')).toEqual([
      { count: 4, dimensions: { ruleId: 'card-visa', source: 'dlp' } },
      { count: 4, dimensions: { ruleId: 'email-address', source: 'dlp' } },
      { count: 4, dimensions: { ruleId: 'us-ssn', source: 'dlp' } },
    ]);
    expect(await groups('limit: 1, orderBy: [ruleId_DESC]', 'ruleId')).toEqual([{ count: 4, dimensions: { ruleId: 'us-ssn' } }]);
  });

  it('counts per hour from hourly totals and from single events alike, partial hours included', async () => {
    // 10:30 to 12:50 covers two whole hours and the ends of two others.
    const filter = 'filter: { datetime_geq: "2026-05-01T10:30:00Z", datetime_lt: "2026-05-01T12:50:00Z" }';
    const byTotals = await groups(`${filter}, limit: 100, orderBy: [datetimeHour_ASC, ruleId_ASC]`, 'datetimeHour ruleId');
    // The same window through a filter key the totals do not hold: every event is read.
    const byEvents = await groups(`filter: { AND: [{ datetime_geq: "2026-05-01T10:30:00Z" }, { datetime_lt: "2026-05-01T12:50:00Z" }], clientRequestPath_like: "/p/%" }, limit: 100, orderBy: [datetimeHour_ASC, ruleId_ASC]`, 'datetimeHour ruleId');
    expect(byTotals).toEqual(byEvents);
    expect(byTotals.map((g) => [(g['dimensions'] as Row)['datetimeHour'], (g['dimensions'] as Row)['ruleId'], g['count']])).toEqual([
      ['2026-05-01T10:00:00Z', 'email-address', 1],
      ['2026-05-01T11:00:00Z', 'card-visa', 1],
      ['2026-05-01T11:00:00Z', 'email-address', 1],
      ['2026-05-01T11:00:00Z', 'us-ssn', 1],
      ['2026-05-01T12:00:00Z', 'card-visa', 1],
      ['2026-05-01T12:00:00Z', 'email-address', 1],
      ['2026-05-01T12:00:00Z', 'us-ssn', 1],
    ]);
  });

  it('counts per host and status from hourly totals and from single events alike', async () => {
    const window = 'datetime_geq: "2026-05-01T10:30:00Z", datetime_lt: "2026-05-01T12:50:00Z"';
    const byTotals = await groups(`filter: { ${window} }, limit: 100, orderBy: [datetimeHour_ASC, clientRequestHTTPHost_ASC, edgeResponseStatus_ASC]`, 'datetimeHour clientRequestHTTPHost edgeResponseStatus');
    const byEvents = await groups(`filter: { ${window}, clientRequestPath_like: "/p/%" }, limit: 100, orderBy: [datetimeHour_ASC, clientRequestHTTPHost_ASC, edgeResponseStatus_ASC]`, 'datetimeHour clientRequestHTTPHost edgeResponseStatus');
    expect(byTotals).toEqual(byEvents);
    expect(byTotals.reduce((n, g) => n + (g['count'] as number), 0)).toBe(7);
  });

  it('groups by any event dimension and filters on it', async () => {
    expect(await groups('filter: { clientRequestHTTPHost: "api.example" }, limit: 10, orderBy: [edgeResponseStatus_ASC]', 'clientRequestHTTPHost edgeResponseStatus')).toEqual([
      { count: 6, dimensions: { clientRequestHTTPHost: 'api.example', edgeResponseStatus: 200 } },
    ]);
    expect(await groups('limit: 10, orderBy: [date_ASC]', 'date')).toEqual([{ count: 12, dimensions: { date: '2026-05-01' } }]);
  });
});

describe('the index', () => {
  it('indexes a batch once, however often it is given', async () => {
    const u = tempIndex();
    try {
      const bytes = batchOf(Z, 1, day.slice(0, 3));
      expect(await u.index.addBatch(Z, 1, bytes)).toBe(3);
      expect(await u.index.addBatch(Z, 1, bytes)).toBe(0);
      expect([...u.index.hourCounts(Z, 0, Date.UTC(2030, 0))].reduce((s, h) => s + h.count, 0)).toBe(3);
    } finally {
      await u.remove();
    }
  });

  it('empties an index of another layout on open, and the catch-up rebuilds it', async () => {
    const u = tempIndex();
    const stored = batchOf(Z, 1, day.slice(0, 2));
    try {
      await u.index.addBatch(Z, 1, stored);
      await u.index.close();
      const env = openLmdb({ path: join(u.dir, 'events-index.mdb') });
      await env.openDB<number, string>({ name: 'meta' }).put('format', 1);
      await env.close();
      const again = openEventIndex(join(u.dir, 'events-index.mdb'));
      try {
        expect(again.zones()).toEqual([]);
        expect(await again.catchUp({ zones: async () => [Z], batches: async () => [1], read: async () => stored })).toEqual({ batches: 1, events: 2 });
        expect([...again.scan(Z, { from: 0, to: Date.UTC(2030, 0), descending: false })].map((e) => e.path)).toEqual(p(0, 1));
      } finally {
        await again.close();
      }
    } finally {
      await u.remove();
    }
  });

  it('catches up with the stored batches it lacks', async () => {
    const u = tempIndex();
    const stored = new Map([[1, batchOf(Z, 1, day.slice(0, 2))], [2, batchOf(Z, 2, day.slice(2, 5))]]);
    try {
      await u.index.addBatch(Z, 1, stored.get(1)!);
      const source = { zones: async () => [Z], batches: async () => [1, 2], read: async (_z: string, n: number) => stored.get(n) ?? null };
      expect(await u.index.catchUp(source)).toEqual({ batches: 1, events: 3 });
      expect(await u.index.catchUp(source)).toEqual({ batches: 0, events: 0 });
      expect([...u.index.scan(Z, { from: 0, to: Date.UTC(2030, 0), descending: false })].map((e) => e.path)).toEqual(p(0, 1, 2, 3, 4));
    } finally {
      await u.remove();
    }
  });
});

describe('long scans', () => {
  it('let the event loop run while they read', async () => {
    const u = tempIndex();
    try {
      const many = Array.from({ length: 1000 }, (_, i) => ({ at: new Date(Date.UTC(2026, 4, 2) + i * 1000).toISOString(), ruleId: 'card-visa' }));
      for (let n = 1; n <= 6; n++) await u.index.addBatch(Z, n, batchOf(Z, n, many.map((e) => ({ ...e, at: new Date(Date.parse(e.at) + n * 3_600_000).toISOString() }))));
      // A filter on the description (no index has it) reads every one of the 6,000 events.
      // Work queued before the query runs before the query ends: a scan that never yielded would end first.
      const order: string[] = [];
      setImmediate(() => order.push('other work'));
      await executeEventsQuery(u.index, { query: `{ viewer { zones(filter: { zoneTag: "${Z}" }) { firewallEventsAdaptive(limit: 10, filter: { description: "nowhere" }) { ruleId } } } }` }, all)
        .then((r) => order.push(`query ${JSON.stringify(r.errors)}`));
      expect(order).toEqual(['other work', 'query null']);
    } finally {
      await u.remove();
    }
  });
});

describe('zones a caller may not read', () => {
  const only = (zone: string) => ({ canRead: (z: string) => z === zone });

  it('refuses the whole query, with data null, as Cloudflare does', async () => {
    const r = await q(`{ viewer { zones(filter: { zoneTag_in: ["${Z}", "${OTHER}"] }) { firewallEventsAdaptive(limit: 1) { ruleId } } } }`, undefined, only(Z));
    expect(r.data).toBeNull();
    expect(r.errors).toMatchObject([{ message: `zones [${OTHER}] are not authorized`, path: ['viewer', 'zones'], extensions: { code: 'SDD_ERR_GRAPHQL_ZONE' } }]);
  });

  it('answers an unknown or malformed zone tag the same way', async () => {
    for (const tag of ['f'.repeat(32), 'shop.example']) {
      const r = await q(`{ viewer { zones(filter: { zoneTag: "${tag}" }) { zoneTag } } }`, undefined, only(Z));
      expect(r.errors?.[0]?.message).toBe(`zones [${tag}] are not authorized`);
    }
  });

  it('lists only readable zones when no zone is named', async () => {
    const r = await q('{ viewer { zones { zoneTag } } }', undefined, only(OTHER));
    expect(r).toEqual({ data: { viewer: { zones: [{ zoneTag: OTHER }] } }, errors: null });
  });
});

describe('GraphQL errors', () => {
  const codeOf = async (query: string, variables?: Record<string, unknown>): Promise<[string | undefined, string | undefined]> => {
    const r = await q(query, variables);
    expect(r.data).toBeNull();
    return [r.errors?.[0]?.extensions.code, r.errors?.[0]?.message];
  };
  const zone = `zones(filter: { zoneTag: "${Z}" })`;

  it('refuses unknown fields, arguments, filter keys and enum values at validation', async () => {
    expect(await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 1) { clientSecret } } } }`)).toEqual(['SDD_ERR_GRAPHQL_VALIDATION', 'Cannot query field "clientSecret" on type "ZoneFirewallEventsAdaptive".']);
    expect(await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 1, offset: 5) { ruleId } } } }`)).toEqual(['SDD_ERR_GRAPHQL_VALIDATION', 'Unknown argument "offset" on field "zone.firewallEventsAdaptive".']);
    const [code, message] = await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 1, filter: { ruleID: "x" }) { ruleId } } } }`);
    expect(code).toBe('SDD_ERR_GRAPHQL_VALIDATION');
    expect(message).toContain('"ruleID" is not defined by type "FirewallEventsAdaptiveFilter_InputObject"');
    expect((await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 1, orderBy: [ruleId_ASC]) { ruleId } } } }`))[0]).toBe('SDD_ERR_GRAPHQL_VALIDATION');
    expect((await codeOf('mutation { viewer }'))[0]).toBe('SDD_ERR_GRAPHQL_VALIDATION');
  });

  it('refuses an unknown filter key given in variables', async () => {
    const query = `query ($f: FirewallEventsAdaptiveFilter_InputObject) { viewer { ${zone} { firewallEventsAdaptive(filter: $f, limit: 1) { ruleId } } } }`;
    const [code, message] = await codeOf(query, { f: { clientIP_geq: '1.2.3.4' } });
    expect(code).toBe('SDD_ERR_GRAPHQL_VALIDATION');
    expect(message).toContain('clientIP_geq');
  });

  it('refuses bad argument values', async () => {
    expect(await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 1, filter: { datetime_geq: "yesterday" }) { ruleId } } } }`)).toEqual(['SDD_ERR_GRAPHQL_ARGUMENT', 'error parsing args: datetime_geq: "yesterday" is not an RFC 3339 time such as 2026-05-01T12:00:00Z']);
    expect(await codeOf(`{ viewer { ${zone} { firewallEventsAdaptive(limit: 10001) { ruleId } } } }`)).toEqual(['SDD_ERR_GRAPHQL_ARGUMENT', 'error parsing args: limit must be an integer from 1 to 10000']);
    expect((await codeOf(`{ viewer { ${zone} { firewallEventsAdaptiveGroups(limit: 5, orderBy: [ruleId_ASC]) { count } } } }`))[0]).toBe('SDD_ERR_GRAPHQL_ARGUMENT');
    const eleven = Array.from({ length: 11 }, (_, i) => `"${i.toString(16).padStart(32, '0')}"`).join(', ');
    expect(await codeOf(`{ viewer { zones(filter: { zoneTag_in: [${eleven}] }) { zoneTag } } }`)).toEqual(['SDD_ERR_GRAPHQL_ARGUMENT', 'error parsing args: at most 10 zones per query']);
  });

  it('refuses what is not a GraphQL request or not GraphQL', async () => {
    expect((await executeEventsQuery(index, { variables: {} }, all)).errors?.[0]?.extensions.code).toBe('SDD_ERR_GRAPHQL_REQUEST');
    expect((await codeOf('{ viewer { zones( } }'))[0]).toBe('SDD_ERR_GRAPHQL_SYNTAX');
  });
});
