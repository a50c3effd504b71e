/**
 * The log's Ed25519 signing key and the list of public keys `GET /info` publishes.
 *
 * DIR/audit/signing-key.pem  PKCS#8 PEM, mode 0600: the key that signs new epochs.
 * DIR/audit/keys.json        {"keys":[{"public_key","not_before"}]}: every key that ever signed here.
 *
 * Rotation: replace signing-key.pem and restart; the new public key is appended with `not_before` = now
 * and the old ones stay listed, so records they signed still verify.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { signingKeyFromPem, type SigningKey } from './ed25519.js';
import { writeFileAtomic } from './files.js';
import type { KeyInfo } from './record.js';

export interface SigningMaterial {
  signer: SigningKey;
  /** The keys to publish, oldest first; the signer's entry is among them. */
  keys: KeyInfo[];
  /** `not_before` of the signer's entry: no record it signs may carry an earlier timestamp. */
  notBefore: number;
  paths: { signingKey: string; keys: string };
  /** Paths created by this call. */
  created: string[];
}

export function auditDir(dataDir: string): string {
  return join(dataDir, 'audit');
}

function readKeys(path: string): KeyInfo[] {
  if (!existsSync(path)) return [];
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { keys?: unknown };
  if (!Array.isArray(parsed.keys)) throw new Error(`${path}: "keys" is not an array`);
  return parsed.keys.map((k: unknown, i: number) => {
    const o = k as Partial<KeyInfo>;
    if (typeof o?.public_key !== 'string' || !/^[0-9a-f]{64}$/.test(o.public_key) || !Number.isSafeInteger(o.not_before)) {
      throw new Error(`${path}: keys[${i}] is not {public_key: 64 hex, not_before: ms}`);
    }
    return { public_key: o.public_key, not_before: o.not_before as number };
  });
}

/**
 * Loads the signing key of DIR, creating it (and keys.json) on first use.
 * @example
 * const { signer, keys } = ensureSigningKey('.leakscan');
 */
export function ensureSigningKey(dataDir: string, now: () => number = Date.now): SigningMaterial {
  const dir = auditDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const paths = { signingKey: join(dir, 'signing-key.pem'), keys: join(dir, 'keys.json') };
  const created: string[] = [];
  if (!existsSync(paths.signingKey)) {
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileAtomic(paths.signingKey, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, 0o600);
    created.push(paths.signingKey);
  } else if ((statSync(paths.signingKey).mode & 0o077) !== 0) {
    // A private key readable by others is tightened rather than refused: the owner of DIR put it there.
    chmodSync(paths.signingKey, 0o600);
  }
  // A generated key is never weak, but a file put here by hand may be: signingKeyFromPem screens it.
  const signer = signingKeyFromPem(readFileSync(paths.signingKey, 'utf8'));
  const keys = readKeys(paths.keys);
  let entry = keys.find((k) => k.public_key === signer.public.hex);
  if (!entry) {
    entry = { public_key: signer.public.hex, not_before: now() };
    keys.push(entry);
    writeFileAtomic(paths.keys, `${JSON.stringify({ keys }, null, 2)}\n`, 0o644);
    created.push(paths.keys);
  }
  return { signer, keys, notBefore: entry.not_before, paths, created };
}
