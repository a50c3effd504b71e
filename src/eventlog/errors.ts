/**
 * The service's error catalogue (`leakscan serve`, `stop` and `verify`): one stable code per failure
 * to start or to read a data directory, and one per problem `verify` can find. docs/serve.md lists
 * every code; test/serve/errors-doc.test.ts checks both ways. Kept apart from src/errors.ts, as the
 * audit log's and the store's catalogues are, because these codes belong to the service only; kept in
 * the event log's folder because zones, verify, the pid file and the service all throw them.
 */
import { StoreOpenError } from '../storage/index.js';

export const kServeErrors = {
  SERVE_ERR_INVALID_OPTION: 'an option has an invalid value',
  SERVE_ERR_DATA_LOCKED: 'the data directory is in use by another process (a running `leakscan serve`)',
  SERVE_ERR_NO_DATA: 'the data directory holds no leakscan service data',
  SERVE_ERR_LISTEN: 'a port could not be listened on',
  SERVE_ERR_NOT_RUNNING: 'no `leakscan serve` runs on the data directory',
  SERVE_ERR_STOP_TIMEOUT: 'the service did not stop in time',
} as const;

export type ServeErrorCode = keyof typeof kServeErrors;

/**
 * A failure of the service to start, or of `verify` to open a data directory.
 * @example
 * try { await startServe({ dataDir }); } catch (e) { if (e instanceof ServeError && e.code === 'SERVE_ERR_DATA_LOCKED') … }
 */
export class ServeError extends Error {
  readonly code: ServeErrorCode;
  constructor(code: ServeErrorCode, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${kServeErrors[code]}: ${detail}` : kServeErrors[code], options);
    this.name = 'ServeError';
    this.code = code;
  }
}

/** A store's lock refusal as SERVE_ERR_DATA_LOCKED (`hint` appended to its message); any other error as it is. */
export function dataLockedError(e: unknown, hint = ''): unknown {
  if (e instanceof StoreOpenError && e.code === 'STORE_ERR_LOCKED') return new ServeError('SERVE_ERR_DATA_LOCKED', `${e.message}${hint}`, { cause: e });
  return e;
}

/**
 * What `leakscan verify` can find wrong with a zone's stored batches and the audit log's epochs. Each
 * problem names the batch (its bucket key) or the epoch it is about.
 */
export const kVerifyProblems = {
  VERIFY_DIGEST_MISMATCH: "the batch's digest (Merkle root of its lines, or SHA-256 of a format 1 batch) differs from the digest signed in its epoch (the batch was altered)",
  VERIFY_BAD_SIGNATURE: "the epoch record does not verify with the audit log's published keys",
  VERIFY_BATCH_WITHOUT_EPOCH: 'a stored batch has no published epoch',
  VERIFY_EPOCH_WITHOUT_BATCH: 'a published epoch has no stored batch (the batch was deleted)',
  VERIFY_GAP: 'neither a batch nor an epoch exists for a number below the latest (the sequence has a gap)',
  VERIFY_BAD_BATCH: 'a batch is not NDJSON of this zone\'s events with its own batch number (after its header, in format 2)',
  VERIFY_UNEXPECTED_KEY: "a key under the zone's events/ prefix is not a batch key",
  VERIFY_NOTHING_STORED: 'the zone asked for has no batches and no epochs',
} as const;

export type VerifyProblemCode = keyof typeof kVerifyProblems;
