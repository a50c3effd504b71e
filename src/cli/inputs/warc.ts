import { type ArchiveBody, ArchiveFormatError } from './archive.js';

/**
 * WARC 1.0/1.1 (ISO 28500, the web-archive format of crawlers: Heritrix, wget --warc-file,
 * browsertrix): a sequence of records, each `WARC/1.x` CRLF, named header fields, CRLF, a block of
 * `Content-Length` bytes, CRLF CRLF. A `response` record whose block is `application/http` holds the
 * HTTP response as received: status line, headers, body, the body still in its transfer coding
 * (chunked) and Content-Encoding; a `resource` record holds a document as is. `.warc.gz` files are
 * gzip members one per record, which gunzip reads as one stream.
 */

/** A file name that says WARC: `crawl.warc`, `crawl.warc.gz`. */
export function isWarcPath(path: string): boolean {
  return /\.warc(?:\.gz)?$/i.test(path);
}

/** True when the bytes start like a WARC record (`WARC/1.`). */
export function looksLikeWarc(head: Uint8Array): boolean {
  return Buffer.from(head.subarray(0, 7)).toString('latin1') === 'WARC/1.';
}

const kCrlfCrlf = Buffer.from('\r\n\r\n');
const kLfLf = Buffer.from('\n\n');

/** End of a header block starting at `from`: [index of the blank line, length of the separator], or null. */
function headerEnd(buf: Buffer, from: number, limit = buf.length): [number, number] | null {
  const crlf = buf.indexOf(kCrlfCrlf, from);
  const lf = buf.indexOf(kLfLf, from);
  if (crlf !== -1 && crlf < limit && (lf === -1 || crlf <= lf)) return [crlf, 4];
  if (lf !== -1 && lf < limit) return [lf, 2];
  return null;
}

/** Header lines (`Name: value`) as a map with lower-case names; the first line is returned apart. */
function parseHeaders(text: string): { first: string; fields: Map<string, string> } {
  const lines = text.split(/\r?\n/);
  const fields = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // Repeated fields (Content-Encoding: gzip / Content-Encoding: br) are one comma list (RFC 9110 §5.3).
    fields.set(name, fields.has(name) ? `${fields.get(name)!}, ${value}` : value);
  }
  return { first: lines[0] ?? '', fields };
}

/**
 * The body of a chunked transfer coding (RFC 9112 §7.1), as far as it is well formed: a crawler
 * records the bytes it received, and a cut-off capture still has its first chunks worth scanning.
 */
export function dechunk(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', at, 'latin1');
    if (eol === -1) break;
    const size = Number.parseInt(buf.subarray(at, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size) || size <= 0) break;
    const start = eol + 2;
    parts.push(buf.subarray(start, Math.min(start + size, buf.length)));
    at = start + size + 2;
    if (at > buf.length) break;
  }
  return Buffer.concat(parts);
}

interface RawRecord {
  index: number;
  fields: Map<string, string>;
  block: Buffer;
}

/**
 * The response bodies of a WARC file: `response` records of HTTP (status, Content-Type and
 * Content-Encoding from the HTTP headers, chunked bodies joined) and `resource` records (the
 * document with the record's Content-Type). The method comes from the matching `request` record
 * (`WARC-Concurrent-To` either way, else the last request for the same target URI). `entry.index` is
 * the record's number in the file, 0-based. A file that does not start as WARC throws
 * `ArchiveFormatError`; a record cut short or malformed ends the reading, and `error` says where
 * (the bodies before it are still returned).
 */
export function warcBodies(bytes: Uint8Array): { bodies: ArchiveBody[]; error?: ArchiveFormatError } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!looksLikeWarc(buf)) throw new ArchiveFormatError('not a WARC file: it does not start with "WARC/1."');
  const records: RawRecord[] = [];
  let error: ArchiveFormatError | undefined;
  let at = 0;
  while (at < buf.length) {
    // Records are separated by CRLF CRLF; tolerate stray line ends between them.
    while (at < buf.length && (buf[at] === 0x0d || buf[at] === 0x0a)) at++;
    if (at >= buf.length) break;
    if (!looksLikeWarc(buf.subarray(at))) {
      error = new ArchiveFormatError(`not a WARC file: record ${records.length} at byte ${at} does not start with "WARC/1."`);
      break;
    }
    const end = headerEnd(buf, at);
    if (end === null) {
      error = new ArchiveFormatError(`WARC record ${records.length} at byte ${at}: headers never end`);
      break;
    }
    const { fields } = parseHeaders(buf.subarray(at, end[0]).toString('latin1'));
    const length = Number(fields.get('content-length'));
    if (!Number.isSafeInteger(length) || length < 0) {
      error = new ArchiveFormatError(`WARC record ${records.length} at byte ${at}: no valid Content-Length`);
      break;
    }
    const start = end[0] + end[1];
    if (start + length > buf.length) {
      error = new ArchiveFormatError(`WARC record ${records.length} at byte ${at}: truncated (Content-Length ${length}, ${buf.length - start} bytes left)`);
      break;
    }
    records.push({ index: records.length, fields, block: buf.subarray(start, start + length) });
    at = start + length;
  }

  // Request methods by the record they belong to: a request names its response with
  // WARC-Concurrent-To (Heritrix), or a response names its request (some tools); wget writes the
  // request just before the response, for the same target URI.
  const methodById = new Map<string, string>();
  const methodByUri = new Map<string, string>();
  const methodOf = (r: RawRecord): string => /^([A-Z]+) /.exec(r.block.subarray(0, 32).toString('latin1'))?.[1] ?? '';
  for (const r of records) {
    if (r.fields.get('warc-type') !== 'request') continue;
    const method = methodOf(r);
    if (method === '') continue;
    const id = r.fields.get('warc-record-id');
    if (id !== undefined) methodById.set(id, method);
    for (const to of (r.fields.get('warc-concurrent-to') ?? '').split(/\s*,\s*|\s+/)) if (to !== '') methodById.set(to, method);
  }

  const bodies: ArchiveBody[] = [];
  for (const r of records) {
    const type = r.fields.get('warc-type');
    const uri = (r.fields.get('warc-target-uri') ?? '').replace(/^<(.*)>$/, '$1');
    if (type === 'request') {
      const method = methodOf(r);
      if (method !== '') methodByUri.set(uri, method);
      continue;
    }
    if (type !== 'response' && type !== 'resource') continue;
    const recordType = r.fields.get('content-type') ?? '';
    let method = methodById.get(r.fields.get('warc-record-id') ?? '') ?? '';
    for (const to of (r.fields.get('warc-concurrent-to') ?? '').split(/\s*,\s*|\s+/)) if (method === '' && to !== '') method = methodById.get(to) ?? '';
    if (method === '') method = methodByUri.get(uri) ?? '';
    if (type === 'response' && /^application\/http\b/i.test(recordType)) {
      const end = headerEnd(r.block, 0);
      if (end === null) continue; // a capture with no complete head: nothing to scan
      const { first, fields } = parseHeaders(r.block.subarray(0, end[0]).toString('latin1'));
      const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(first)?.[1] ?? 0);
      let body = r.block.subarray(end[0] + end[1]);
      if (/\bchunked\b/i.test(fields.get('transfer-encoding') ?? '')) body = dechunk(body);
      if (body.length === 0) continue;
      const out: ArchiveBody = { entry: { index: r.index, url: uri, method, status }, body };
      const ct = fields.get('content-type');
      if (ct !== undefined && ct !== '') out.contentType = ct;
      const ce = fields.get('content-encoding');
      if (ce !== undefined && ce !== '') out.contentEncoding = ce;
      bodies.push(out);
    } else {
      if (r.block.length === 0) continue;
      const out: ArchiveBody = { entry: { index: r.index, url: uri, method: type === 'resource' ? '' : method, status: 0 }, body: r.block };
      if (recordType !== '') out.contentType = recordType;
      bodies.push(out);
    }
  }
  return error === undefined ? { bodies } : { bodies, error };
}
