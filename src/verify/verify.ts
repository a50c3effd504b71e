/**
 * `leakscan verify`: every stored batch against the signed epochs of the audit log, per zone.
 *
 * For each zone (from the batch keys in DIR/events and the `events.{zone}` namespaces of the audit
 * log) and each number n from 1 to the highest batch or epoch: batch n and epoch n must both exist;
 * the epoch record's Ed25519 signature must verify with the log's published keys (DIR/audit/keys.json,
 * what `GET /info` serves) or a key given out of band; the batch's digest (src/eventlog/batch-format.ts:
 * SHA-256 of its bytes, or the Merkle root of its lines) must be the digest the record signs; and the batch must be
 * NDJSON of this zone's events numbered n, after a header with its coverage counts (format 2).
 *
 * It opens DIR's stores itself, so it runs while `leakscan serve` is stopped: the stores allow one
 * process at a time, and a running service makes it fail with SERVE_ERR_DATA_LOCKED.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { auditDir, openAuditLog, verifyRecord, type AuditLog, type EpochRecord, type KeyInfo } from '../audit/index.js';
import { LeakscanError } from '../errors.js';
import { openBucket, type StoreBucket } from '../storage/index.js';
import { openEventIndex, type EventIndex } from '../events/index.js';
import {
  addCoverage, batchDigest, batchFormatOf, batchHint, batchKey, batchNumberOf, batchPrefix, dataLockedError, emptyCoverage, kEventIdPattern, kVerifyProblems,
  listKeys, listPrefixes, namespaceOf, proveEvent, readBatchLines, ServeError, zoneOfIdOrHost,
  type BatchHeader, type Coverage, type EventProof, type VerifyProblemCode,
} from '../eventlog/index.js';

export interface VerifyOptions {
  /** Only this zone: a zone id, or a host name (its derived zone id). */
  zone?: string;
  /** Verify signatures with this Ed25519 public key (64 hex digits) instead of the log's key list. */
  publicKey?: string;
}

export interface VerifyProblem {
  code: VerifyProblemCode;
  /** The batch or epoch number the problem is about (null for a stray key). */
  batch: number | null;
  /** The batch's bucket key (also for a missing batch: where it should be). */
  key: string | null;
  message: string;
}

export interface ZoneVerification {
  zone: string;
  namespace: string;
  batches: number;
  epochs: number;
  events: number;
  /**
   * What happened to the zone's responses, summed over its verified format 2 batches, and the time they
   * cover (null: no such batch). Batches of format 1 carry no counts.
   */
  coverage: (Coverage & { batches: number; from: string; to: string }) | null;
  problems: VerifyProblem[];
  ok: boolean;
}

export interface VerifyReport {
  ok: boolean;
  /** The keys signatures were checked with. */
  keys: KeyInfo[];
  zones: ZoneVerification[];
}

const kNamespace = /^events\.([0-9a-f]{32})$/;
const kEpochKey = /\/([0-9]{16})$/;

function problem(code: VerifyProblemCode, batch: number | null, key: string | null, detail: string): VerifyProblem {
  return { code, batch, key, message: detail || kVerifyProblems[code] };
}

/** The zone id `--zone` names (a zone id or a host name); undefined without the option. */
function zoneOption(zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  const id = zoneOfIdOrHost(zone);
  if (id === undefined) throw new ServeError('SERVE_ERR_INVALID_OPTION', `--zone ${JSON.stringify(zone)} is neither a zone id nor a host name`);
  return id;
}

/**
 * DIR's audit log and, when DIR/events exists, its events bucket, each opened directly; `locked` turns
 * a failure to open (another process holds the store) into the caller's error. Nothing stays open
 * when it throws.
 */
async function openStores(dataDir: string, locked: (e: unknown) => unknown): Promise<{ audit: AuditStore; events: Awaited<ReturnType<typeof openBucket>> | null }> {
  let audit: AuditStore;
  try {
    audit = await openAuditLog(dataDir);
  } catch (e) {
    throw locked(e);
  }
  try {
    const eventsDir = join(dataDir, 'events');
    return { audit, events: existsSync(eventsDir) ? await openBucket({ dir: eventsDir }) : null };
  } catch (e) {
    await audit.close();
    throw locked(e);
  }
}
type AuditStore = Awaited<ReturnType<typeof openAuditLog>>;

/**
 * Verifies the data directory of a stopped `leakscan serve`.
 * @example
 * const report = await verifyDataDir('.leakscan');
 * if (!report.ok) for (const z of report.zones) for (const p of z.problems) console.log(p.key, p.code, p.message);
 */
export async function verifyDataDir(dataDir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const only = zoneOption(options.zone);
  if (options.publicKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(options.publicKey)) {
    throw new ServeError('SERVE_ERR_INVALID_OPTION', '--public-key must be 64 hex digits (an Ed25519 public key)');
  }
  if (!existsSync(join(auditDir(dataDir), 'keys.json'))) {
    throw new ServeError('SERVE_ERR_NO_DATA', `${dataDir} has no audit/keys.json (start \`leakscan serve --data ${dataDir}\` once to create it)`);
  }
  const locked = (e: unknown): unknown => dataLockedError(e, '; stop `leakscan serve` first (verify reads the stores directly)');

  const { audit, events } = await openStores(dataDir, locked);
  try {
    const keys: KeyInfo[] = options.publicKey !== undefined ? [{ public_key: options.publicKey.toLowerCase(), not_before: 0 }] : audit.log.info().keys;
    return await verifyStores(events, audit, keys, only);
  } finally {
    await events?.close();
    await audit.close();
  }
}

/**
 * Verifies batches in `events` against the epochs of `audit` (its log and the bucket it lives on),
 * checking signatures with `keys`; every zone of either, or only `only`. What `verifyDataDir` runs on a
 * data directory's stores, and the fleet's `verify --s3` on one S3 bucket holding both.
 */
export async function verifyStores(
  events: StoreBucket | null,
  audit: { log: AuditLog; bucket: StoreBucket },
  keys: KeyInfo[],
  only?: string,
): Promise<VerifyReport> {
  const zones = new Set<string>();
  if (events !== null) {
    for (const p of await listPrefixes(events, 'events/')) {
      const m = /^events\/(.*)\/$/.exec(p);
      if (m) zones.add(m[1]!);
    }
  }
  for (const ns of await audit.log.namespaces()) {
    const m = kNamespace.exec(ns.name);
    if (m) zones.add(m[1]!);
  }
  if (only !== undefined) {
    const has = zones.has(only);
    zones.clear();
    zones.add(only);
    if (!has) {
      const namespace = namespaceOf(only);
      return {
        ok: false,
        keys,
        zones: [{ zone: only, namespace, batches: 0, epochs: 0, events: 0, coverage: null, ok: false, problems: [problem('VERIFY_NOTHING_STORED', null, null, `no batches under ${batchPrefix(only)} and no namespace ${namespace} in the audit log`)] }],
      };
    }
  }
  const out: ZoneVerification[] = [];
  for (const zone of [...zones].sort()) out.push(await verifyZone(zone, events, audit, keys));
  return { ok: out.every((z) => z.ok), keys, zones: out };
}

/**
 * Stored batch `n` of `zone` (its bytes) against `record`, epoch `n` of the zone's namespace: the
 * record's signature under `keys`, the digest it signs, and the batch's own lines (`lines`, when the
 * caller has read them already). Shared by `leakscan verify` and the dashboard's detections page.
 */
export function checkBatch(
  bytes: Uint8Array,
  zone: string,
  n: number,
  record: EpochRecord,
  keys: readonly KeyInfo[],
  lines = readBatchLines(bytes, zone, n),
): { events: number; problems: VerifyProblem[]; header: BatchHeader | null } {
  const namespace = namespaceOf(zone);
  const key = batchKey(zone, n);
  const problems: VerifyProblem[] = [];
  const digest = batchDigest(bytes);
  const signed = verifyRecord(record, keys, { namespace, epoch: n });
  if (!signed.valid) {
    problems.push(problem('VERIFY_BAD_SIGNATURE', n, key, `epoch ${n} of ${namespace}: ${signed.reason}`));
  } else if (signed.record.digest !== digest) {
    problems.push(problem('VERIFY_DIGEST_MISMATCH', n, key, `${key} has ${batchFormatOf(bytes) >= 2 ? 'Merkle root' : 'SHA-256'} ${digest}, but epoch ${n} signs ${signed.record.digest}: the batch was altered`));
  }
  if (lines.problem !== null) problems.push(problem('VERIFY_BAD_BATCH', n, key, `${key}: ${lines.problem}`));
  return { events: lines.events, problems, header: lines.header };
}

async function verifyZone(
  zone: string,
  events: StoreBucket | null,
  audit: { log: AuditLog; bucket: StoreBucket },
  keys: readonly KeyInfo[],
): Promise<ZoneVerification> {
  const namespace = namespaceOf(zone);
  const problems: VerifyProblem[] = [];
  const batches = new Map<number, string>();
  if (events !== null) {
    for (const key of await listKeys(events, batchPrefix(zone))) {
      const n = batchNumberOf(key, zone);
      if (n === undefined) problems.push(problem('VERIFY_UNEXPECTED_KEY', null, key, `${key} is not a batch key (events/{zone}/{10-digit batch number}.ndjson)`));
      else batches.set(n, key);
    }
  }
  const epochs = new Set<number>();
  for (const key of await listKeys(audit.bucket, `epochs/${namespace}/`)) {
    const m = kEpochKey.exec(key);
    if (m) epochs.add(Number(m[1]));
  }
  let count = 0;
  let coverage: ZoneVerification['coverage'] = null;
  const last = Math.max(0, ...batches.keys(), ...epochs);
  const lastEpoch = Math.max(0, ...epochs);
  for (let n = 1; n <= last; n++) {
    const key = batches.get(n) ?? batchKey(zone, n);
    const hasBatch = batches.has(n);
    const hasEpoch = epochs.has(n);
    if (!hasBatch && !hasEpoch) {
      problems.push(problem('VERIFY_GAP', n, key, `neither batch ${n} nor epoch ${n} exists, but later ones do`));
      continue;
    }
    if (!hasEpoch) {
      const hint = n > lastEpoch ? ' (written after the latest epoch: the service stopped before publishing it; its next start publishes it)' : '';
      problems.push(problem('VERIFY_BATCH_WITHOUT_EPOCH', n, key, `batch ${n} has no epoch ${n} in ${namespace}${hint}`));
      continue;
    }
    if (!hasBatch) {
      problems.push(problem('VERIFY_EPOCH_WITHOUT_BATCH', n, key, `epoch ${n} of ${namespace} is published but batch ${key} is missing`));
      continue;
    }
    const obj = await events!.get(key);
    if (obj === null) {
      problems.push(problem('VERIFY_EPOCH_WITHOUT_BATCH', n, key, `batch ${key} disappeared while being verified`));
      continue;
    }
    const checked = checkBatch(new Uint8Array(await obj.arrayBuffer()), zone, n, await audit.log.record(namespace, n), keys);
    count += checked.events;
    problems.push(...checked.problems);
    // Only counts the epoch vouches for are added up.
    if (checked.problems.length === 0 && checked.header !== null) {
      const h = checked.header;
      if (coverage === null) coverage = { ...emptyCoverage(), batches: 0, from: h.from, to: h.to };
      addCoverage(coverage, h.coverage);
      coverage.batches++;
      coverage.to = h.to;
    }
  }
  return { zone, namespace, batches: batches.size, epochs: epochs.size, events: count, coverage, problems, ok: problems.length === 0 };
}

/** One line of coverage for the text report. */
export function formatCoverage(c: NonNullable<ZoneVerification['coverage']>): string {
  const s = c.skipped;
  const skipped = s.overBudget + s.binary + s.filtered + s.noBody + s.queueFull + s.failed;
  return (
    `coverage ${c.from} to ${c.to} (${c.batches} batches): ${c.seen} responses seen, ${c.scanned} scanned (${c.truncated} truncated), ` +
    `${skipped} skipped (over budget ${s.overBudget}, binary ${s.binary}, filtered by the zone's rules ${s.filtered}, no body ${s.noBody}, queue full ${s.queueFull}, scan failed ${s.failed})` +
    (c.eventsDropped > 0 ? `, ${c.eventsDropped} events dropped` : '')
  );
}

/** The text report `leakscan verify` prints. */
export function formatVerifyReport(report: VerifyReport): string {
  let out = '';
  for (const z of report.zones) {
    out += `zone ${z.zone}: ${z.batches} batches, ${z.epochs} epochs, ${z.events} events: ${z.ok ? 'verified' : 'FAILED'}\n`;
    if (z.coverage !== null) out += `  ${formatCoverage(z.coverage)}\n`;
    for (const p of z.problems) out += `  ${p.code}: ${p.message}\n`;
  }
  const failed = report.zones.filter((z) => !z.ok).length;
  const keys = report.keys.map((k) => k.public_key).join(', ');
  if (report.zones.length === 0) out += 'no zones: nothing stored yet\n';
  else out += `${failed === 0 ? 'OK' : 'FAILED'}: ${report.zones.length - failed} of ${report.zones.length} zones verified (signatures checked with ${keys})\n`;
  return out;
}

/**
 * `leakscan verify --event ID`: finds event `id` in DIR's batches (of `options.zone`, or of every zone)
 * and returns it with its inclusion proof, checked against the log's keys (or `options.publicKey`).
 * Throws LeakscanError with the proof's code (SDD_ERR_EVENT_NOT_FOUND, SDD_ERR_PROOF_*).
 * @example
 * const { event, proof } = await proveEventInDataDir('.leakscan', '9f1c…e2-0');
 */
export async function proveEventInDataDir(dataDir: string, id: string, options: VerifyOptions = {}): Promise<EventProof & { keys: KeyInfo[] }> {
  if (!kEventIdPattern.test(id)) throw new ServeError('SERVE_ERR_INVALID_OPTION', `--event ${JSON.stringify(id)} is not an event id (<32 hex digits>-<n>)`);
  const only = zoneOption(options.zone);
  const keys = keysFor(dataDir, options);
  const locked = (e: unknown): unknown => dataLockedError(e, '; stop `leakscan serve` first, or ask its API (GET /client/v4/zones/{zone}/security/events/{id}/proof)');
  const { audit, events } = await openStores(dataDir, locked);
  // The events index, when there is one, names the event's batch (an index being rebuilt names none).
  const indexPath = join(dataDir, 'events-index.mdb');
  let index: EventIndex | undefined;
  try {
    const list = keys ?? audit.log.info().keys;
    if (existsSync(indexPath)) index = openEventIndex(indexPath);
    const stored = only !== undefined ? [only] : events === null ? [] : (await listPrefixes(events, 'events/')).map((p) => /^events\/([0-9a-f]{32})\/$/.exec(p)?.[1]).filter((z): z is string => z !== undefined);
    // Zones whose index names a batch first: the others may still hold it in batches not indexed yet.
    const hints = new Map(stored.map((zone) => [zone, batchHint(index, zone, id)]));
    const zones = [...stored.filter((z) => hints.get(z)!.batch !== undefined), ...stored.filter((z) => hints.get(z)!.batch === undefined)];
    let last: unknown = new LeakscanError('SDD_ERR_EVENT_NOT_FOUND', `${id} in ${only === undefined ? 'any zone' : `zone ${only}`} of ${dataDir}`);
    for (const zone of zones) {
      try {
        return { ...(await proveEvent(events!, audit.log, zone, id, list, hints.get(zone)!)), keys: list };
      } catch (e) {
        if (!(e instanceof LeakscanError && e.code === 'SDD_ERR_EVENT_NOT_FOUND')) throw e;
        if (only !== undefined) last = e;
      }
    }
    throw last;
  } finally {
    await index?.close();
    await events?.close();
    await audit.close();
  }
}

/** The keys to check with: `--public-key`, else null (the log's own list); refuses a DIR without audit data. */
function keysFor(dataDir: string, options: VerifyOptions): KeyInfo[] | null {
  if (options.publicKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(options.publicKey)) {
    throw new ServeError('SERVE_ERR_INVALID_OPTION', '--public-key must be 64 hex digits (an Ed25519 public key)');
  }
  if (!existsSync(join(auditDir(dataDir), 'keys.json'))) {
    throw new ServeError('SERVE_ERR_NO_DATA', `${dataDir} has no audit/keys.json (start \`leakscan serve --data ${dataDir}\` once to create it)`);
  }
  return options.publicKey === undefined ? null : [{ public_key: options.publicKey.toLowerCase(), not_before: 0 }];
}
