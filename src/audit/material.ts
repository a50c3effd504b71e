/** Everything the audit log needs on disk, made on first start and reused after. */
import { mkdirSync } from 'node:fs';
import { ensureSigningKey, type SigningMaterial } from './keys.js';
import { ensureTlsMaterial, type TlsPaths } from './tls.js';

export interface AuditMaterial {
  tls: TlsPaths;
  signing: SigningMaterial;
  /** Every path created by this call (empty when everything was reused): `leakscan serve` prints them. */
  created: string[];
}

/**
 * Creates, when missing, DIR/tls/{ca.pem, ca-key.pem, server.pem, server-key.pem, client.pem,
 * client-key.pem} and the signing key DIR/audit/signing-key.pem (private keys mode 0600), and loads them.
 * @example
 * const m = await ensureAuditMaterial('.leakscan');
 * for (const p of m.created) console.log(`created ${p}`);
 */
export async function ensureAuditMaterial(dataDir: string, now: () => number = Date.now): Promise<AuditMaterial> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tls = await ensureTlsMaterial(dataDir, now());
  const signing = ensureSigningKey(dataDir, now);
  return { tls: tls.paths, signing, created: [...tls.created, ...signing.created] };
}
