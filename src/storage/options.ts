/**
 * Argument checks and conversions done by the Workers runtime before a request reaches R2 (the errors
 * here are TypeError/RangeError/Error with the runtime's exact texts), and the conditional evaluation
 * R2 does against the stored object.
 */
import type { StoreConditional, StoreHTTPMetadata, StoreRange } from './types.js';

export type Etag = { type: 'wildcard' } | { type: 'strong'; value: string } | { type: 'weak'; value: string };

export interface Condition {
  etagMatches?: Etag[];
  etagDoesNotMatch?: Etag[];
  uploadedBefore?: number;
  uploadedAfter?: number;
  secondsGranularity: boolean;
}

function isHeaders(v: unknown): v is Headers {
  return typeof Headers !== 'undefined' && v instanceof Headers;
}

/**
 * An If-Match / If-None-Match list: `"v"` strong, `W/"v"` weak, `*` wildcard (which replaces the whole
 * list), commas between entries, empty entries allowed. Read token by token as the runtime does
 * (workerd 2026-04-26, checked against the simulator): an entry starting with `W` must be `W/"…"`
 * (`W/abc` is an error, not an unquoted token); any other unquoted token ends the list.
 */
export function parseEtagList(header: string, name: 'if-match' | 'if-none-match'): Etag[] {
  const out: Etag[] = [];
  let i = 0;
  let needComma = false;
  const comma = (reason: string): Error => new Error(`Comma was expected to separate etags. ${reason}`);
  while (i < header.length) {
    const ch = header[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === ',') {
      i++;
      needComma = false;
      continue;
    }
    if (ch === '*') {
      if (needComma) throw comma("Encountered a wildcard character '*' instead.");
      return [{ type: 'wildcard' }];
    }
    let type: 'strong' | 'weak';
    if (ch === 'W') {
      if (needComma) {
        throw comma("Encountered a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag.");
      }
      if (!header.startsWith('W/"', i)) throw new Error('Weak etags must start with W/ and their value must be quoted');
      type = 'weak';
      i += 3;
    } else if (ch === '"') {
      if (needComma) {
        throw comma('Encountered a double quote character \'"\' instead. This would otherwise indicate the start of a new strong etag.');
      }
      type = 'strong';
      i += 1;
    } else {
      break;
    }
    const close = header.indexOf('"', i);
    if (close < 0) throw new Error('Unclosed double quote for Etag');
    out.push({ type, value: header.slice(i, close) });
    i = close + 1;
    needComma = true;
  }
  if (out.length === 0) throw new Error(`Invalid ETag in ${name} header`);
  return out;
}

function headerDate(v: string): number {
  // The runtime parses with the JS Date parser; an unparseable date becomes NaN, which compares false.
  return new Date(v).getTime();
}

function singleEtag(v: unknown): Etag[] {
  const value = String(v);
  if (value.startsWith('"') && value.endsWith('"')) {
    throw new TypeError(`Conditional ETag should not be wrapped in quotes (${value}).`);
  }
  return value === '*' ? [{ type: 'wildcard' }] : [{ type: 'strong', value }];
}

function toDate(v: unknown, field: string): number {
  if (!(v instanceof Date)) throw new TypeError(`Incorrect type for the '${field}' field on 'R2Conditional': the provided value is not of type 'Date'.`);
  return v.getTime();
}

export function parseConditional(onlyIf: StoreConditional | Headers | undefined): Condition | undefined {
  if (onlyIf === undefined || onlyIf === null) return undefined;
  if (isHeaders(onlyIf)) {
    const c: Condition = { secondsGranularity: true };
    const im = onlyIf.get('if-match');
    if (im !== null) c.etagMatches = parseEtagList(im, 'if-match');
    const inm = onlyIf.get('if-none-match');
    if (inm !== null) c.etagDoesNotMatch = parseEtagList(inm, 'if-none-match');
    const ims = onlyIf.get('if-modified-since');
    if (ims !== null) c.uploadedAfter = headerDate(ims);
    const ius = onlyIf.get('if-unmodified-since');
    if (ius !== null) c.uploadedBefore = headerDate(ius);
    return c;
  }
  if (typeof onlyIf !== 'object') throw new TypeError("Failed to execute 'onlyIf': the provided value is not an object or Headers.");
  const c: Condition = { secondsGranularity: onlyIf.secondsGranularity === true };
  if (onlyIf.etagMatches !== undefined) c.etagMatches = singleEtag(onlyIf.etagMatches);
  if (onlyIf.etagDoesNotMatch !== undefined) c.etagDoesNotMatch = singleEtag(onlyIf.etagDoesNotMatch);
  if (onlyIf.uploadedAfter !== undefined) c.uploadedAfter = toDate(onlyIf.uploadedAfter, 'uploadedAfter');
  if (onlyIf.uploadedBefore !== undefined) c.uploadedBefore = toDate(onlyIf.uploadedBefore, 'uploadedBefore');
  return c;
}

/** R2's evaluation (RFC 7232 section 6 order, with If-None-Match overriding If-Modified-Since and If-Match overriding If-Unmodified-Since). */
export function conditionHolds(c: Condition, object: { etag: string; uploaded: number } | undefined): boolean {
  if (object === undefined) return c.etagMatches === undefined && c.uploadedAfter === undefined;
  const floor = (t: number): number => (c.secondsGranularity ? Math.floor(t / 1000) * 1000 : t);
  const uploaded = floor(object.uploaded);
  const ifMatch =
    c.etagMatches === undefined ||
    c.etagMatches.some((e) => e.type === 'wildcard' || (e.type === 'strong' && e.value === object.etag));
  const ifNoneMatch =
    c.etagDoesNotMatch === undefined ||
    !c.etagDoesNotMatch.some((e) => e.type === 'wildcard' || e.value === object.etag);
  const ifModifiedSince =
    c.uploadedAfter === undefined ||
    floor(c.uploadedAfter) < uploaded ||
    (c.etagDoesNotMatch !== undefined && ifNoneMatch);
  const ifUnmodifiedSince =
    c.uploadedBefore === undefined ||
    uploaded < floor(c.uploadedBefore) ||
    (c.etagMatches !== undefined && ifMatch);
  return ifMatch && ifNoneMatch && ifModifiedSince && ifUnmodifiedSince;
}

export type RangeRequest =
  | { kind: 'object'; offset?: number; length?: number; suffix?: number }
  | { kind: 'header'; value: string };

function isWhole(x: number): boolean {
  return Number.isFinite(x) && Math.trunc(x) === x;
}

export function parseRangeOption(range: StoreRange | Headers | undefined): RangeRequest | undefined {
  if (range === undefined || range === null) return undefined;
  if (isHeaders(range)) {
    const v = range.get('range');
    return v === null ? undefined : { kind: 'header', value: v };
  }
  const r = range as { offset?: unknown; length?: unknown; suffix?: unknown };
  const out: RangeRequest = { kind: 'object' };
  if (r.offset !== undefined) {
    const offset = Number(r.offset);
    if (!(offset >= 0)) throw new RangeError(`Invalid range. Starting offset (${offset}) must be greater than or equal to 0.`);
    if (!isWhole(offset)) throw new RangeError(`Invalid range. Starting offset (${offset}) must be an integer, not floating point.`);
    out.offset = offset;
  }
  if (r.length !== undefined) {
    const length = Number(r.length);
    if (!(length >= 0)) throw new RangeError(`Invalid range. Length (${length}) must be greater than or equal to 0.`);
    if (!isWhole(length)) throw new RangeError(`Invalid range. Length (${length}) must be an integer, not floating point.`);
    out.length = length;
  }
  if (r.suffix !== undefined) {
    if (r.offset !== undefined) throw new TypeError('Suffix is incompatible with offset.');
    if (r.length !== undefined) throw new TypeError('Suffix is incompatible with length.');
    const suffix = Number(r.suffix);
    if (!(suffix >= 0)) throw new RangeError(`Invalid suffix. Suffix (${suffix}) must be greater than or equal to 0.`);
    if (!isWhole(suffix)) throw new RangeError(`Invalid range. Suffix (${suffix}) must be an integer, not floating point.`);
    out.suffix = suffix;
  }
  return out;
}

/** A resolved range, or 'invalid' (R2's InvalidRange). A Range header never fails: anything unusable reads the whole object. */
export function resolveRange(req: RangeRequest | undefined, size: number): { offset: number; length: number } | 'invalid' {
  if (req === undefined) return { offset: 0, length: size };
  if (req.kind === 'header') return resolveRangeHeader(req.value, size) ?? { offset: 0, length: size };
  if (req.suffix !== undefined) {
    if (req.suffix <= 0) return 'invalid';
    const suffix = Math.min(req.suffix, size);
    req = { kind: 'object', offset: size - suffix, length: suffix };
  }
  const offset = req.offset ?? 0;
  let length = req.length ?? size - offset;
  if (offset < 0 || offset > size || length <= 0) return 'invalid';
  length = Math.min(length, size - offset);
  if (length <= 0) return 'invalid';
  return { offset, length };
}

function resolveRangeHeader(value: string, size: number): { offset: number; length: number } | undefined {
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(value);
  if (!m) return undefined;
  const specs = (m[1] ?? '').split(',');
  if (specs.length !== 1) return undefined;
  const spec = (specs[0] ?? '').trim();
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts) return undefined;
  const a = parts[1] ?? '';
  const b = parts[2] ?? '';
  if (a === '' && b === '') return undefined;
  if (a === '') {
    const n = Number(b);
    if (n <= 0) return undefined;
    if (n >= size) return undefined;
    return { offset: size - n, length: n };
  }
  const start = Number(a);
  if (start >= size) return undefined;
  let end = b === '' ? size - 1 : Number(b);
  if (end < start) return undefined;
  end = Math.min(end, size - 1);
  return { offset: start, length: end - start + 1 };
}

export interface StoredHttpMetadata {
  contentType?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  cacheControl?: string;
  cacheExpiry?: number;
}

/** The string fields of HTTP metadata and the response header each one maps to (`cacheExpiry` is `expires`). */
export const kHttpHeaders = [
  ['contentType', 'content-type'],
  ['contentLanguage', 'content-language'],
  ['contentDisposition', 'content-disposition'],
  ['contentEncoding', 'content-encoding'],
  ['cacheControl', 'cache-control'],
] as const;

export function parseHttpMetadata(m: StoreHTTPMetadata | Headers | undefined): StoredHttpMetadata | undefined {
  if (m === undefined || m === null) return undefined;
  const out: StoredHttpMetadata = {};
  if (isHeaders(m)) {
    for (const [field, header] of kHttpHeaders) {
      const v = m.get(header);
      if (v !== null) out[field] = v;
    }
    const expires = m.get('expires');
    if (expires !== null) out.cacheExpiry = new Date(expires).getTime();
    return out;
  }
  if (typeof m !== 'object') throw new TypeError("Failed to execute 'httpMetadata': the provided value is not an object or Headers.");
  for (const [field] of kHttpHeaders) {
    const v = m[field];
    if (v !== undefined) out[field] = String(v);
  }
  if (m.cacheExpiry !== undefined) {
    if (!(m.cacheExpiry instanceof Date)) throw new TypeError("Incorrect type for the 'cacheExpiry' field on 'R2HTTPMetadata': the provided value is not of type 'Date'.");
    out.cacheExpiry = m.cacheExpiry.getTime();
  }
  return out;
}

export function toHttpMetadata(m: StoredHttpMetadata): StoreHTTPMetadata {
  const out: StoreHTTPMetadata = {};
  for (const [field] of kHttpHeaders) {
    const v = m[field];
    if (v !== undefined) out[field] = v;
  }
  if (m.cacheExpiry !== undefined) out.cacheExpiry = new Date(m.cacheExpiry);
  return out;
}

/** Dict<String> conversion: every own enumerable value is stringified (`{a: 1}` stores `"1"`). */
export function parseCustomMetadata(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (m === undefined || m === null) return undefined;
  if (typeof m !== 'object') throw new TypeError("Failed to execute 'customMetadata': the provided value is not an object.");
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) out[k] = String(v);
  return out;
}

/** R2's size rule: a string costs its UTF-16 length if every code unit is below 256, else twice that. */
export function metadataSize(m: Record<string, string> | undefined): number {
  if (!m) return 0;
  const len = (s: string): number => {
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 256) return s.length * 2;
    return s.length;
  };
  let total = 0;
  for (const [k, v] of Object.entries(m)) total += len(k) + len(v);
  return total;
}

export const kHashAlgorithms = [
  { field: 'md5', name: 'MD5', node: 'md5', bytes: 16 },
  { field: 'sha1', name: 'SHA-1', node: 'sha1', bytes: 20 },
  { field: 'sha256', name: 'SHA-256', node: 'sha256', bytes: 32 },
  { field: 'sha384', name: 'SHA-384', node: 'sha384', bytes: 48 },
  { field: 'sha512', name: 'SHA-512', node: 'sha512', bytes: 64 },
] as const;

export type HashField = (typeof kHashAlgorithms)[number]['field'];

export interface ExpectedHash {
  field: HashField;
  name: string;
  node: string;
  hex: string;
}

function bufferSourceBytes(v: unknown): Uint8Array | undefined {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return undefined;
}

export function parseHashOptions(o: Partial<Record<HashField, unknown>>): ExpectedHash | undefined {
  let found: ExpectedHash | undefined;
  for (const alg of kHashAlgorithms) {
    const v = o[alg.field];
    if (v === undefined) continue;
    if (found) throw new TypeError('You cannot specify multiple hashing algorithms.');
    const bin = bufferSourceBytes(v);
    let hex: string;
    if (bin) {
      if (bin.byteLength !== alg.bytes) throw new TypeError(`${alg.name} is ${alg.bytes} bytes, not ${bin.byteLength}`);
      hex = Buffer.from(bin).toString('hex');
    } else if (typeof v === 'string') {
      const n = Buffer.byteLength(v);
      if (n !== alg.bytes * 2) throw new TypeError(`${alg.name} is ${alg.bytes * 2} hex characters, not ${n}`);
      if (!/^[0-9a-fA-F]*$/.test(v)) throw new TypeError(`Provided ${alg.name} wasn't a valid hex string`);
      hex = v.toLowerCase();
    } else {
      throw new TypeError(`Failed to execute 'put': '${alg.field}' must be an ArrayBuffer, an ArrayBufferView or a string.`);
    }
    found = { field: alg.field, name: alg.name, node: alg.node, hex };
  }
  return found;
}

/** SSE-C keys are checked as the runtime does; the store does not encrypt (see docs/storage.md). */
export function checkSsecKey(key: unknown): void {
  if (key === undefined) return;
  if (typeof key === 'string') {
    if (!/^[0-9a-f]+$/.test(key)) throw new Error('SSE-C Key has invalid format');
    if (key.length !== 64) throw new Error('SSE-C Key must be 32 bytes in length');
    return;
  }
  const bin = bufferSourceBytes(key);
  if (!bin || bin.byteLength !== 32) throw new Error('SSE-C Key must be 32 bytes in length');
}
