/**
 * Security events as Cloudflare's GraphQL Analytics API serves them (`firewallEventsAdaptive`,
 * `firewallEventsAdaptiveGroups`), read from an index of the stored event batches by zone and time.
 * service.ts keeps the index current as batches are written and mounts the endpoint on the API;
 * `leakscan events` runs the same queries. See docs/api.md (GraphQL).
 * @example
 * import { openEventIndex, executeEventsQuery } from './events/index.js';
 * const index = openEventIndex('.leakscan/events-index.mdb');
 * const answer = await executeEventsQuery(index, { query, variables }, { canRead: (zone) => zone === myZone });
 */
export { EventIndex, openEventIndex, kHourMs, kIndexFormat, type IndexedEvent, type HourCount, type PathHourCount, type EventKey, type EventIndexOptions, type BatchSource } from './store.js';
export { executeEventsQuery, kMaxLimit, type EventsAccess, type GraphqlResponse, type GraphqlError } from './graphql.js';
export { listEvents, groupEvents, type ListOptions, type GroupOptions, type Group } from './query.js';
export { compileFilter, type CompiledFilter, type ValueSet } from './filter.js';
export { eventsSchema, kDimensions } from './schema.js';
export { eventView, formatTime, kEventFields, kSource } from './fields.js';
export { indexOnPut, type BatchKeyParser } from './writer.js';
export { storedBatches, batchOfKey } from './batch-source.js';
