import type { StoreError as StoreErrorShape } from './types.js';

/**
 * The storage error catalogue: R2's v4 codes, HTTP statuses and messages, exactly as the Workers runtime
 * surfaces them (`"<action>: <message> (<code>)"`). Documented in docs/storage.md; a test checks both
 * ways. Kept apart from src/errors.ts because these codes and texts are R2's, not ours.
 */
export const kStoreErrors = {
  InternalError: { code: 10001, status: 500, message: 'We encountered an internal error. Please try again.' },
  NoSuchKey: { code: 10007, status: 404, message: 'The specified key does not exist.' },
  EntityTooLarge: { code: 100100, status: 400, message: 'Your proposed upload exceeds the maximum allowed object size.' },
  EntityTooSmall: { code: 10011, status: 400, message: 'Your proposed upload is smaller than the minimum allowed object size.' },
  MetadataTooLarge: { code: 10012, status: 400, message: 'Your metadata headers exceed the maximum allowed metadata size.' },
  InvalidObjectName: { code: 10020, status: 400, message: 'The specified object name is not valid.' },
  InvalidMaxKeys: { code: 10022, status: 400, message: 'MaxKeys params must be positive integer <= 1000.' },
  NoSuchUpload: { code: 10024, status: 400, message: 'The specified multipart upload does not exist.' },
  InvalidPart: { code: 10025, status: 400, message: 'One or more of the specified parts could not be found.' },
  InvalidArgument: { code: 10029, status: 400, message: 'Metadata missing or invalid' },
  PreconditionFailed: { code: 10031, status: 412, message: 'At least one of the pre-conditions you specified did not hold.' },
  BadDigest: { code: 10037, status: 400, message: 'The %ALG% checksum you specified did not match what we received.' },
  InvalidRange: { code: 10039, status: 416, message: 'The requested range is not satisfiable' },
  BadUpload: { code: 10048, status: 500, message: 'There was a problem with the multipart upload.' },
} as const;

export type StoreErrorName = keyof typeof kStoreErrors;

/** The operations named in error messages, as the runtime names them. */
export type StoreAction =
  | 'head'
  | 'get'
  | 'put'
  | 'delete'
  | 'list'
  | 'createMultipartUpload'
  | 'uploadPart'
  | 'completeMultipartUpload'
  | 'abortMultipartUpload';

/**
 * Thrown by every bucket operation that fails in storage.
 * @example
 * try { await bucket.head('x'.repeat(1025)); } catch (e) { if (e instanceof StoreBucketError) e.code; } // 10020
 */
export class StoreBucketError extends Error implements StoreErrorShape {
  readonly code: number;
  readonly status: number;
  readonly action: string;
  readonly errorName: StoreErrorName;
  declare readonly stack: any;
  constructor(action: StoreAction, name: StoreErrorName, text?: string) {
    const entry = kStoreErrors[name];
    super(`${action}: ${text ?? entry.message} (${entry.code})`);
    this.name = 'StoreError';
    this.code = entry.code;
    this.status = entry.status;
    this.action = action;
    this.errorName = name;
  }
}

export function storeError(action: StoreAction, name: StoreErrorName, text?: string): StoreBucketError {
  return new StoreBucketError(action, name, text);
}

/** BadDigest's three-line message (the runtime passes it through verbatim). */
export function badDigest(action: StoreAction, alg: string, provided: string, actual: string): StoreBucketError {
  const first = kStoreErrors.BadDigest.message.replace('%ALG%', alg);
  return new StoreBucketError(
    action,
    'BadDigest',
    `${first}\nYou provided a ${alg} checksum with value: ${provided}\nActual ${alg} was: ${actual}`,
  );
}

/** Errors of the store itself (not R2's), thrown by `openBucket`. */
export const kStoreOpenErrors = {
  STORE_ERR_LOCKED: 'the bucket directory is open in another process',
  STORE_ERR_OPEN: 'the bucket directory could not be opened',
} as const;

export class StoreOpenError extends Error {
  readonly code: keyof typeof kStoreOpenErrors;
  constructor(code: keyof typeof kStoreOpenErrors, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${kStoreOpenErrors[code]}: ${detail}` : kStoreOpenErrors[code], options);
    this.name = 'StoreOpenError';
    this.code = code;
  }
}
