/**
 * The request-derived fields of an event (host, path) and the response's Content-Type pass through
 * the same redaction as a body value before they are stored: they are scanned with the zone's
 * effective rules, and every match the zone keeps (its rule runs, at or above the rule's threshold,
 * as for the body's findings) is masked by `redact()`. A path is scanned as sent, percent-decoded,
 * and percent-decoded with `+` as a space, so `/s/4111%201111%201111%201111` is masked like the plain
 * value; the mask is made of the decoded value. The query string never reaches an event (pathOf).
 */
import { maskRanges, redact } from '../redact/index.js';
import type { Finding } from '../types.js';

/** The fields as the exchange gave them. */
export interface RequestFields {
  /** Host header as received (its case kept: rules such as AWS key ids are case-sensitive). */
  host: string;
  /** Path as sent, without the query string, not yet bounded. */
  path: string;
  contentType: string | null;
}

/** The fields an event stores. */
export interface StoredFields {
  /** Lower case, at most 255 characters, matches masked. */
  host: string;
  /** At most 2,048 characters, matches masked. */
  path: string;
  contentType: string | null;
}

/** Scans text (`text/plain`) and returns its findings; offsets are byte offsets into `text`. */
export type ScanText = (text: Buffer) => Promise<readonly Finding[]>;

const kMaxPath = 2048;
const kMaxHost = 255;

/** One scanned form of a field: its bytes, and for each byte the range of the field's characters it came from. */
interface Form {
  field: keyof RequestFields;
  bytes: Buffer;
  from: Int32Array;
  to: Int32Array;
}

/** The field's characters as bytes, one each (Node reads request lines and headers as latin1). */
function asSent(field: keyof RequestFields, text: string): Form {
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    from[i] = i;
    to[i] = i + 1;
  }
  return { field, bytes: Buffer.from(text, 'latin1'), from, to };
}

const hex = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1);

/** Percent-decoded bytes of a path (`%XX` → one byte, optionally `+` → space); each byte maps back to its characters. */
function decoded(text: string, plusIsSpace: boolean): Form {
  const bytes = Buffer.alloc(text.length);
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    let byte = c & 0xff;
    let width = 1;
    if (c === 0x25 && i + 2 < text.length && hex(text.charCodeAt(i + 1)) >= 0 && hex(text.charCodeAt(i + 2)) >= 0) {
      byte = hex(text.charCodeAt(i + 1)) * 16 + hex(text.charCodeAt(i + 2));
      width = 3;
    } else if (c === 0x2b && plusIsSpace) {
      byte = 0x20;
    }
    bytes[n] = byte;
    from[n] = i;
    to[n] = i + width;
    n++;
    i += width;
  }
  return { field: 'path', bytes: bytes.subarray(0, n), from: from.subarray(0, n), to: to.subarray(0, n) };
}

/** The path's percent-decoded value of characters [start, end), for the mask (invalid UTF-8 as U+FFFD). */
function decodedValue(text: string, start: number, end: number): string {
  const f = decoded(text.slice(start, end), false);
  return f.bytes.toString('utf8');
}

/** Every form scanned: the path as sent and decoded, the host, the Content-Type. */
function formsOf(fields: RequestFields): Form[] {
  const forms = [asSent('path', fields.path)];
  if (fields.path.includes('%')) forms.push(decoded(fields.path, false));
  if (fields.path.includes('+')) forms.push(decoded(fields.path, true));
  forms.push(asSent('host', fields.host));
  if (fields.contentType !== null) forms.push(asSent('contentType', fields.contentType));
  return forms;
}

/**
 * The stored fields of one exchange: each field with the findings `keep` accepts masked. When the scan
 * fails, each field is masked whole (nothing unscanned is stored as it came).
 * @example
 * await storedFields({ host: 'shop.example', path: '/acct/4111111111111111', contentType: null }, scan, (f) => keepsFinding(rules, f));
 * // { host: 'shop.example', path: '/acct/************1111', contentType: null }
 */
export async function storedFields(fields: RequestFields, scan: ScanText, keep: (finding: Finding) => boolean): Promise<StoredFields> {
  const forms = formsOf(fields);
  // One text, a form a line: one scan for the exchange. A match that runs across a line break (a
  // decoded %0A) is cut at each form's edges, so every form it touches is masked.
  const starts: number[] = [];
  let length = 0;
  for (const f of forms) {
    starts.push(length);
    length += f.bytes.length + 1;
  }
  const text = Buffer.alloc(length, 0x0a);
  forms.forEach((f, i) => f.bytes.copy(text, starts[i]!));

  let findings: readonly Finding[];
  try {
    findings = await scan(text);
  } catch {
    return bounded({ host: redact(fields.host), path: redact(fields.path), contentType: fields.contentType === null ? null : redact(fields.contentType) });
  }
  const ranges: Record<keyof RequestFields, Array<[number, number]>> = { host: [], path: [], contentType: [] };
  for (const finding of findings) {
    if (!keep(finding)) continue;
    forms.forEach((f, i) => {
      const s = Math.max(finding.start - starts[i]!, 0);
      const e = Math.min(finding.end - starts[i]!, f.bytes.length);
      if (e > s) ranges[f.field].push([f.from[s]!, f.to[e - 1]!]);
    });
  }
  return bounded({
    host: maskRanges(fields.host, ranges.host).toLowerCase(),
    path: maskRanges(fields.path, ranges.path, (s, e) => decodedValue(fields.path, s, e)),
    contentType: fields.contentType === null ? null : maskRanges(fields.contentType, ranges.contentType),
  });
}

/** Bounds applied after masking, so a cut can never leave part of an unmasked value behind. */
function bounded(f: StoredFields): StoredFields {
  return {
    host: f.host.length > kMaxHost ? f.host.slice(0, kMaxHost) : f.host,
    path: f.path.length > kMaxPath ? f.path.slice(0, kMaxPath) : f.path,
    contentType: f.contentType,
  };
}
