import { isAscii } from 'node:buffer';
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib';
import type { Finding } from '../../types.js';
import type { TextPosition } from '../../report/types.js';
import { parseContentEncoding } from '../../content/index.js';

/**
 * Decoded bytes one body may take to compute positions from. The engine scans at most its 1 MiB cap,
 * but a compressed prefix of that is decoded whole here; a body that inflates past this (a
 * decompression bomb) simply gets no positions.
 */
export const kMaxPositionBytes = 64 * 1024 * 1024;

/**
 * `raw` with its Content-Encoding undone (last coding first), tolerating a cut-off end (the capture
 * stops at the bytes the engine could use); undefined when it does not decode or is too large.
 */
export function decodeForPositions(raw: Uint8Array, contentEncoding: string | undefined): Uint8Array | undefined {
  const enc = parseContentEncoding(contentEncoding);
  if (enc.error !== undefined) return undefined;
  let bytes: Uint8Array = raw;
  try {
    for (const coding of [...enc.codings].reverse()) {
      if (coding === 'br') bytes = brotliDecompressSync(bytes, { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: kMaxPositionBytes });
      else if (coding === 'gzip') bytes = gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: kMaxPositionBytes });
      else bytes = inflateSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: kMaxPositionBytes });
    }
  } catch {
    return undefined;
  }
  return bytes;
}

/** UTF-16 bodies (by charset parameter or byte-order mark): their newlines are not the byte 0x0a alone. */
function isUtf16(bytes: Uint8Array, contentType: string | undefined): boolean {
  if (contentType !== undefined && /charset\s*=\s*"?(?:utf-16|unicode|ucs-2)/i.test(contentType)) return true;
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/**
 * Line and column of each finding's start and end in the decoded body: lines 1-based, counted at
 * each LF (CRLF counts once); columns 1-based, in UTF-16 code units of the line read as UTF-8
 * (SARIF's default `columnKind`, and what editors show), the end column just past the value. Linear
 * in the body however many findings share a line (a minified document is one line of 1 MiB).
 * Undefined for a UTF-16 body.
 */
export function findingPositions(findings: readonly Finding[], body: Uint8Array, contentType?: string): TextPosition[] | undefined {
  if (findings.length === 0 || isUtf16(body, contentType)) return undefined;
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Every start and end, in order (a typed array sorts numerically without a comparator call).
  const points = new Float64Array(2 * findings.length);
  findings.forEach((f, i) => {
    points[2 * i] = f.start;
    points[2 * i + 1] = f.end;
  });
  points.sort();
  const at = new Map<number, { line: number; column: number }>();
  let line = 1;
  let pos = 0; // bytes before `pos` are accounted for in `line` / `column`
  let column = 1;
  // Native searches, not a loop over the bytes: `nextNl` is the first LF at or after `pos` (-1: none
  // left), so each search finds a line the walk then crosses, and a minified body (one long line) is
  // searched once. A body all ASCII (most) never has a stretch tested for wide characters.
  const ascii = isAscii(buf);
  let nextNl = buf.indexOf(0x0a);
  for (let k = 0; k < points.length; k++) {
    const p = points[k]!;
    if (k > 0 && p === points[k - 1]) continue;
    const target = Math.min(p, buf.length);
    let from = pos;
    while (nextNl >= 0 && nextNl < target) {
      line++;
      column = 1;
      from = nextNl + 1;
      nextNl = buf.indexOf(0x0a, from);
    }
    // Editors count the columns of a non-ASCII stretch in its UTF-16 units: it is decoded.
    if (target > from) column += ascii || isAscii(buf.subarray(from, target)) ? target - from : buf.toString('utf8', from, target).length;
    pos = Math.max(pos, target);
    at.set(p, { line, column });
  }
  return findings.map((f) => {
    const s = at.get(f.start)!;
    const e = at.get(f.end)!;
    return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
  });
}
