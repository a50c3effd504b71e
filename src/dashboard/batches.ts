/**
 * A zone's stored detections as the dashboard shows them: its batches, newest first, each read from the
 * events bucket and checked against its signed epoch with the same check as `leakscan verify`
 * (`checkBatch`). A batch written but not yet published (the service publishes right after writing,
 * or at its next start after a crash) is shown as pending, not as a failure.
 *
 * A verified batch stays verified as long as its bytes do not change: the check's result is kept per
 * batch with the SHA-256 of the bytes it passed, and a later read whose bytes hash the same skips the
 * epoch lookup, the signature and the Merkle root. Bytes altered since are checked again (and fail).
 */
import { createHash } from 'node:crypto';
import { AuditError, type AuditLog, type EpochRecord } from '../audit/index.js';
import type { StoreBucket } from '../storage/index.js';
import { batchKey, batchNumberOf, batchPrefix, listKeys, namespaceOf, readBatchLines, type LogEvent } from '../eventlog/index.js';
import { checkBatch } from '../verify/index.js';

/** What one batch holds and whether its epoch vouches for it (the dashboard's detections page shows it). */
export interface DetectionBatch {
  batch: number;
  key: string;
  /** The batch's events as stored (lines that do not parse are left out; the check names them). */
  events: LogEvent[];
  /**
   * `verified`: epoch n is signed by the log's keys over this batch's SHA-256; `pending`: no epoch n
   * yet; `failed`: `problems` say what is wrong (altered, bad signature, bad lines, missing).
   */
  state: 'verified' | 'pending' | 'failed';
  problems: { code: string; message: string }[];
}

/** Verified batches remembered (their key and SHA-256: about 150 bytes each). */
export const kVerifiedKept = 100_000;

export class Detections {
  readonly #events: StoreBucket;
  readonly #log: AuditLog;
  /** Batch key → SHA-256 (hex) of the bytes that verified; oldest first, at most kVerifiedKept. */
  readonly #verified = new Map<string, string>();

  constructor(events: StoreBucket, log: AuditLog) {
    this.#events = events;
    this.#log = log;
  }

  /** The zone's batch numbers, in ascending order. */
  async batches(zone: string): Promise<number[]> {
    const out: number[] = [];
    for (const key of await listKeys(this.#events, batchPrefix(zone))) {
      const n = batchNumberOf(key, zone);
      if (n !== undefined) out.push(n);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * Host names of the zone's newest batch (as stored: lower case, any match masked), at most `limit`;
   * none when that batch fails its check, so a name the zone list shows is one the log vouches for.
   */
  async hosts(zone: string, limit = 5): Promise<string[]> {
    const newest = (await this.batches(zone)).at(-1);
    if (newest === undefined) return [];
    const b = await this.read(zone, newest);
    if (b.state === 'failed') return [];
    const names = new Set<string>();
    for (const e of b.events) if (typeof e.host === 'string' && e.host !== '' && names.size < limit) names.add(e.host);
    return [...names];
  }

  async read(zone: string, n: number): Promise<DetectionBatch> {
    const key = batchKey(zone, n);
    const obj = await this.#events.get(key);
    if (obj === null) return { batch: n, key, events: [], state: 'failed', problems: [{ code: 'VERIFY_EPOCH_WITHOUT_BATCH', message: `batch ${key} is missing` }] };
    const bytes = new Uint8Array(await obj.arrayBuffer());
    const lines = readBatchLines(bytes, zone, n);
    const events = lines.objects as unknown as LogEvent[];
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (this.#verified.get(key) === sha) return { batch: n, key, events, state: 'verified', problems: [] };
    let record: EpochRecord;
    try {
      record = await this.#log.record(namespaceOf(zone), n);
    } catch (e) {
      if (e instanceof AuditError && (e.code === 'AUDIT_ERR_EPOCH_NOT_FOUND' || e.code === 'AUDIT_ERR_NAMESPACE_NOT_FOUND')) {
        return { batch: n, key, events, state: 'pending', problems: [] };
      }
      throw e;
    }
    const problems = checkBatch(bytes, zone, n, record, this.#log.info().keys, lines).problems.map((p) => ({ code: p.code, message: p.message }));
    if (problems.length === 0) this.#remember(key, sha);
    else this.#verified.delete(key);
    return { batch: n, key, events, state: problems.length === 0 ? 'verified' : 'failed', problems };
  }

  #remember(key: string, sha: string): void {
    this.#verified.delete(key);
    this.#verified.set(key, sha);
    if (this.#verified.size > kVerifiedKept) this.#verified.delete(this.#verified.keys().next().value!);
  }
}
