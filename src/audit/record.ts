/**
 * Epoch records on the wire and their verification against the auditor's published keys.
 */
import { keyIdOf, verifyingKey, verifyStrict, type VerifyingKey } from './ed25519.js';
import { isCiphersuite, serializeMessage, type Ciphersuite } from './message.js';

/**
 * A record as B1 returns it: the spec's five fields plus `version` and `ciphersuite` (plexi refuses a
 * record without one of them; it mirrors the two), in plexi's own field order. B2 adds `key_id`.
 */
export interface EpochRecord {
  version: Ciphersuite;
  ciphersuite: Ciphersuite;
  namespace: string;
  /** Milliseconds since the Unix epoch at which the log received the publish request. */
  timestamp: number;
  epoch: number;
  /** 64 lower-case hex digits. */
  digest: string;
  /** 128 lower-case hex digits: Ed25519 over the ciphersuite's message layout. */
  signature: string;
  /** The last byte of the signing public key; in publish responses. */
  key_id?: number;
}

/** An entry of `GET /info`'s `keys`. */
export interface KeyInfo {
  /** 64 hex digits: the raw Ed25519 public key. */
  public_key: string;
  /** Milliseconds since the Unix epoch from which the key signs. */
  not_before: number;
}

/** `GET /info` (plexi's `Configuration`). `logs` is in plexi's shape; its meaning is unpublished and it is empty here. */
export interface AuditorInfo {
  keys: KeyInfo[];
  logs: string[];
}

/** Builds the wire record in plexi's field order; `key_id` only when given. */
export function wireRecord(r: Omit<EpochRecord, 'version' | 'key_id'>, keyId?: number): EpochRecord {
  const out: EpochRecord = {
    version: r.ciphersuite,
    ciphersuite: r.ciphersuite,
    namespace: r.namespace,
    timestamp: r.timestamp,
    epoch: r.epoch,
    digest: r.digest,
    signature: r.signature,
  };
  if (keyId !== undefined) out.key_id = keyId;
  return out;
}

export type VerifyResult = { valid: true; key: KeyInfo; record: EpochRecord } | { valid: false; reason: string };

const kHex64 = /^[0-9a-fA-F]{64}$/;
const kHex128 = /^[0-9a-fA-F]{128}$/;

function isU64Safe(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/**
 * Reads a record as plexi does: `namespace`, `timestamp`, `epoch`, `digest`, `signature` required, and
 * `ciphersuite` or `version` (the first wins). Returns a reason string when it cannot be read.
 */
export function parseRecord(v: unknown): EpochRecord | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'the record is not a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.namespace !== 'string') return 'namespace is missing or not a string';
  if (!isU64Safe(o.timestamp)) return 'timestamp is missing or not a non-negative integer';
  if (!isU64Safe(o.epoch) || o.epoch < 1) return 'epoch is missing or not a positive integer';
  if (typeof o.digest !== 'string' || !kHex64.test(o.digest)) return 'digest is not 64 hex digits';
  if (typeof o.signature !== 'string' || !kHex128.test(o.signature)) return 'signature is not 64 bytes of hex';
  const suite = o.ciphersuite ?? o.version;
  if (suite === undefined) return 'either version or ciphersuite must be provided';
  if (!isCiphersuite(suite)) return `unsupported ciphersuite ${JSON.stringify(suite)}`;
  if (o.key_id !== undefined && !(Number.isInteger(o.key_id) && (o.key_id as number) >= 0 && (o.key_id as number) <= 255)) {
    return 'key_id is not an integer from 0 to 255';
  }
  return wireRecord(
    {
      ciphersuite: suite,
      namespace: o.namespace,
      timestamp: o.timestamp,
      epoch: o.epoch,
      digest: o.digest.toLowerCase(),
      signature: o.signature.toLowerCase(),
    },
    o.key_id as number | undefined,
  );
}

/** The exact bytes the record's signature covers (what the log signs and every reader re-serializes). */
export function recordMessage(r: Pick<EpochRecord, 'ciphersuite' | 'namespace' | 'timestamp' | 'epoch' | 'digest'>): Uint8Array {
  return serializeMessage({
    ciphersuite: r.ciphersuite,
    namespace: r.namespace,
    timestamp: r.timestamp,
    epoch: r.epoch,
    digest: Buffer.from(r.digest, 'hex'),
  });
}

function checkWith(r: EpochRecord, key: VerifyingKey): boolean {
  return verifyStrict(key, recordMessage(r), Buffer.from(r.signature, 'hex'));
}

/**
 * Published keys, screened and parsed once: a log's few keys are checked against every record it
 * verifies (`leakscan verify` walks every epoch), and the screening is the costly part. Bounded.
 */
const kScreenedKeys = new Map<string, VerifyingKey | null>();

function screenedKey(hex: string, raw: Uint8Array): VerifyingKey | null {
  let key = kScreenedKeys.get(hex);
  if (key === undefined) {
    try {
      key = verifyingKey(raw);
    } catch {
      key = null;
    }
    if (kScreenedKeys.size >= 256) kScreenedKeys.clear();
    kScreenedKeys.set(hex, key);
  }
  return key;
}

/**
 * Verifies a record (as fetched from B1 or B2) against the keys of `GET /info`. A key is a candidate
 * when its key id matches `key_id` (if the record has one) and its `not_before` is not after the
 * record's timestamp; weak or malformed keys are never used. Give `expect` to also pin what the caller
 * asked for, so a log cannot answer with another namespace's or epoch's valid record.
 * @example
 * const info = await client.info();
 * const record = await client.record('log1.example.com', 7);
 * const r = verifyRecord(record, info.keys, { namespace: 'log1.example.com', epoch: 7 });
 * if (!r.valid) throw new Error(r.reason);
 */
export function verifyRecord(
  record: unknown,
  keys: readonly KeyInfo[] | AuditorInfo,
  expect?: { namespace?: string; epoch?: number; digest?: string },
): VerifyResult {
  const r = parseRecord(record);
  if (typeof r === 'string') return { valid: false, reason: r };
  if (expect?.namespace !== undefined && r.namespace !== expect.namespace) return { valid: false, reason: `record is for namespace ${JSON.stringify(r.namespace)}` };
  if (expect?.epoch !== undefined && r.epoch !== expect.epoch) return { valid: false, reason: `record is for epoch ${r.epoch}` };
  if (expect?.digest !== undefined && r.digest !== expect.digest.toLowerCase()) return { valid: false, reason: 'record digest differs from the expected digest' };
  const list = Array.isArray(keys) ? (keys as readonly KeyInfo[]) : (keys as AuditorInfo).keys;
  if (!Array.isArray(list) || list.length === 0) return { valid: false, reason: 'no keys to verify with' };
  let candidates = 0;
  for (const k of list) {
    if (typeof k?.public_key !== 'string' || !kHex64.test(k.public_key)) continue;
    const raw = Buffer.from(k.public_key, 'hex');
    if (r.key_id !== undefined && keyIdOf(raw) !== r.key_id) continue;
    if (!isU64Safe(k.not_before) || k.not_before > r.timestamp) continue;
    const key = screenedKey(k.public_key, raw);
    if (key === null) continue;
    candidates++;
    if (checkWith(r, key)) return { valid: true, key: { public_key: key.hex, not_before: k.not_before }, record: r };
  }
  if (candidates === 0) {
    return { valid: false, reason: r.key_id === undefined ? 'no usable key was valid at the record timestamp' : `no usable key with key_id ${r.key_id} was valid at the record timestamp` };
  }
  return { valid: false, reason: 'the signature does not verify' };
}

/**
 * Verifies a record against one public key given out of band (what plexi's maintainers advise, since a
 * key fetched from the auditor itself proves little); weak keys are refused.
 * @example
 * verifyRecordWithKey(record, '2bbfbb39997fdb95feee40ef9f8827de0256732be06f64ed6408cc7e97c7f4d4');
 */
export function verifyRecordWithKey(record: unknown, publicKeyHex: string): VerifyResult {
  if (!kHex64.test(publicKeyHex)) return { valid: false, reason: 'the public key is not 64 hex digits' };
  const r = parseRecord(record);
  if (typeof r === 'string') return { valid: false, reason: r };
  let key: VerifyingKey;
  try {
    key = verifyingKey(Buffer.from(publicKeyHex, 'hex'));
  } catch (e) {
    return { valid: false, reason: (e as Error).message };
  }
  if (r.key_id !== undefined && r.key_id !== key.keyId) return { valid: false, reason: `record key_id ${r.key_id} is not this key's (${key.keyId})` };
  return checkWith(r, key) ? { valid: true, key: { public_key: key.hex, not_before: 0 }, record: r } : { valid: false, reason: 'the signature does not verify' };
}
