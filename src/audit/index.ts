/**
 * The epoch audit log (spec area B), compatible with Cloudflare's auditor API and its plexi client:
 * signed epochs per namespace, published over mutual TLS, read by anyone. See docs/audit.md.
 * @example
 * import { startAuditServer, AuditClient, clientTlsFromFiles, verifyRecord } from './audit/index.js';
 * const audit = await startAuditServer({ dataDir: '.leakscan' });
 * const client = new AuditClient({ url: audit.url, ...clientTlsFromFiles({ ca: audit.material.tls.ca }) });
 * const record = await client.record('my.log', 1);
 * verifyRecord(record, await client.info(), { namespace: 'my.log', epoch: 1 }); // { valid: true, … }
 */
export { startAuditServer, openAuditLog, auditStoreDir, type AuditServer, type AuditServerOptions } from './server.js';
export { createAuditHandler, kMaxBodyBytes, type AuditHandlerDeps } from './handler.js';
export { AuditLog, type AuditLogOptions, type NamespaceInfo, type NamespaceStatus, type CreateNamespaceInput } from './log.js';
export { ensureAuditMaterial, type AuditMaterial } from './material.js';
export { ensureTlsMaterial, tlsPaths, type TlsPaths, type TlsMaterial } from './tls.js';
export { ensureSigningKey, auditDir, type SigningMaterial } from './keys.js';
export {
  verifyRecord,
  verifyRecordWithKey,
  parseRecord,
  recordMessage,
  wireRecord,
  type EpochRecord,
  type KeyInfo,
  type AuditorInfo,
  type VerifyResult,
} from './record.js';
export { serializeMessage, kCiphersuites, isCiphersuite, type Ciphersuite, type SignedFields } from './message.js';
export {
  keyIdOf,
  publicKeyProblem,
  signatureProblem,
  verifyingKey,
  verifyStrict,
  signingKeyFromSeed,
  signingKeyFromPem,
  signMessage,
  WeakKeyError,
  type VerifyingKey,
  type SigningKey,
  type KeyProblem,
  type SignatureProblem,
} from './ed25519.js';
export { AuditError, kAuditErrors, isAuditErrorCode, type AuditErrorCode } from './errors.js';
export { AuditClient, AuditHttpError, clientTlsFromFiles, type AuditClientOptions, type RawResponse } from './client.js';
export { parseDigest, parseEpoch, parseEpochText, parseRoot, formatRoot, isNamespaceName, type Root } from './validate.js';
