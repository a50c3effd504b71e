import type { ArchiveEntry } from '../../report/types.js';

/** Code of an archive (HAR, WARC) that cannot be read as one: the file is reported, the others scanned. */
export const kInputFormatErrorCode = 'SDD_ERR_INPUT_FORMAT';

/**
 * Archives are parsed whole, so their size is bounded: a HAR is one JSON document (parsing takes
 * several times its size in memory), and a WARC is indexed record by record from one buffer.
 */
export const kMaxArchiveBytes = 256 * 1024 * 1024;

/** One response body found in an archive, with what the archive says about it. */
export interface ArchiveBody {
  entry: ArchiveEntry;
  /** The body as the server sent it after transfer decoding (HAR: after base64; WARC: after chunking). */
  body: Uint8Array;
  /** The response's Content-Type, when the archive records one. */
  contentType?: string;
  /** The response's Content-Encoding, when the body in the archive is still encoded (WARC). */
  contentEncoding?: string;
}

/** An archive that is not one (bad JSON, no `log.entries`, a broken record): `code` is `SDD_ERR_INPUT_FORMAT`. */
export class ArchiveFormatError extends Error {
  readonly code = kInputFormatErrorCode;
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveFormatError';
  }
}
