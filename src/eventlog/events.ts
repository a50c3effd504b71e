/**
 * Log events: one per finding of a proxied response, as Sensitive Data Detection's security events
 * (action `log`). Built from the scanner's findings, which carry only redacted values, and from the
 * exchange's fields after request-fields.ts has masked them. The query string and request headers
 * other than Host are never kept (either can carry a secret, and neither says where data leaked).
 */
import { managedRuleset } from '../rules/index.js';
import type { Confidence, Finding } from '../types.js';
import type { RequestFields, StoredFields } from './request-fields.js';

/** What is known of one proxied exchange when its response starts. */
export interface ExchangeInfo {
  /** Random id of the exchange (32 hex digits), shared by all its events. */
  requestId: string;
  /** ms since the Unix epoch at which the response headers arrived from the origin. */
  timestamp: number;
  zone: string;
  method: string;
  status: number;
  contentEncoding: string | null;
  /** Host, path and Content-Type as they came: held in memory only, stored once masked (StoredFields). */
  fields: RequestFields;
}

/** One stored event (a line of a batch). Field order is the order written. */
export interface LogEvent {
  /** The zone's batch this event is stored in (also the audit epoch that signs the batch). */
  batch: number;
  /** Position in the batch, from 0. */
  seq: number;
  /** `<requestId>-<n>`: n counts the exchange's findings from 0. */
  id: string;
  timestamp: string;
  zone: string;
  action: 'log';
  rulesetId: string;
  ruleId: string;
  description: string;
  tags: string[];
  host: string;
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  requestId: string;
  /** UTF-8 byte offsets into the decoded body (after Content-Encoding), end exclusive. */
  start: number;
  end: number;
  redacted: string;
  /**
   * The finding's confidence (`high`, `medium`, `low`); at or above the rule's threshold in the zone
   * (its `sensitivity_level`). Last, so batches written before it existed read the same otherwise.
   */
  confidence: Confidence;
}

/** An event before it is given its place in a batch. */
export type PendingEvent = Omit<LogEvent, 'batch' | 'seq'>;

/** Path of a request target without its query string or fragment (bounded once masked, request-fields.ts). */
export function pathOf(target: string | undefined): string {
  let t = target ?? '/';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    // Absolute form (a forward proxy request line): keep only the path.
    try {
      t = new URL(t).pathname;
    } catch {
      t = '/';
    }
  }
  const cut = t.search(/[?#]/);
  return cut >= 0 ? t.slice(0, cut) : t;
}

/** Events of one exchange, one per finding, in the scanner's order; `fields` are the exchange's masked fields. */
export function eventsOf(info: ExchangeInfo, fields: StoredFields, findings: readonly Finding[]): PendingEvent[] {
  const timestamp = new Date(info.timestamp).toISOString();
  return findings.map((f, i) => ({
    id: `${info.requestId}-${i}`,
    timestamp,
    zone: info.zone,
    action: 'log',
    rulesetId: managedRuleset.id,
    ruleId: f.ruleId,
    description: f.description,
    tags: [...f.tags],
    host: fields.host,
    method: info.method,
    path: fields.path,
    status: info.status,
    contentType: fields.contentType,
    requestId: info.requestId,
    start: f.start,
    end: f.end,
    redacted: f.redacted,
    confidence: f.confidence,
  }));
}

/** The NDJSON bytes of a batch: one event per line, each ending in `\n`. */
export function batchBytes(batch: number, events: readonly PendingEvent[]): Buffer {
  let text = '';
  events.forEach((e, seq) => {
    const line: LogEvent = { batch, seq, ...e };
    text += `${JSON.stringify(line)}\n`;
  });
  return Buffer.from(text, 'utf8');
}
