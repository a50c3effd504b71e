/**
 * The audit log's error catalogue: one stable code per refusal, with its HTTP status and the exact
 * `text/plain` body the server answers with (also sent as the `audit-error` header, so clients can switch
 * on the code). docs/audit.md lists them; test/audit/errors-doc.test.ts checks both ways.
 *
 * Only the disabled-namespace answer is published (400, `Namespace is disabled and read-only.`); the other
 * statuses are ours. Conflicts with the log's state (publish rules 1–4) are 409 as in the C2SP witness
 * protocol; malformed input (rule 5 and the bad-input cases) is 400; only 404 means "absent", as the plexi
 * client expects.
 */
export const kAuditErrors = {
  AUDIT_ERR_NAMESPACE_DISABLED: { status: 400, body: 'Namespace is disabled and read-only.' },
  AUDIT_ERR_ROOT_MISMATCH: { status: 409, body: 'Root is not valid: the first epoch must equal the namespace root in number and digest.' },
  AUDIT_ERR_EPOCH_NOT_NEXT: { status: 409, body: 'Epoch is not the next epoch of the namespace.' },
  AUDIT_ERR_DIGEST_REUSED: { status: 409, body: 'Digest is already used by another epoch of the namespace.' },
  AUDIT_ERR_EPOCH_EXISTS: { status: 409, body: 'Epoch has already been published and cannot be republished.' },
  AUDIT_ERR_INVALID_DIGEST: { status: 400, body: 'Digest must be a 32-byte value, hex encoded (64 hex characters).' },
  AUDIT_ERR_INVALID_EPOCH: { status: 400, body: 'Epoch must be an integer from 1 to 9007199254740991.' },
  AUDIT_ERR_INVALID_JSON: { status: 400, body: 'Request body must be a JSON object.' },
  AUDIT_ERR_INVALID_FIELD: { status: 400, body: 'Request body has a missing or invalid field.' },
  AUDIT_ERR_INVALID_NAMESPACE_NAME: { status: 400, body: 'Namespace name must be 1 to 128 characters of A-Z a-z 0-9 . _ - and start with a letter or digit.' },
  AUDIT_ERR_INVALID_ROOT: { status: 400, body: 'Root must be "<epoch>/<64 hex digest>".' },
  AUDIT_ERR_INVALID_STATUS: { status: 400, body: 'Status can only be changed to "Disabled".' },
  AUDIT_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, body: 'Content-Type must be application/json.' },
  AUDIT_ERR_BODY_TOO_LARGE: { status: 413, body: 'Request body is too large.' },
  AUDIT_ERR_CLIENT_CERT_REQUIRED: { status: 401, body: 'A client certificate of the log owner is required.' },
  AUDIT_ERR_CLIENT_CERT_UNTRUSTED: { status: 403, body: 'The client certificate is not trusted by the log owner.' },
  AUDIT_ERR_NAMESPACE_NOT_FOUND: { status: 404, body: 'Namespace does not exist.' },
  AUDIT_ERR_EPOCH_NOT_FOUND: { status: 404, body: 'Epoch does not exist.' },
  AUDIT_ERR_NAMESPACE_EXISTS: { status: 409, body: 'Namespace already exists.' },
  AUDIT_ERR_NOT_FOUND: { status: 404, body: 'Not found.' },
  AUDIT_ERR_METHOD_NOT_ALLOWED: { status: 405, body: 'Method not allowed.' },
  AUDIT_ERR_INTERNAL: { status: 500, body: 'Internal error; the request may not have been applied.' },
} as const;

export type AuditErrorCode = keyof typeof kAuditErrors;

/** A refusal of the audit log: `code` from the catalogue, `status` and `body` fixed by it. */
export class AuditError extends Error {
  readonly code: AuditErrorCode;
  readonly status: number;
  readonly body: string;
  constructor(code: AuditErrorCode, options?: { cause?: unknown }) {
    super(`${code}: ${kAuditErrors[code].body}`, options);
    this.name = 'AuditError';
    this.code = code;
    this.status = kAuditErrors[code].status;
    this.body = kAuditErrors[code].body;
  }
}

export function isAuditErrorCode(v: unknown): v is AuditErrorCode {
  return typeof v === 'string' && Object.hasOwn(kAuditErrors, v);
}
