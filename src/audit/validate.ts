/** Input checks of the audit log. Each refuses with its catalogue code before anything is read or written. */
import { AuditError } from './errors.js';

const kDigest = /^[0-9a-fA-F]{64}$/;
const kName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const kRoot = /^([0-9]{1,16})\/([0-9a-fA-F]{64})$/;

/** Rule 5: 32 bytes as 64 hex digits. Upper case is accepted and returned lower case, so uniqueness ignores case. */
export function parseDigest(v: unknown): string {
  if (typeof v !== 'string' || !kDigest.test(v)) throw new AuditError('AUDIT_ERR_INVALID_DIGEST');
  return v.toLowerCase();
}

/** A JSON epoch: a number that is an integer from 1 to 2^53 − 1 (larger values cannot be represented exactly). */
export function parseEpoch(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new AuditError('AUDIT_ERR_INVALID_EPOCH');
  return v;
}

/** An epoch in a URL path: decimal digits only. */
export function parseEpochText(s: string): number {
  if (!/^[0-9]{1,16}$/.test(s)) throw new AuditError('AUDIT_ERR_INVALID_EPOCH');
  return parseEpoch(Number(s));
}

export function isNamespaceName(v: unknown): v is string {
  return typeof v === 'string' && kName.test(v);
}

export function parseNamespaceName(v: unknown): string {
  if (!isNamespaceName(v)) throw new AuditError('AUDIT_ERR_INVALID_NAMESPACE_NAME');
  return v;
}

export interface Root {
  epoch: number;
  digest: string;
}

/** plexi's root string `"<epoch>/<hex digest>"` (e.g. `"1/1111…"`); the digest is normalised to lower case. */
export function parseRoot(v: unknown): Root {
  const m = typeof v === 'string' ? kRoot.exec(v) : null;
  if (!m) throw new AuditError('AUDIT_ERR_INVALID_ROOT');
  const epoch = Number(m[1]);
  if (!Number.isSafeInteger(epoch) || epoch < 1) throw new AuditError('AUDIT_ERR_INVALID_ROOT');
  return { epoch, digest: m[2]!.toLowerCase() };
}

export function formatRoot(root: Root): string {
  return `${root.epoch}/${root.digest}`;
}
