import { decodeHTML, decodeXML } from 'entities';
import { OffsetBuffer, SegmentBuilder, copyOffsets, offsetAt, type Segment } from './segment.js';

/**
 * Content-aware unescaping, incrementally. Values hide behind JSON/JavaScript string escapes
 * (`\u0034111…`, `\/`, `\n`) and HTML/XML character references (`&#52;111…`, `&amp;`); each stage
 * decodes them into the characters the rules match, keeping for every character the byte offset of
 * the escape it came from, so findings point at the bytes as received.
 *
 * Why not a full tokenizer (htmlparser2, fast-xml-parser, a JSON parser): detection needs the decoded
 * characters and exact byte offsets, not a tree. Tokenizers report UTF-16 indices, build objects per
 * node, recurse or reject malformed input; an escape decoder is a linear single pass that is exact on
 * malformed and truncated bodies, cannot be made to recurse by deep nesting, and keeps offsets per
 * character. The named-reference table (2,231 HTML names) comes from `entities`, htmlparser2's own
 * decoder. CDATA needs no decoding: its content is literal text and is scanned as is.
 */
export interface EscapeDecoder {
  /** `seg` is consumed: its offsets may be overwritten by those of the segment returned. */
  push(seg: Segment, final: boolean): Segment;
  /** The scan is over (the last segment consumed): scratch memory goes back to the thread. */
  release?(): void;
}

/**
 * - `none`: nothing decoded.
 * - `text`: plain text and logs: only `\uXXXX`, `\/` and `\"`, the escapes a JSON encoder writes inside
 *   a string that a log line prints as is (`payload={"card":"4111\u002d1111…"}`, `https:\/\/user:pw@…`,
 *   a JSON document logged as a string: `body="{\"password\":\"…\"}"`). Every other backslash stays as written: a `\n` in a .env file or a shell script is two characters
 *   (the PEM rule accepts that form), and `\\` is kept whole, so `\\u0041` is not decoded either.
 * - `json`: every JSON/JavaScript string escape.
 * - `html`: character references, plus JavaScript string escapes (inline scripts and JSON islands).
 * - `xml`: XML's character references.
 */
export type EscapeSyntax = 'none' | 'text' | 'json' | 'html' | 'xml';

/** Which backslash escapes a stage decodes (see EscapeSyntax). */
type Backslash = 'none' | 'unicode' | 'all';

export function createEscapeDecoder(syntax: EscapeSyntax): EscapeDecoder {
  switch (syntax) {
    case 'none':
      return { push: (seg) => seg };
    case 'text':
      return new StagedDecoder('unicode', null);
    case 'json':
      return new StagedDecoder('all', null);
    case 'html':
      return new StagedDecoder('all', 'html');
    case 'xml':
      return new StagedDecoder('none', 'xml');
  }
}

/** The escapes plain text decodes (see EscapeSyntax). */
const kTextEscape = /\\[u/"]/;

/** Longest escape we decode: `\uXXXX` is 6, a named reference is at most 32 + 2, `&#x10FFFF;` is 10. */
const kMaxEscape = 40;

const kSimple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '/': '/', '\\': '\\', '"': '"', "'": "'", '0': '\0' };

function hexValue(s: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 65 && c <= 70) d = c - 55;
    else if (c >= 97 && c <= 102) d = c - 87;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

class StagedDecoder implements EscapeDecoder {
  #carry: Segment | null = null;
  /** Offsets of the segment last returned (valid until the next push; see OffsetBuffer). */
  readonly #offsets = new OffsetBuffer();

  constructor(
    readonly backslash: Backslash,
    readonly refs: 'html' | 'xml' | null,
  ) {}

  release(): void {
    this.#offsets.release();
  }

  push(input: Segment, final: boolean): Segment {
    const seg = this.#carry ? joinSegments(this.#carry, input) : input;
    this.#carry = null;
    const t = seg.text;
    const n = t.length;
    const firstBs = this.#firstBackslash(t, final);
    const firstAmp = this.refs ? t.indexOf('&') : -1;
    if (firstBs === -1 && firstAmp === -1) return seg;

    // Made at the first escape decoded (or cut): a segment whose backslashes all stay as written (a log's
    // Windows paths and `\n`s) goes on as it came, linear offsets and known non-ASCII units included.
    let out: SegmentBuilder | null = null;
    let copied = 0;
    // The next `\` and `&` at or after i (-1: none left): found by indexOf, which skips the plain
    // text between escapes far faster than a loop over its characters.
    let nextBs = firstBs;
    let nextAmp = firstAmp;
    let i = 0;
    for (;;) {
      if (nextBs !== -1 && nextBs < i) nextBs = t.indexOf('\\', i);
      if (nextAmp !== -1 && nextAmp < i) nextAmp = t.indexOf('&', i);
      i = Math.min(nextBs === -1 ? n : nextBs, nextAmp === -1 ? n : nextAmp);
      if (i >= n) break;
      const c = t.charCodeAt(i);
      // An escape that may continue in the next chunk waits for it (decided on the longest form).
      if (!final && n - i < kMaxEscape && this.#mayBeIncomplete(t, i)) {
        out ??= new SegmentBuilder(n, this.#offsets, seg.offsets);
        out.copy(seg, copied, i);
        this.#carry = sliceSegment(seg, i, n);
        return out.finish(offsetAt(seg, i));
      }
      // A `\` is only reached when backslashes are decoded (else nextBs is -1).
      const r = c === 92 ? this.#backslash(t, i) : this.#reference(t, i);
      if (r === null) {
        // A `\\` left as written (text) is one unit: its second backslash does not start an escape.
        i += c === 92 && t.charCodeAt(i + 1) === 92 ? 2 : 1;
        continue;
      }
      out ??= new SegmentBuilder(n, this.#offsets, seg.offsets);
      out.copy(seg, copied, i);
      out.emit(r.chars, offsetAt(seg, i));
      i += r.length;
      copied = i;
    }
    if (out === null) return seg;
    out.copy(seg, copied, n);
    return out.finish(offsetAt(seg, n));
  }

  /**
   * Where the first backslash that may start an escape is (-1: none can). Plain text decodes only `\u`,
   * `\/` and `\"`: a text with none of them, and no backslash at its end that the next chunk could complete, is
   * passed on whole after one search instead of a stop at each of its backslashes: on a log of Windows
   * paths and `\n`s (a backslash every 25 characters) the stage took 2.2 ms a MB stopping at each, 0.9
   * with `indexOf` of `\u` and of `\/` (each stops at every backslash too), 0.5 with this pattern.
   */
  #firstBackslash(t: string, final: boolean): number {
    if (this.backslash === 'none') return -1;
    const first = t.indexOf('\\');
    if (first === -1 || this.backslash === 'all') return first;
    if (kTextEscape.test(t)) return first;
    return !final && t.charCodeAt(t.length - 1) === 92 ? first : -1;
  }

  #mayBeIncomplete(t: string, i: number): boolean {
    const n = t.length;
    if (t.charCodeAt(i) === 92) {
      if (i + 1 >= n) return true;
      const k = t[i + 1];
      if (k === 'u') return n - i < 6;
      if (k === 'x') return this.backslash === 'all' && n - i < 4;
      return false;
    }
    // `&` followed only by name characters or `#…` up to the end of the chunk.
    for (let j = i + 1; j < n; j++) {
      const c = t.charCodeAt(j);
      if (c === 59) return false; // `;` seen: complete
      if (!(isNameChar(c) || (j === i + 1 && c === 35) || (j === i + 2 && (c === 120 || c === 88)))) return false;
    }
    return true;
  }

  #backslash(t: string, i: number): { chars: string; length: number } | null {
    const k = t[i + 1];
    if (k === undefined) return null;
    if (k === 'u') {
      const v = hexValue(t, i + 2, 4);
      if (v < 0 || i + 6 > t.length) return null;
      return { chars: String.fromCharCode(v), length: 6 };
    }
    if (this.backslash === 'unicode') return k === '/' || k === '"' ? { chars: k, length: 2 } : null;
    if (k === 'x') {
      const v = hexValue(t, i + 2, 2);
      if (v < 0 || i + 4 > t.length) return null;
      return { chars: String.fromCharCode(v), length: 4 };
    }
    const s = kSimple[k];
    return s === undefined ? null : { chars: s, length: 2 };
  }

  #reference(t: string, i: number): { chars: string; length: number } | null {
    if (!this.refs) return null;
    const semi = t.indexOf(';', i + 2);
    if (semi === -1 || semi - i > kMaxEscape) return null;
    if (t.charCodeAt(i + 1) === 35) {
      // Numeric reference: &#DDDD; or &#xHHHH;
      const hex = t[i + 2] === 'x' || t[i + 2] === 'X';
      const from = i + (hex ? 3 : 2);
      if (semi === from) return null;
      let v = 0;
      for (let j = from; j < semi; j++) {
        const d = hex ? hexValue(t, j, 1) : t.charCodeAt(j) - 48;
        if (d < 0 || d > (hex ? 15 : 9)) return null;
        v = v * (hex ? 16 : 10) + d;
        if (v > 0x10ffff) return null;
      }
      if (v === 0 || (v >= 0xd800 && v <= 0xdfff)) return { chars: '\ufffd', length: semi + 1 - i };
      return { chars: String.fromCodePoint(v), length: semi + 1 - i };
    }
    for (let j = i + 1; j < semi; j++) if (!isNameChar(t.charCodeAt(j))) return null;
    const ref = t.slice(i, semi + 1);
    const decoded = namedReference(ref, this.refs);
    if (decoded === ref) return null;
    return { chars: decoded, length: ref.length };
  }
}

/**
 * Named references decoded before, by syntax: a page repeats a few (`&amp;`, `&nbsp;`, `&euro;` in
 * every price), and the trie walk of `entities` cost several times a map lookup. Bounded: cleared
 * when full (real pages use a few dozen names; a hostile one cannot make it grow).
 */
const kNamedRefs = { html: new Map<string, string>(), xml: new Map<string, string>() };
const kNamedRefsMax = 512;

function namedReference(ref: string, refs: 'html' | 'xml'): string {
  const known = kNamedRefs[refs];
  let decoded = known.get(ref);
  if (decoded === undefined) {
    decoded = refs === 'html' ? decodeHTML(ref) : decodeXML(ref);
    if (known.size >= kNamedRefsMax) known.clear();
    known.set(ref, decoded);
  }
  return decoded;
}

function sliceSegment(seg: Segment, from: number, to: number): Segment {
  const text = seg.text.slice(from, to);
  if (seg.offsets === null) return { text, offsets: null, base: seg.base + from };
  return { text, offsets: seg.offsets.slice(from, to + 1), base: seg.offsets[from]! };
}

function joinSegments(a: Segment, b: Segment): Segment {
  const text = a.text + b.text;
  // Two linear pieces that touch stay linear.
  if (a.offsets === null && b.offsets === null && a.base + a.text.length === b.base) return { text, offsets: null, base: a.base };
  const off = new Int32Array(text.length + 1);
  copyOffsets(a, 0, a.text.length, off, 0);
  copyOffsets(b, 0, b.text.length + 1, off, a.text.length);
  return { text, offsets: off, base: off[0]! };
}
