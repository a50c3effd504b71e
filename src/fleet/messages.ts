/**
 * What travels on `events.<zone>`: one message per event, and one per response of a zone with an
 * entry point saying what became of it (its coverage outcome). The header `Leakscan-Kind` says which.
 *
 *   event    body = the PendingEvent's JSON (already redacted: scanner findings and masked fields);
 *            Nats-Msg-Id = the event id `<requestId>-<n>`
 *   outcome  body = {"requestId","outcome","truncated"};  Nats-Msg-Id = `<requestId>-outcome`
 *
 * Both ids are fixed by the exchange (its requestId travels with its body to a scan-worker too), so
 * a publish retried, or a body scanned again after a redelivery, yields the same ids and the stream
 * stores each once within its duplicate window.
 *
 * Reading them back is the batcher's input check: a message is rebuilt field by field from the known
 * fields only (a field the format does not name never reaches a batch), and anything else is a
 * malformed message, reported with SDD_ERR_BUS_MESSAGE and skipped.
 */
import { LeakscanError } from '../errors.js';
import { kSkipReasons, type CoverageOutcome, type PendingEvent } from '../eventlog/index.js';

export const kKindHeader = 'Leakscan-Kind';

export interface Outcome {
  requestId: string;
  outcome: CoverageOutcome;
  truncated: boolean;
}

export type BusRecord = { kind: 'event'; event: PendingEvent } | { kind: 'outcome'; outcome: Outcome };

const kRequestId = /^[0-9a-f]{32}$/;
const kEventId = /^([0-9a-f]{32})-([0-9]{1,6})$/;
const kConfidences = new Set(['high', 'medium', 'low']);
const kOutcomes = new Set<string>(['scanned', ...kSkipReasons]);

export function outcomeMsgId(requestId: string): string {
  return `${requestId}-outcome`;
}

function bad(detail: string): LeakscanError {
  return new LeakscanError('SDD_ERR_BUS_MESSAGE', detail);
}

function str(o: Record<string, unknown>, k: string, max = 4096): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length > max) throw bad(`"${k}" is not a string of at most ${max} characters`);
  return v;
}

function int(o: Record<string, unknown>, k: string): number {
  const v = o[k];
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw bad(`"${k}" is not a non-negative integer`);
  return v as number;
}

function object(bytes: Uint8Array): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw bad('the body is not JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('the body is not a JSON object');
  return v as Record<string, unknown>;
}

/** An event message's body, rebuilt from its known fields; throws SDD_ERR_BUS_MESSAGE. */
export function parseEvent(bytes: Uint8Array, zone: string): PendingEvent {
  const o = object(bytes);
  const id = str(o, 'id', 40);
  const m = kEventId.exec(id);
  if (m === null) throw bad('"id" is not <requestId>-<n>');
  const requestId = str(o, 'requestId', 32);
  if (requestId !== m[1]) throw bad('"id" does not start with "requestId"');
  if (o.zone !== zone) throw bad(`the event belongs to zone ${JSON.stringify(o.zone)}, not ${zone}`);
  if (o.action !== 'log') throw bad('"action" is not "log"');
  const timestamp = str(o, 'timestamp', 40);
  if (Number.isNaN(Date.parse(timestamp))) throw bad('"timestamp" is not a date');
  if (!Array.isArray(o.tags) || !o.tags.every((t) => typeof t === 'string')) throw bad('"tags" is not a list of strings');
  if (o.contentType !== null && typeof o.contentType !== 'string') throw bad('"contentType" is neither a string nor null');
  if (typeof o.confidence !== 'string' || !kConfidences.has(o.confidence)) throw bad('"confidence" is not high, medium or low');
  const start = int(o, 'start');
  const end = int(o, 'end');
  if (end < start) throw bad('"end" is before "start"');
  return {
    id,
    timestamp,
    zone,
    action: 'log',
    rulesetId: str(o, 'rulesetId', 64),
    ruleId: str(o, 'ruleId', 128),
    description: str(o, 'description'),
    tags: [...(o.tags as string[])],
    host: str(o, 'host', 255),
    method: str(o, 'method', 32),
    path: str(o, 'path', 2048),
    status: int(o, 'status'),
    contentType: o.contentType as string | null,
    requestId,
    start,
    end,
    redacted: str(o, 'redacted'),
    confidence: o.confidence as PendingEvent['confidence'],
  };
}

/** An outcome message's body; throws SDD_ERR_BUS_MESSAGE. */
export function parseOutcome(bytes: Uint8Array): Outcome {
  const o = object(bytes);
  const requestId = str(o, 'requestId', 32);
  if (!kRequestId.test(requestId)) throw bad('"requestId" is not 32 hex digits');
  if (typeof o.outcome !== 'string' || !kOutcomes.has(o.outcome)) throw bad('"outcome" is not a coverage outcome');
  if (typeof o.truncated !== 'boolean') throw bad('"truncated" is not a boolean');
  return { requestId, outcome: o.outcome as CoverageOutcome, truncated: o.truncated };
}

/** A message of `events.<zone>` by its kind header; throws SDD_ERR_BUS_MESSAGE. */
export function parseRecord(kind: string | undefined, bytes: Uint8Array, zone: string): BusRecord {
  if (kind === 'event') return { kind, event: parseEvent(bytes, zone) };
  if (kind === 'outcome') return { kind, outcome: parseOutcome(bytes) };
  throw bad(`${kKindHeader} is ${JSON.stringify(kind ?? null)}, not event or outcome`);
}
