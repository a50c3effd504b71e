/** A content coding the engine can undo with `node:zlib`. */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

export interface ContentEncodingInfo {
  /** Codings in the order they were applied (header order); undo them last to first (RFC 9110 §8.4). */
  codings: ContentCoding[];
  /** Set when the header names a coding we cannot undo, or stacks too many: the body cannot be decoded. */
  error?: string;
}

/**
 * More layers than this is not a real server, but a decompression-bomb shape (each gzip layer can
 * multiply the size by ~1000).
 */
export const kMaxCodings = 3;

const kAliases: Readonly<Record<string, ContentCoding | 'identity'>> = {
  'gzip': 'gzip',
  // RFC 9110 §8.4.1.3: recipients SHOULD treat x-gzip as gzip.
  'x-gzip': 'gzip',
  'deflate': 'deflate',
  'br': 'br',
  'identity': 'identity',
};

/**
 * Parses a `Content-Encoding` header: a comma list, case-insensitive, `identity` and empty items
 * ignored, `x-gzip` read as `gzip`. Unknown codings (`compress`, `zstd`, `dcb`…) give an error naming
 * them; `codings` still lists the known ones.
 *
 * @example
 * parseContentEncoding('gzip, identity, BR'); // { codings: ['gzip', 'br'] }
 * parseContentEncoding('zstd').error;          // 'unsupported content-encoding "zstd"'
 */
export function parseContentEncoding(header: string | undefined): ContentEncodingInfo {
  const codings: ContentCoding[] = [];
  if (header === undefined) return { codings };
  const unknown: string[] = [];
  for (const item of header.split(',')) {
    const name = item.trim().toLowerCase();
    if (name === '') continue;
    const coding = kAliases[name];
    if (coding === undefined) unknown.push(name);
    else if (coding !== 'identity') codings.push(coding);
  }
  if (unknown.length > 0) {
    const list = unknown.map((u) => JSON.stringify(u)).join(', ');
    return { codings, error: `unsupported content-encoding ${list} (supported: gzip, deflate, br)` };
  }
  if (codings.length > kMaxCodings) {
    return { codings, error: `too many content codings (${codings.length}, at most ${kMaxCodings})` };
  }
  return { codings };
}
