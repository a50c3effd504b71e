/**
 * One stored event proven on its own: its line, its audit path in its batch's Merkle tree, and the
 * signed epoch whose digest is that tree's root (src/proofs). Shared by `leakscan verify --event` and
 * `GET /client/v4/zones/{zone}/security/events/{id}/proof` on the API port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuditError, type AuditLog, type KeyInfo } from '../audit/index.js';
import { kTokenPattern, tokenAllows, type TokenStore } from '../api/index.js';
import { LeakscanError, kCodes, type Code } from '../errors.js';
import { buildInclusionProof, checkInclusionProof, proofError, type InclusionProof } from '../proofs/index.js';
import { RulesetsApiError } from '../rulesets/index.js';
import type { StoreBucket } from '../storage/index.js';
import { batchFormatOf, batchLeaves } from './batch-format.js';
import { batchKey, batchNumberOf, batchPrefix, listKeys, namespaceOf } from './batches.js';
import type { LogEvent } from './events.js';

/** Event ids: `<requestId>-<n>` (events.ts). */
export const kEventIdPattern = /^[0-9a-f]{32}-[0-9]{1,6}$/;

export interface EventProof {
  /** The event as stored (already redacted: no raw value). */
  event: LogEvent;
  proof: InclusionProof;
}

type Found = { n: number; bytes: Uint8Array; line: number };

/** Event `id`'s batch and line when batch n holds it. */
async function inBatch(bucket: StoreBucket, zone: string, n: number, needle: string): Promise<Found | null> {
  const obj = await bucket.get(batchKey(zone, n));
  if (obj === null) return null;
  const bytes = new Uint8Array(await obj.arrayBuffer());
  // A cheap test before splitting: ids are unique per exchange, so most batches do not hold it.
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(needle)) return null;
  const lines = batchLeaves(bytes);
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(needle)) return { n, bytes, line: i };
  return null;
}

/**
 * Where event `id` of `zone` is stored: its batch and line; null when none holds it. Batch `hint` is
 * read first (a caller that found the event in the events index knows it), then every batch, newest
 * first.
 */
async function findEvent(bucket: StoreBucket, zone: string, id: string, hint?: number): Promise<Found | null> {
  const needle = `"id":${JSON.stringify(id)},`;
  const hinted = hint === undefined ? null : await inBatch(bucket, zone, hint, needle);
  if (hinted !== null) return hinted;
  const numbers = (await listKeys(bucket, batchPrefix(zone))).map((k) => batchNumberOf(k, zone)).filter((n): n is number => n !== undefined && n !== hint);
  for (const n of numbers.sort((a, b) => b - a)) {
    const found = await inBatch(bucket, zone, n, needle);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The proof of event `id` of `zone`, checked with `keys` before it is returned. Throws LeakscanError:
 * SDD_ERR_EVENT_NOT_FOUND, SDD_ERR_PROOF_UNAVAILABLE (a format 1 batch, or no epoch yet), or the code of
 * a check that fails (a batch altered in storage). `options.batch`: the batch to look in first (the
 * dashboard knows it from the events index); without it, or when it does not hold the event, every
 * batch is searched, newest first.
 * @example
 * const { event, proof } = await proveEvent(bucket, audit.log, zone, '9f1c…e2-0', audit.log.info().keys);
 */
export async function proveEvent(bucket: StoreBucket, log: AuditLog, zone: string, id: string, keys: readonly KeyInfo[], options: { batch?: number } = {}): Promise<EventProof> {
  const found = await findEvent(bucket, zone, id, options.batch);
  if (found === null) throw new LeakscanError('SDD_ERR_EVENT_NOT_FOUND', `${id} in zone ${zone}`);
  const { n, bytes, line } = found;
  if (batchFormatOf(bytes) < 2) {
    throw new LeakscanError('SDD_ERR_PROOF_UNAVAILABLE', `${id} is in ${batchKey(zone, n)}, written before batches were Merkle trees: verify the whole batch (leakscan verify --zone ${zone})`);
  }
  let record;
  try {
    record = await log.record(namespaceOf(zone), n);
  } catch (e) {
    if (e instanceof AuditError && (e.code === 'AUDIT_ERR_EPOCH_NOT_FOUND' || e.code === 'AUDIT_ERR_NAMESPACE_NOT_FOUND')) {
      throw new LeakscanError('SDD_ERR_PROOF_UNAVAILABLE', `epoch ${n} of ${namespaceOf(zone)} is not published yet`);
    }
    throw e;
  }
  const proof = buildInclusionProof(batchLeaves(bytes), line, record);
  const checked = checkEventProof(proof, keys, { zone, id });
  if (!checked.valid) throw proofError(checked);
  return { event: checked.event, proof };
}

export type EventProofCheck = { valid: true; event: LogEvent; key: KeyInfo } | { valid: false; code: Code; reason: string };

/**
 * Checks a proof of one event (checkInclusionProof), then that its leaf is an event of the zone and
 * batch the proof's namespace and epoch name, at the place its `seq` gives, and, when asked, the one
 * with `expect.id` in `expect.zone`.
 */
export function checkEventProof(value: unknown, keys: readonly KeyInfo[], expect: { zone?: string; id?: string } = {}): EventProofCheck {
  const checked = checkInclusionProof(value, keys, expect.zone === undefined ? {} : { namespace: namespaceOf(expect.zone) });
  if (!checked.valid) return checked;
  const p = checked.proof;
  let e: Partial<LogEvent> & { version?: unknown };
  try {
    e = JSON.parse(p.leaf) as Partial<LogEvent>;
  } catch {
    return { valid: false, code: 'SDD_ERR_PROOF_EVENT', reason: 'the proven leaf is not JSON' };
  }
  const what = (reason: string): EventProofCheck => ({ valid: false, code: 'SDD_ERR_PROOF_EVENT', reason });
  if (typeof e !== 'object' || e === null || typeof e.id !== 'string' || e.version !== undefined) return what('the proven leaf is not an event (it is the batch header, or not an object)');
  if (typeof e.zone !== 'string' || p.namespace !== namespaceOf(e.zone)) return what(`the event belongs to zone ${JSON.stringify(e.zone)}, the epoch to ${p.namespace}`);
  if (e.batch !== p.epoch) return what(`the event says batch ${JSON.stringify(e.batch)}, the epoch is ${p.epoch}`);
  if (e.seq !== p.index - 1) return what(`the event says seq ${JSON.stringify(e.seq)}, but is leaf ${p.index} (seq s is leaf s + 1, after the header)`);
  if (expect.id !== undefined && e.id !== expect.id) return what(`the proof is for event ${e.id}, not ${expect.id}`);
  return { valid: true, event: e as LogEvent, key: checked.key };
}

/** v4 error numbers of the endpoint's own answers (auth and routing answers are the API's). */
const kV4Codes: Partial<Record<Code, number>> = { SDD_ERR_EVENT_NOT_FOUND: 10003, SDD_ERR_PROOF_UNAVAILABLE: 10030, SDD_ERR_PROOF_PATH: 10031, SDD_ERR_PROOF_SIGNATURE: 10031, SDD_ERR_PROOF_EVENT: 10031 };

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}

function sendApiError(res: ServerResponse, err: RulesetsApiError): void {
  send(res, err.status, { result: null, success: false, errors: [err.toEntry()], messages: [] });
}

const kRoute = /^\/client\/v4\/zones\/([^/]+)\/security\/events\/([^/]+)\/proof$/;

/** Which batches hold an exchange's events: the events index (src/events) answers it. */
export interface EventBatchFinder {
  /** Batches of `zone` holding events of exchange `requestId` (an event id before its dash), newest first. */
  requestBatches(zone: string, requestId: string): number[];
}

/** `proveEvent`'s options for event `id`: the batch `finder` names for its exchange, if any. */
export function batchHint(finder: EventBatchFinder | undefined, zone: string, id: string): { batch?: number } {
  const batch = finder?.requestBatches(zone, id.slice(0, id.lastIndexOf('-')))[0];
  return batch === undefined ? {} : { batch };
}

export interface EventProofHandlerDeps {
  bucket: StoreBucket;
  log: AuditLog;
  tokens: TokenStore;
  onError: (err: unknown) => void;
  /** Names the batch to read first, so a proof of an old event does not read every newer batch. */
  index?: EventBatchFinder;
}

/**
 * `GET /client/v4/zones/{zone}/security/events/{id}/proof`: the event and its proof in the v4 envelope,
 * for a bearer token that may read the zone. Resolves false for any other path (the API answers those).
 */
export function createEventProofHandler(deps: EventProofHandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const m = kRoute.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (m === null) return false;
    req.resume();
    const [zone, id] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
    const header = req.headers.authorization;
    if (header === undefined) return (sendApiError(res, new RulesetsApiError('MISSING_AUTH')), true);
    const token = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header)?.[1];
    const info = token !== undefined && kTokenPattern.test(token) ? await deps.tokens.verify(token) : undefined;
    if (info === undefined || !tokenAllows(info, /^[0-9a-f]{32}$/.test(zone) ? zone : undefined, false)) return (sendApiError(res, new RulesetsApiError('AUTHENTICATION')), true);
    if (req.method !== 'GET') return (sendApiError(res, new RulesetsApiError('METHOD_NOT_ALLOWED', `Method ${req.method ?? ''} not allowed for this route`)), true);
    if (!/^[0-9a-f]{32}$/.test(zone) || !kEventIdPattern.test(id)) return (sendApiError(res, new RulesetsApiError('BAD_IDENTIFIER')), true);
    try {
      const out = await proveEvent(deps.bucket, deps.log, zone, id, deps.log.info().keys, batchHint(deps.index, zone, id));
      send(res, 200, { result: out, success: true, errors: [], messages: [] });
    } catch (e) {
      if (!(e instanceof LeakscanError)) {
        deps.onError(e);
        return (sendApiError(res, new RulesetsApiError('INTERNAL')), true);
      }
      send(res, kCodes[e.code].status, { result: null, success: false, errors: [{ code: kV4Codes[e.code] ?? 10001, message: `${e.code}: ${e.message}` }], messages: [] });
    }
    return true;
  };
}
