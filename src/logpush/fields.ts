/**
 * The `firewall_events` records a Logpush job writes: Cloudflare's field names, each value taken from
 * one stored event. Stored events are already redacted (the scanner's `redact()` choke point, and the
 * masked host and path of request-fields.ts), and a record is built from nothing else, so no raw value
 * can reach a destination. Fields Cloudflare has but leakscan never records (client IP, query string,
 * user agent) are answered empty, as the GraphQL endpoint does, so Cloudflare's field lists work.
 */

import { readBatchLines, type LogEvent } from '../eventlog/index.js';

/** One event line of a stored batch (the service's `LogEvent`, as written). */
export type StoredEvent = LogEvent;

/** `output_options.timestamp_format`, as Cloudflare names them (`unixnano` is its default). */
export type TimestampFormat = 'unixnano' | 'unix' | 'rfc3339';
export const kTimestampFormats: readonly TimestampFormat[] = ['unixnano', 'unix', 'rfc3339'];

type Value = string | number | Record<string, unknown>;

function datetime(iso: string, format: TimestampFormat): string | number {
  const ms = Date.parse(iso);
  if (format === 'rfc3339') return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
  if (format === 'unix') return Math.floor(ms / 1000);
  // Nanoseconds exceed 2^53: multiplied as a BigInt, written as a JSON number by `recordLine`.
  return Number.isFinite(ms) ? `${BigInt(ms) * 1_000_000n}` : 0;
}

/** Every field a job may ask for, in the default order. */
export const kFirewallEventFields: Record<string, (e: StoredEvent, ts: TimestampFormat) => Value> = {
  Action: (e) => e.action,
  ClientASN: () => 0,
  ClientCountry: () => '',
  ClientIP: () => '',
  ClientRequestHost: (e) => e.host,
  ClientRequestMethod: (e) => e.method,
  ClientRequestPath: (e) => e.path,
  ClientRequestProtocol: () => '',
  ClientRequestQuery: () => '',
  ClientRequestScheme: () => '',
  ClientRequestUserAgent: () => '',
  Datetime: (e, ts) => datetime(e.timestamp, ts),
  Description: (e) => e.description,
  EdgeResponseStatus: (e) => e.status,
  Kind: () => 'firewall',
  OriginResponseStatus: (e) => e.status,
  RayID: (e) => e.requestId,
  RuleID: (e) => e.ruleId,
  RulesetID: (e) => e.rulesetId,
  Source: () => 'dlp',
  // Cloudflare's "additional product-specific information": the finding as stored (redacted value only).
  Metadata: (e) => ({ event_id: e.id, batch: e.batch, seq: e.seq, confidence: e.confidence, tags: e.tags, content_type: e.contentType, start: e.start, end: e.end, redacted: e.redacted }),
};

/** Fields written when a job names none. */
export const kDefaultFields: readonly string[] = Object.keys(kFirewallEventFields);

/** One NDJSON line (with its `\n`) of `fields` of event `e`. */
export function recordLine(e: StoredEvent, fields: readonly string[], ts: TimestampFormat): string {
  const parts: string[] = [];
  for (const f of fields) {
    const get = kFirewallEventFields[f];
    if (get === undefined) continue;
    const v = get(e, ts);
    // A unixnano Datetime is a decimal string of a number too large for a double: written bare.
    const json = f === 'Datetime' && ts === 'unixnano' && typeof v === 'string' ? v : JSON.stringify(v);
    parts.push(`${JSON.stringify(f)}:${json}`);
  }
  return `{${parts.join(',')}}\n`;
}

/**
 * The events of one stored batch of `zone` numbered `n`, in order, read as verify reads a batch: the
 * header line of a format 2 batch and any line that is not an event of this batch are left out.
 */
export function eventsOfBatch(bytes: Uint8Array, zone: string, n: number): StoredEvent[] {
  const { objects } = readBatchLines(bytes, zone, n);
  return objects.filter((e) => e['zone'] === zone && e['batch'] === n && typeof e['id'] === 'string') as unknown as StoredEvent[];
}
