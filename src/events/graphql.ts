/**
 * Executes a GraphQL request against the events index with graphql-js: parse, validate against the
 * schema (unknown fields, arguments and types are refused there), execute with the resolvers below.
 * The answer has Cloudflare's shape: `{ data, errors }`, `errors` null when there are none, each error
 * with `message`, `path`, `locations` and `extensions: { code, timestamp }`.
 */
import { execute, GraphQLError, Kind, parse, validate, type DocumentNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { kCodes, type Code } from '../errors.js';
import { eventView } from './fields.js';
import { groupEvents, listEvents } from './query.js';
import { eventsSchema, kDimensions } from './schema.js';
import type { EventIndex } from './store.js';

/** What the caller may read: the API passes its token's zones, the CLI (the data directory's owner) every zone. */
export interface EventsAccess {
  canRead(zone: string): boolean;
}

export interface GraphqlError {
  message: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  extensions: { code: Code; timestamp: string };
}

export interface GraphqlResponse {
  data: Record<string, unknown> | null;
  errors: GraphqlError[] | null;
}

/** Largest `limit` of a dataset query, Cloudflare's for `firewallEventsAdaptive`. */
export const kMaxLimit = 10_000;
/** Zones one query may read (Cloudflare's endpoint answers at most 10 at once), bounding a query's work. */
export const kMaxZones = 10;
const kDefaultLimit = 100;
const kZoneTag = /^[0-9a-f]{32}$/;

interface Context {
  index: EventIndex;
  access: EventsAccess;
}

function coded(code: Code, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

function limitOf(v: unknown): number {
  if (v === undefined || v === null) return kDefaultLimit;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > kMaxLimit) {
    throw coded('SDD_ERR_GRAPHQL_ARGUMENT', `error parsing args: limit must be an integer from 1 to ${kMaxLimit}`);
  }
  return v;
}

/** Names of the fields selected under `selections`, through fragments. */
function selectedNames(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, out: Set<string>): Set<string> {
  for (const s of set?.selections ?? []) {
    if (s.kind === Kind.FIELD) out.add(s.name.value);
    else if (s.kind === Kind.INLINE_FRAGMENT) selectedNames(s.selectionSet, fragments, out);
    else selectedNames(fragments[s.name.value]?.selectionSet, fragments, out);
  }
  return out;
}

/** The dimensions a groups field selects (`dimensions { ruleId datetimeHour }` → both). */
function selectedDimensions(info: GraphQLResolveInfo): string[] {
  const names = new Set<string>();
  for (const node of info.fieldNodes) {
    for (const s of node.selectionSet?.selections ?? []) {
      if (s.kind === Kind.FIELD && s.name.value === 'dimensions') selectedNames(s.selectionSet, info.fragments, names);
      else if (s.kind !== Kind.FIELD) {
        // `... on ZoneFirewallEventsAdaptiveGroups { dimensions { … } }`
        const inner = s.kind === Kind.INLINE_FRAGMENT ? s.selectionSet : info.fragments[s.name.value]?.selectionSet;
        for (const t of inner?.selections ?? []) if (t.kind === Kind.FIELD && t.name.value === 'dimensions') selectedNames(t.selectionSet, info.fragments, names);
      }
    }
  }
  return [...names].filter((n) => n in kDimensions);
}

interface DatasetArgs {
  filter?: Record<string, unknown> | null;
  limit?: unknown;
  orderBy?: string[] | null;
}

function zoneNode(tag: string, ctx: Context): Record<string, unknown> {
  return {
    zoneTag: tag,
    firewallEventsAdaptive: (args: DatasetArgs) => {
      const descending = (args.orderBy ?? ['datetime_DESC'])[0] !== 'datetime_ASC';
      return listEvents(ctx.index, tag, { filter: args.filter, limit: limitOf(args.limit), descending }).then((events) => events.map(eventView));
    },
    firewallEventsAdaptiveGroups: (args: DatasetArgs, _ctx: Context, info: GraphQLResolveInfo) => {
      const dimensions = selectedDimensions(info);
      for (const o of args.orderBy ?? []) {
        const name = o.slice(0, o.lastIndexOf('_'));
        if (name !== 'count' && !dimensions.includes(name)) throw coded('SDD_ERR_GRAPHQL_ARGUMENT', `error parsing args: orderBy ${o}: ${name} is not a selected dimension`);
      }
      return groupEvents(ctx.index, tag, { filter: args.filter, limit: limitOf(args.limit), dimensions, orderBy: args.orderBy ?? [] });
    },
  };
}

interface ZonesArgs {
  filter?: { zoneTag?: string | null; zoneTag_in?: string[] | null; zoneTag_gt?: string | null } | null;
  limit?: unknown;
}

/** The zones a `zones(filter:)` names; any the caller may not read refuses the whole query, as on Cloudflare. */
function zonesOf(args: ZonesArgs, ctx: Context): Record<string, unknown>[] {
  const f = args.filter ?? {};
  const named = f.zoneTag != null ? [f.zoneTag] : f.zoneTag_in != null ? f.zoneTag_in : null;
  let tags: string[];
  if (named !== null) {
    if (named.length > kMaxZones) throw coded('SDD_ERR_GRAPHQL_ARGUMENT', `error parsing args: at most ${kMaxZones} zones per query`);
    const refused = named.filter((t) => !kZoneTag.test(t) || !ctx.access.canRead(t));
    if (refused.length > 0) throw coded('SDD_ERR_GRAPHQL_ZONE', `zones [${refused.join(' ')}] are not authorized`);
    tags = [...new Set(named)];
  } else {
    tags = ctx.index.zones().filter((t) => ctx.access.canRead(t)).sort();
  }
  if (f.zoneTag_gt != null) tags = tags.filter((t) => t > f.zoneTag_gt!);
  return tags.slice(0, Math.min(kMaxZones, limitOf(args.limit))).map((t) => zoneNode(t, ctx));
}

function formatError(e: GraphQLError, fallback: Code, onError: (err: unknown) => void): GraphqlError {
  let code = e.extensions?.['code'] as Code | undefined;
  let message = e.message;
  if (code === undefined || !(code in kCodes)) {
    if (e.originalError !== undefined && !(e.originalError instanceof GraphQLError)) {
      // A bug or a storage failure: logged, and answered without its details.
      onError(e.originalError);
      code = 'SDD_ERR_GRAPHQL_INTERNAL';
      message = kCodes.SDD_ERR_GRAPHQL_INTERNAL.message;
    } else {
      code = fallback;
    }
  }
  return {
    message,
    ...(e.path === undefined ? {} : { path: e.path }),
    ...(e.locations === undefined ? {} : { locations: e.locations }),
    extensions: { code, timestamp: new Date().toISOString() },
  };
}

function failed(code: Code, errors: readonly GraphQLError[], onError: (err: unknown) => void): GraphqlResponse {
  return { data: null, errors: errors.map((e) => formatError(e, code, onError)) };
}

/**
 * Answers one GraphQL request body (`{ query, variables?, operationName? }`).
 * @example
 * const answer = await executeEventsQuery(index, { query: '{ viewer { zones(filter: { zoneTag: "…" }) { firewallEventsAdaptive(limit: 10) { ruleId datetime } } } }' }, { canRead: () => true });
 */
export async function executeEventsQuery(index: EventIndex, body: unknown, access: EventsAccess, onError: (err: unknown) => void = () => {}): Promise<GraphqlResponse> {
  const req = (typeof body === 'object' && body !== null ? body : {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
  if (typeof req.query !== 'string' || (req.variables != null && typeof req.variables !== 'object') || (req.operationName != null && typeof req.operationName !== 'string')) {
    return failed('SDD_ERR_GRAPHQL_REQUEST', [new GraphQLError(kCodes.SDD_ERR_GRAPHQL_REQUEST.message)], onError);
  }
  let document: DocumentNode;
  try {
    document = parse(req.query);
  } catch (e) {
    if (e instanceof GraphQLError) return failed('SDD_ERR_GRAPHQL_SYNTAX', [e], onError);
    throw e;
  }
  const schema = eventsSchema();
  const invalid = validate(schema, document);
  if (invalid.length > 0) return failed('SDD_ERR_GRAPHQL_VALIDATION', invalid, onError);
  const ctx: Context = { index, access };
  const result = await execute({
    schema,
    document,
    rootValue: { viewer: () => ({ zones: (args: ZonesArgs) => zonesOf(args, ctx) }) },
    contextValue: ctx,
    variableValues: (req.variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: (req.operationName ?? undefined) as string | undefined,
  });
  // Errors without a path come from coercing variables against their declared types.
  const errors = result.errors?.map((e) => formatError(e, e.path === undefined ? 'SDD_ERR_GRAPHQL_VALIDATION' : 'SDD_ERR_GRAPHQL_ARGUMENT', onError)) ?? null;
  return { data: (result.data ?? null) as Record<string, unknown> | null, errors };
}
