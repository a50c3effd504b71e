/**
 * The subset of Cloudflare's GraphQL Analytics schema leakscan serves, as SDL built from the field
 * table (fields.ts) and the operator table (filter.ts), so a field and its filter keys cannot drift
 * apart. Type names are Cloudflare's where its tutorials name them (`string`, `Time`,
 * `FirewallEventsAdaptiveFilter_InputObject`), so queries copied from them validate unchanged.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';
import { kEventFields, kTimeDimensions, type FieldKind } from './fields.js';
import { kOperators } from './filter.js';

const kScalarOf: Record<FieldKind, string> = { string: 'string', int: 'uint16', time: 'Time' };

/** Every dimension `firewallEventsAdaptiveGroups` can group by, with its GraphQL type. */
export const kDimensions: Record<string, string> = {
  ...Object.fromEntries(Object.entries(kEventFields).map(([name, f]) => [name, kScalarOf[f.kind]])),
  ...Object.fromEntries(Object.keys(kTimeDimensions).map((name) => [name, name === 'date' ? 'Date' : 'Time'])),
};

function filterInput(name: string): string {
  const lines = [`input ${name} {`, `  AND: [${name}!]`, `  OR: [${name}!]`];
  for (const [field, f] of Object.entries(kEventFields)) {
    for (const op of kOperators[f.kind]) {
      const list = op === 'in' || op === 'notin';
      lines.push(`  ${field}${op === '' ? '' : `_${op}`}: ${list ? `[${kScalarOf[f.kind]}!]` : kScalarOf[f.kind]}`);
    }
  }
  return `${lines.join('\n')}\n}`;
}

function sdl(): string {
  const events = Object.entries(kEventFields).map(([name, f]) => `  ${name}: ${kScalarOf[f.kind]}!`);
  const dims = Object.entries(kDimensions).map(([name, type]) => `  ${name}: ${type}!`);
  const groupOrder = ['count', ...Object.keys(kDimensions)].flatMap((n) => [`${n}_ASC`, `${n}_DESC`]);
  return `
scalar string
scalar Time
scalar Date
scalar uint16
scalar uint64

type Query {
  viewer: viewer!
}

type viewer {
  zones(filter: ZoneFilter_InputObject, limit: uint64): [zone!]!
}

input ZoneFilter_InputObject {
  zoneTag: string
  zoneTag_in: [string!]
  zoneTag_gt: string
}

type zone {
  zoneTag: string!
  firewallEventsAdaptive(filter: FirewallEventsAdaptiveFilter_InputObject, limit: uint64, orderBy: [FirewallEventsAdaptiveOrderBy!]): [ZoneFirewallEventsAdaptive!]!
  firewallEventsAdaptiveGroups(filter: FirewallEventsAdaptiveGroupsFilter_InputObject, limit: uint64, orderBy: [FirewallEventsAdaptiveGroupsOrderBy!]): [ZoneFirewallEventsAdaptiveGroups!]!
}

enum FirewallEventsAdaptiveOrderBy {
  datetime_ASC
  datetime_DESC
}

enum FirewallEventsAdaptiveGroupsOrderBy {
${groupOrder.map((v) => `  ${v}`).join('\n')}
}

type ZoneFirewallEventsAdaptive {
${events.join('\n')}
}

type ZoneFirewallEventsAdaptiveGroups {
  count: uint64!
  dimensions: ZoneFirewallEventsAdaptiveGroupsDimensions
}

type ZoneFirewallEventsAdaptiveGroupsDimensions {
${dims.join('\n')}
}

${filterInput('FirewallEventsAdaptiveFilter_InputObject')}

${filterInput('FirewallEventsAdaptiveGroupsFilter_InputObject')}
`;
}

let schema: GraphQLSchema | undefined;

/** The schema (built once). */
export function eventsSchema(): GraphQLSchema {
  return (schema ??= buildSchema(sdl()));
}
