import { isManagedRulesetId, managedRulesetView, managedSummary, RulesetsApiError, type RulesetService } from '../rulesets/index.js';
import type { TokenInfo } from './tokens.js';

/** Answers a GraphQL request body for a token (the events query, src/events; mounted by service.ts). */
export type GraphqlEndpoint = (body: unknown, token: TokenInfo) => Promise<unknown>;

/** A zone's Logpush jobs (src/logpush; mounted by service.ts); refusals are LeakscanErrors with a v4 number. */
export interface LogpushEndpoint {
  list(zone: string): Promise<unknown[]>;
  create(zone: string, body: unknown, dryRun: boolean): Promise<unknown>;
  get(zone: string, id: number): Promise<unknown>;
  update(zone: string, id: number, body: unknown, dryRun: boolean): Promise<unknown>;
  remove(zone: string, id: number, dryRun: boolean): Promise<unknown>;
}

/** One Notifications API call (src/alerts answers it; mounted by service.ts). */
export interface AlertingCall {
  method: string;
  resource: 'webhooks' | 'policies' | 'history' | 'available_alerts';
  account: string;
  id: string | undefined;
  body: unknown;
  query: URLSearchParams;
  /** The token's zones (`['*']` = every zone) and permission: all an alerting call needs of it. */
  token: Pick<TokenInfo, 'zones' | 'permission'>;
  dryRun: boolean;
}
export type AlertingEndpoint = (call: AlertingCall) => Promise<{ result: unknown; resultInfo?: Record<string, unknown> }>;

export interface RouteContext {
  service: RulesetService;
  graphql: GraphqlEndpoint | undefined;
  alerting?: AlertingEndpoint | undefined;
  logpush?: LogpushEndpoint | undefined;
  params: Record<string, string>;
  query: URLSearchParams;
  dryRun: boolean;
  token: TokenInfo;
  body: unknown;
}

export interface RouteResult {
  status?: 200 | 204;
  result?: unknown;
  /** A body sent as it is, without the v4 envelope (GraphQL answers `{ data, errors }`). */
  raw?: unknown;
  resultInfo?: Record<string, unknown>;
}

type Handler = (ctx: RouteContext) => Promise<RouteResult>;

interface Route {
  pattern: string[];
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;
  /** Every method only reads (a POST that carries a query): a read token may call it. */
  readOnly?: true;
}

/** Path parameters and what a valid one looks like (anything else is Cloudflare's 7003). */
const kParams: Record<string, RegExp> = {
  zone: /^[0-9a-f]{32}$/,
  account: /^[0-9a-f]{32}$/,
  ruleset: /^[0-9a-f]{32}$/,
  rule: /^[0-9a-f]{32}$/,
  version: /^[1-9][0-9]{0,9}$/,
  phase: /^[a-z][a-z0-9_]{0,63}$/,
  tag: /^[A-Za-z0-9_.-]{1,64}$/,
  job: /^[1-9][0-9]{0,9}$/,
  webhook: /^[0-9a-f]{32}$/,
  policy: /^[0-9a-f]{32}$/,
};

const ok = (result: unknown): RouteResult => ({ result });
const noContent: RouteResult = { status: 204 };
const w = (ctx: RouteContext) => ({ dryRun: ctx.dryRun });

function page<T>(items: T[], query: URLSearchParams): RouteResult {
  const perPageText = query.get('per_page');
  const perPage = perPageText === null ? 100 : Number(perPageText);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 1000) {
    throw new RulesetsApiError('INVALID_VALUE', `'${perPageText ?? ''}' is not a valid value for per_page because it must be an integer from 1 to 1000`);
  }
  const cursor = query.get('cursor');
  let from = 0;
  if (cursor !== null) {
    from = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isInteger(from) || from < 0) throw new RulesetsApiError('INVALID_VALUE', `'${cursor}' is not a valid value for cursor because it was not given by this API`);
  }
  const slice = items.slice(from, from + perPage);
  const more = from + perPage < items.length;
  return { result: slice, resultInfo: more ? { cursor: Buffer.from(String(from + perPage)).toString('base64url'), per_page: perPage } : { per_page: perPage } };
}

const z = 'zones/:zone/rulesets';
const a = 'accounts/:account/rulesets';
const al = 'accounts/:account/alerting/v3';

/** Handlers of an alerting route: each method is one call of the Notifications API (src/alerts). */
function alerting(resource: AlertingCall['resource'], id: string | null, ...methods: ('GET' | 'POST' | 'PUT' | 'DELETE')[]): Route['methods'] {
  const one = (method: string): Handler => async (c) => {
    if (c.alerting === undefined) throw new RulesetsApiError('NO_ROUTE');
    return c.alerting({ method, resource, account: c.params['account']!, id: id === null ? undefined : c.params[id], body: c.body, query: c.query, token: c.token, dryRun: c.dryRun });
  };
  return Object.fromEntries(methods.map((m) => [m, one(m)]));
}

/**
 * The route table, mirroring Cloudflare's REST paths (and the SDK's `rulesets`, `rulesets.rules`,
 * `rulesets.versions`, `rulesets.phases`, `rulesets.phases.versions` resources). Account paths are
 * read-only: there the managed ruleset is listed, as Cloudflare lists managed rulesets per account.
 */
const kRoutes: Route[] = [
  {
    pattern: [z],
    methods: {
      GET: async (c) => page(await c.service.listRulesets(c.params['zone']!), c.query),
      POST: async (c) => ok(await c.service.createRuleset(c.params['zone']!, c.body, w(c))),
    },
  },
  {
    pattern: [z, 'phases/:phase/entrypoint'],
    methods: {
      GET: async (c) => ok(await c.service.getEntrypoint(c.params['zone']!, c.params['phase']!)),
      PUT: async (c) => ok(await c.service.updateEntrypoint(c.params['zone']!, c.params['phase']!, c.body, w(c))),
    },
  },
  {
    pattern: [z, 'phases/:phase/entrypoint/versions'],
    methods: { GET: async (c) => ok(await c.service.entrypointVersions(c.params['zone']!, c.params['phase']!)) },
  },
  {
    pattern: [z, 'phases/:phase/entrypoint/versions/:version'],
    methods: { GET: async (c) => ok(await c.service.entrypointVersion(c.params['zone']!, c.params['phase']!, c.params['version']!)) },
  },
  {
    pattern: [z, ':ruleset'],
    methods: {
      GET: async (c) => ok(await c.service.getRuleset(c.params['zone']!, c.params['ruleset']!)),
      PUT: async (c) => ok(await c.service.updateRuleset(c.params['zone']!, c.params['ruleset']!, c.body, w(c))),
      DELETE: async (c) => (await c.service.deleteRuleset(c.params['zone']!, c.params['ruleset']!, w(c)), noContent),
    },
  },
  {
    pattern: [z, ':ruleset/rules'],
    methods: { POST: async (c) => ok(await c.service.addRule(c.params['zone']!, c.params['ruleset']!, c.body, w(c))) },
  },
  {
    pattern: [z, ':ruleset/rules/:rule'],
    methods: {
      PATCH: async (c) => ok(await c.service.editRule(c.params['zone']!, c.params['ruleset']!, c.params['rule']!, c.body, w(c))),
      DELETE: async (c) => ok(await c.service.deleteRule(c.params['zone']!, c.params['ruleset']!, c.params['rule']!, w(c))),
    },
  },
  {
    pattern: [z, ':ruleset/versions'],
    methods: { GET: async (c) => ok(await c.service.listVersions(c.params['zone']!, c.params['ruleset']!)) },
  },
  {
    pattern: [z, ':ruleset/versions/:version'],
    methods: {
      GET: async (c) => ok(await c.service.getVersion(c.params['zone']!, c.params['ruleset']!, c.params['version']!)),
      DELETE: async (c) => (await c.service.deleteVersion(c.params['zone']!, c.params['ruleset']!, c.params['version']!, w(c)), noContent),
    },
  },
  {
    pattern: [z, ':ruleset/versions/:version/by_tag/:tag'],
    methods: { GET: async (c) => ok(c.service.managedByTag(c.params['ruleset']!, c.params['version']!, c.params['tag']!)) },
  },
  {
    pattern: [a],
    methods: { GET: async (c) => page([managedSummary()], c.query) },
  },
  {
    pattern: [a, ':ruleset'],
    methods: { GET: async (c) => ok((managedOnly(c), managedRulesetView())) },
  },
  {
    pattern: [a, ':ruleset/versions'],
    methods: { GET: async (c) => ok((managedOnly(c), [managedSummary()])) },
  },
  {
    pattern: [a, ':ruleset/versions/:version'],
    methods: { GET: async (c) => ok((managedOnly(c), c.service.managedByTag(c.params['ruleset']!, c.params['version']!, undefined))) },
  },
  {
    pattern: [a, ':ruleset/versions/:version/by_tag/:tag'],
    methods: { GET: async (c) => ok(c.service.managedByTag(c.params['ruleset']!, c.params['version']!, c.params['tag']!)) },
  },
  // The Notifications API (SDK `alerting.*`): the service's one account id, an all-zones token (src/alerts).
  { pattern: [al, 'destinations/webhooks'], methods: alerting('webhooks', null, 'GET', 'POST') },
  { pattern: [al, 'destinations/webhooks/:webhook'], methods: alerting('webhooks', 'webhook', 'GET', 'PUT', 'DELETE') },
  { pattern: [al, 'policies'], methods: alerting('policies', null, 'GET', 'POST') },
  { pattern: [al, 'policies/:policy'], methods: alerting('policies', 'policy', 'GET', 'PUT', 'DELETE') },
  { pattern: [al, 'history'], methods: alerting('history', null, 'GET') },
  { pattern: [al, 'available_alerts'], methods: alerting('available_alerts', null, 'GET') },
  {
    // Cloudflare's GraphQL Analytics endpoint; each zone the query names is checked against the token there.
    pattern: ['graphql'],
    readOnly: true,
    methods: {
      POST: async (c) => {
        if (c.graphql === undefined) throw new RulesetsApiError('NO_ROUTE');
        return { raw: await c.graphql(c.body, c.token) };
      },
    },
  },
  {
    pattern: ['zones/:zone/logpush/jobs'],
    methods: {
      GET: async (c) => ok(await lp(c).list(c.params['zone']!)),
      POST: async (c) => ok(await lp(c).create(c.params['zone']!, c.body, c.dryRun)),
    },
  },
  {
    pattern: ['zones/:zone/logpush/jobs/:job'],
    methods: {
      GET: async (c) => ok(await lp(c).get(c.params['zone']!, Number(c.params['job']))),
      PUT: async (c) => ok(await lp(c).update(c.params['zone']!, Number(c.params['job']), c.body, c.dryRun)),
      DELETE: async (c) => ok(await lp(c).remove(c.params['zone']!, Number(c.params['job']), c.dryRun)),
    },
  },
  {
    pattern: ['user/tokens/verify'],
    methods: { GET: async (c) => ok({ id: c.token.id, status: 'active' }) },
  },
];

/** The Logpush jobs endpoint, or `7000 No route` when the service runs without it. */
function lp(c: RouteContext): LogpushEndpoint {
  if (c.logpush === undefined) throw new RulesetsApiError('NO_ROUTE');
  return c.logpush;
}

/** Account routes serve only the managed ruleset, which is the same for every zone. */
function managedOnly(c: RouteContext): void {
  if (!isManagedRulesetId(c.params['ruleset']!)) throw new RulesetsApiError('RULESET_NOT_FOUND', `could not find ruleset ${c.params['ruleset']!}`);
}

const kCompiled = kRoutes.map((r) => ({ ...r, segments: r.pattern.join('/').split('/') }));

export type RouteMatch =
  | { handler: Handler; params: Record<string, string>; write: boolean; body: boolean }
  | { error: 'no-route' | 'bad-id' | 'method' };

/**
 * Finds the route for a method and a path below `/client/v4`. A path whose shape matches a route but
 * whose identifier is malformed is `bad-id` (Cloudflare's 7003); no shape at all is `no-route` (7000).
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split('/').filter((p, i) => !(i === 0 && p === ''));
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  let badId = false;
  for (const route of kCompiled) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let shape = true;
    let valid = true;
    for (let i = 0; i < parts.length; i++) {
      const seg = route.segments[i]!;
      let part: string;
      try {
        part = decodeURIComponent(parts[i]!);
      } catch {
        part = parts[i]!;
        valid = false;
      }
      if (seg.startsWith(':')) {
        const name = seg.slice(1);
        if (!kParams[name]!.test(part)) valid = false;
        params[name] = part;
      } else if (seg !== part) {
        shape = false;
        break;
      }
    }
    if (!shape) continue;
    if (!valid) {
      badId = true;
      continue;
    }
    const handler = route.methods[method as keyof Route['methods']];
    if (handler === undefined) return { error: 'method' };
    return { handler, params, write: method !== 'GET' && route.readOnly !== true, body: method === 'POST' || method === 'PUT' || method === 'PATCH' };
  }
  return { error: badId ? 'bad-id' : 'no-route' };
}
