/**
 * An inclusion proof of one leaf (one line of a batch) in a signed epoch: the leaf's bytes, its place
 * in the tree, its audit path, and the epoch record whose digest is the tree's root. Whoever holds the
 * log's public key checks it without the rest of the batch: the path hashes reveal nothing of the
 * other leaves.
 */
import { verifyRecord, wireRecord, type EpochRecord, type KeyInfo } from '../audit/index.js';
import { LeakscanError, type Code } from '../errors.js';
import { inclusionPath, kHashBytes, leafHash, merkleRoot, rootFromInclusion } from './merkle.js';

/** Names the hashing: RFC 9162 §2.1 over SHA-256, a leaf being one batch line without its newline. */
export const kProofScheme = 'rfc9162-sha256';

export interface InclusionProof {
  scheme: typeof kProofScheme;
  /** Audit log namespace and epoch that sign the tree's root. */
  namespace: string;
  epoch: number;
  /** The leaf's position in the tree, from 0, and the tree's number of leaves. */
  index: number;
  size: number;
  /** The leaf's bytes as UTF-8 text (a JSON line of the batch). */
  leaf: string;
  /** Sibling hashes from the leaf up to the root, lower-case hex, bottom first. */
  path: string[];
  /** The signed epoch record (B1's shape); its `digest` is the root the path must reach. */
  record: EpochRecord;
}

const kHex64 = /^[0-9a-f]{64}$/;

/** The proof of leaf `index` among `leaves` (every leaf's bytes), under `record`. */
export function buildInclusionProof(leaves: readonly Uint8Array[], index: number, record: EpochRecord): InclusionProof {
  const hashes = leaves.map((l) => leafHash(l));
  return {
    scheme: kProofScheme,
    namespace: record.namespace,
    epoch: record.epoch,
    index,
    size: leaves.length,
    leaf: Buffer.from(leaves[index]!).toString('utf8'),
    path: inclusionPath(hashes, index).map((h) => h.toString('hex')),
    record: wireRecord(record),
  };
}

/** The epoch digest of a tree over `leaves`: its RFC 9162 root, lower-case hex. */
export function treeDigest(leaves: readonly Uint8Array[]): string {
  return merkleRoot(leaves.map((l) => leafHash(l))).toString('hex');
}

export type ProofCheck =
  | { valid: true; proof: InclusionProof; key: KeyInfo }
  | { valid: false; code: Code; reason: string };

function fail(code: Code, reason: string): ProofCheck {
  return { valid: false, code, reason };
}

/** `value` as an InclusionProof when every field has its type, else why not. */
function shapeOf(value: unknown): InclusionProof | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a proof is a JSON object';
  const p = value as Record<string, unknown>;
  if (p.scheme !== kProofScheme) return `scheme must be "${kProofScheme}"`;
  if (typeof p.namespace !== 'string') return 'namespace must be a string';
  for (const k of ['epoch', 'index', 'size'] as const) {
    if (!Number.isSafeInteger(p[k]) || (p[k] as number) < 0) return `${k} must be a non-negative integer`;
  }
  if (typeof p.leaf !== 'string') return 'leaf must be a string';
  if (!Array.isArray(p.path) || !p.path.every((h) => typeof h === 'string' && kHex64.test(h))) return `path must be a list of ${kHashBytes}-byte hashes in lower-case hex`;
  if (typeof p.record !== 'object' || p.record === null) return 'record must be an epoch record';
  return p as unknown as InclusionProof;
}

/**
 * Checks a proof: its shape, the record's signature under `keys` (for `namespace` and `epoch`), and
 * that the leaf's hash leads along the path to the signed digest. Each failure has its own stable code.
 * @example
 * const r = checkInclusionProof(JSON.parse(text), [{ public_key: hex, not_before: 0 }]);
 * if (!r.valid) console.error(r.code, r.reason);
 */
export function checkInclusionProof(value: unknown, keys: readonly KeyInfo[], expect: { namespace?: string; epoch?: number } = {}): ProofCheck {
  const p = shapeOf(value);
  if (typeof p === 'string') return fail('SDD_ERR_PROOF_MALFORMED', p);
  if (expect.namespace !== undefined && p.namespace !== expect.namespace) return fail('SDD_ERR_PROOF_EVENT', `the proof is for namespace ${p.namespace}, not ${expect.namespace}`);
  if (expect.epoch !== undefined && p.epoch !== expect.epoch) return fail('SDD_ERR_PROOF_EVENT', `the proof is for epoch ${p.epoch}, not ${expect.epoch}`);
  const signed = verifyRecord(p.record, keys, { namespace: p.namespace, epoch: p.epoch });
  if (!signed.valid) return fail('SDD_ERR_PROOF_SIGNATURE', `epoch ${p.epoch} of ${p.namespace}: ${signed.reason}`);
  const root = rootFromInclusion(p.index, p.size, leafHash(Buffer.from(p.leaf, 'utf8')), p.path.map((h) => Buffer.from(h, 'hex')));
  if (root === null) return fail('SDD_ERR_PROOF_PATH', `a path of ${p.path.length} hashes cannot lead from leaf ${p.index} to the root of a tree of ${p.size}`);
  if (root.toString('hex') !== signed.record.digest) {
    return fail('SDD_ERR_PROOF_PATH', `the leaf and its path lead to ${root.toString('hex')}, but epoch ${p.epoch} signs ${signed.record.digest}: the leaf, its position or the path was altered`);
  }
  return { valid: true, proof: { ...p, record: signed.record }, key: signed.key };
}

/** A failed check as the error callers throw. */
export function proofError(check: Extract<ProofCheck, { valid: false }>): LeakscanError {
  return new LeakscanError(check.code, check.reason);
}
