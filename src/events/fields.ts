/**
 * The fields of Cloudflare's `firewallEventsAdaptive` dataset that leakscan answers, and how each is
 * read from an indexed event. Every value comes from the stored event, whose host, path and content
 * type were masked by the zone's rules (src/redact) before the batch was written; fields the service
 * never records (client IP, query string, user agent…) answer an empty string rather than an error,
 * so queries written for Cloudflare run unchanged.
 */
import type { IndexedEvent } from './store.js';

export type FieldKind = 'string' | 'int' | 'time';

/** `source` of every Sensitive Data Detection event, as Cloudflare names the DLP source. */
export const kSource = 'dlp';

/** Fields of an event, with their filter kind and their value. */
export const kEventFields: Record<string, { kind: FieldKind; value: (e: IndexedEvent) => string | number }> = {
  action: { kind: 'string', value: (e) => e.action },
  datetime: { kind: 'time', value: (e) => e.ms },
  ruleId: { kind: 'string', value: (e) => e.ruleId },
  rulesetId: { kind: 'string', value: (e) => e.rulesetId },
  source: { kind: 'string', value: () => kSource },
  description: { kind: 'string', value: (e) => e.description },
  clientRequestHTTPHost: { kind: 'string', value: (e) => e.host },
  clientRequestPath: { kind: 'string', value: (e) => e.path },
  clientRequestHTTPMethodName: { kind: 'string', value: (e) => e.method },
  edgeResponseStatus: { kind: 'int', value: (e) => e.status },
  // The proxy passes the origin's status on unchanged, so both statuses are the same number.
  originResponseStatus: { kind: 'int', value: (e) => e.status },
  // The exchange's request id (32 hex digits, shared by its events) stands in for the Ray ID.
  rayName: { kind: 'string', value: (e) => e.requestId },
  kind: { kind: 'string', value: () => 'firewall' },
  // Never recorded (docs/serve.md, Log events): a query string or a client address can carry a value.
  clientRequestQuery: { kind: 'string', value: () => '' },
  clientIP: { kind: 'string', value: () => '' },
  clientAsn: { kind: 'string', value: () => '' },
  clientCountryName: { kind: 'string', value: () => '' },
  userAgent: { kind: 'string', value: () => '' },
};

/** Time buckets of the groups query's dimensions, as Cloudflare names them. */
export const kTimeDimensions: Record<string, number> = {
  datetimeMinute: 60_000,
  datetimeFiveMinutes: 300_000,
  datetimeFifteenMinutes: 900_000,
  datetimeHour: 3_600_000,
  date: 86_400_000,
};

/** RFC 3339 in UTC without fractional seconds when there are none (`2026-05-01T12:00:00Z`). */
export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** A dimension's value for one event (time dimensions as their bucket's start). */
export function dimensionOf(name: string, e: IndexedEvent): string | number {
  const bucket = kTimeDimensions[name];
  if (bucket !== undefined) {
    const start = Math.floor(e.ms / bucket) * bucket;
    return name === 'date' ? formatTime(start).slice(0, 10) : formatTime(start);
  }
  if (name === 'datetime') return formatTime(e.ms);
  return kEventFields[name]!.value(e);
}

/** An event as `firewallEventsAdaptive` answers it (GraphQL picks the fields asked for). */
export function eventView(e: IndexedEvent): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, f] of Object.entries(kEventFields)) out[name] = f.kind === 'time' ? formatTime(e.ms) : f.value(e);
  return out;
}
