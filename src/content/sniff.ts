import type { ContentKind } from './classify.js';

/** How many bytes of the head `sniffKind` looks at; callers may pass more, the rest is ignored. */
export const kSniffBytes = 1024;

/** Magic numbers of common binary formats (WHATWG MIME Sniffing §6 plus archives and executables). */
const kMagic: ReadonlyArray<readonly [offset: number, bytes: readonly number[]]> = [
  [0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]], // PNG
  [0, [0xff, 0xd8, 0xff]], // JPEG
  [0, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]], // GIF87a
  [0, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]], // GIF89a
  [0, [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  [0, [0x50, 0x4b, 0x03, 0x04]], // ZIP local file header (also docx, jar, apk…)
  [0, [0x50, 0x4b, 0x05, 0x06]], // empty ZIP
  [0, [0x50, 0x4b, 0x07, 0x08]], // spanned ZIP
  [0, [0x1f, 0x8b, 0x08]], // gzip (deflate method)
  [0, [0x42, 0x5a, 0x68]], // bzip2 "BZh" (checked with the block magic, see hasMagic)
  [0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], // xz
  [0, [0x28, 0xb5, 0x2f, 0xfd]], // zstd
  [0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]], // 7z
  [0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]], // RAR
  [0, [0x7f, 0x45, 0x4c, 0x46]], // ELF
  [0, [0x00, 0x61, 0x73, 0x6d]], // WebAssembly
  [0, [0x4f, 0x67, 0x67, 0x53, 0x00]], // Ogg
  [0, [0x49, 0x44, 0x33]], // MP3 with an ID3 tag
  [0, [0x77, 0x4f, 0x46, 0x46]], // WOFF
  [0, [0x77, 0x4f, 0x46, 0x32]], // WOFF2
  [0, [0x1a, 0x45, 0xdf, 0xa3]], // Matroska / WebM
  [0, [0xca, 0xfe, 0xba, 0xbe]], // Java class / Mach-O universal
  [4, [0x66, 0x74, 0x79, 0x70]], // ISO BMFF "ftyp" (MP4, MOV, HEIC, AVIF)
];

const kRiff = [0x52, 0x49, 0x46, 0x46];
const kRiffForms = [
  [0x57, 0x41, 0x56, 0x45], // WAVE
  [0x57, 0x45, 0x42, 0x50], // WEBP
  [0x41, 0x56, 0x49, 0x20], // AVI
];
const kBzBlock = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]; // "1AY&SY", the bzip2 block magic (π)

function bytesAt(head: Uint8Array, offset: number, bytes: readonly number[]): boolean {
  if (head.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false;
  return true;
}

function hasMagic(head: Uint8Array): boolean {
  for (const [offset, bytes] of kMagic) {
    if (!bytesAt(head, offset, bytes)) continue;
    if (bytes[0] === 0x42) {
      // "BZh" also starts ordinary words; demand the level digit and the block magic.
      const level = head[3];
      if (level === undefined || level < 0x31 || level > 0x39 || !bytesAt(head, 4, kBzBlock)) continue;
    }
    return true;
  }
  return bytesAt(head, 0, kRiff) && kRiffForms.some((form) => bytesAt(head, 8, form));
}

/**
 * WHATWG MIME Sniffing "binary data byte": C0 controls other than TAB, LF, FF, CR and ESC (ESC is
 * allowed because ISO-2022-JP and the ANSI colour codes of logs use it).
 */
function isBinaryDataCode(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);
}

function isJsonWs(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/**
 * Index after the closing quote of the JSON string opening at `i`; -1 when the text ends inside it
 * (a cut head), -2 when a raw control character makes it impossible.
 */
function skipJsonString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
    else if (c < 0x20) return -2;
  }
  return -1;
}

const kJsonNumber = /-?\d+(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
const kJsonLiterals = ['true', 'false', 'null'];

/**
 * True when `s` is JSON, a prefix of it (a sniffed head is cut anywhere), or a sequence of JSON
 * containers (NDJSON). Only `{…}` and `[…]` count at the top level: a bare `42` or `"x"` reads as
 * plain text far more often than as a JSON document. Linear: a pushdown automaton over `s`.
 */
export function looksLikeJsonPrefix(s: string): boolean {
  type Expect = 'top' | 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'after';
  const stack: string[] = [];
  let expect = 'top' as Expect; // widened: closures assign it too
  let i = 0;
  let started = false;
  const afterValue = (): void => {
    expect = stack.length === 0 ? 'top' : 'after';
  };
  const open = (bracket: string): void => {
    stack.push(bracket);
    expect = bracket === '{' ? 'keyOrClose' : 'valueOrClose';
    i++;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (isJsonWs(c)) {
      i++;
      continue;
    }
    switch (expect) {
      case 'top':
        if (c !== '{' && c !== '[') return false;
        started = true;
        open(c);
        break;
      case 'valueOrClose':
      case 'value':
        if (expect === 'valueOrClose' && c === ']') {
          stack.pop();
          afterValue();
          i++;
        } else if (c === '{' || c === '[') {
          open(c);
        } else if (c === '"') {
          const j = skipJsonString(s, i);
          if (j === -1) return true;
          if (j === -2) return false;
          i = j;
          afterValue();
        } else if (c === '-' || (c >= '0' && c <= '9')) {
          kJsonNumber.lastIndex = i;
          const m = kJsonNumber.exec(s);
          if (m === null) return i + 1 === s.length; // a lone '-' cut by the end
          i += m[0].length;
          afterValue();
        } else {
          const rest = s.slice(i, i + 5);
          const lit = kJsonLiterals.find((w) => rest.startsWith(w));
          if (lit !== undefined) {
            i += lit.length;
            afterValue();
          } else {
            // `tr` at the very end of the head may be a cut `true`.
            return i + rest.length === s.length && kJsonLiterals.some((w) => w.startsWith(rest));
          }
        }
        break;
      case 'keyOrClose':
      case 'key':
        if (expect === 'keyOrClose' && c === '}') {
          stack.pop();
          afterValue();
          i++;
        } else if (c === '"') {
          const j = skipJsonString(s, i);
          if (j === -1) return true;
          if (j === -2) return false;
          i = j;
          expect = 'colon';
        } else {
          return false;
        }
        break;
      case 'colon':
        if (c !== ':') return false;
        expect = 'value';
        i++;
        break;
      case 'after': {
        const top = stack[stack.length - 1];
        if (c === ',') {
          expect = top === '{' ? 'key' : 'value';
        } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
          stack.pop();
          afterValue();
        } else {
          return false;
        }
        i++;
        break;
      }
    }
  }
  // Out of input in any state: `s` is JSON or a prefix of it, provided it held anything at all.
  return started;
}

// Anti-XSSI prefixes servers put in front of JSON (Angular's `)]}'`, Google's `)]}'\n`, Facebook's
// `for (;;);`, `while(1);`).
const kXssiPrefix = /^(?:\)\]\}'?,?|while\s*\(\s*1\s*\)\s*;|for\s*\(\s*;\s*;\s*\)\s*;)\s*/;

/** Tags whose presence first in a body means HTML (WHATWG MIME Sniffing §7.1, plus a few common ones). */
const kHtmlTags = new Set([
  'html', 'head', 'body', 'script', 'iframe', 'h1', 'h2', 'h3', 'div', 'font', 'table', 'a', 'style', 'title',
  'b', 'br', 'p', 'meta', 'link', 'span', 'form', 'img', 'ul', 'ol', 'li', 'nav', 'header', 'footer', 'main',
  'section', 'article', 'template', 'noscript', 'base', 'pre', 'center', 'frameset', 'input', 'button',
]);

const kTagName = /^<([A-Za-z][A-Za-z0-9]*)(?=[\s/>]|$)/;
const kXmlName = /^<[A-Za-z_][\w.:-]*(?=[\s/>]|$)/;

function sniffMarkup(text: string): ContentKind | undefined {
  let t = text;
  // Leading comments say nothing about the kind; look past them (bounded by the head anyway).
  while (t.startsWith('<!--')) {
    const end = t.indexOf('-->');
    if (end < 0) return 'html'; // WHATWG: a leading "<!--" is an HTML signature
    t = t.slice(end + 3).replace(/^\s+/, '');
  }
  if (t === '') return 'html';
  if (!t.startsWith('<')) return undefined;
  const lower = t.slice(0, kSniffBytes).toLowerCase();
  if (lower.startsWith('<?xml')) {
    // XHTML served without a type is HTML for scanning purposes (entities, scripts, attributes).
    return /<!doctype\s+html|<html[\s>]/.test(lower) ? 'html' : 'xml';
  }
  if (lower.startsWith('<!doctype')) return /^<!doctype\s+html[\s>]/.test(lower) ? 'html' : 'xml';
  const m = kTagName.exec(t);
  if (m !== null && kHtmlTags.has(m[1]!.toLowerCase())) return 'html';
  if (kXmlName.test(t)) return 'xml';
  return undefined;
}

/**
 * Guesses the kind of a body with no usable `Content-Type` from its first bytes (pass at least
 * `kSniffBytes` when available). Binary = a known magic number or a control byte that text never
 * carries; a BOM is honoured and skipped; then JSON (a valid JSON prefix starting with `{` or `[`,
 * anti-XSSI prefixes allowed), XML, HTML, and text for everything else.
 *
 * @example
 * sniffKind(new TextEncoder().encode('  {"user": "a"}')); // 'json'
 * sniffKind(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)); // 'binary'
 */
export function sniffKind(head: Uint8Array): ContentKind {
  const bytes = head.subarray(0, kSniffBytes);
  if (hasMagic(bytes)) return 'binary';
  let text: string;
  if (bytesAt(bytes, 0, [0xfe, 0xff]) || bytesAt(bytes, 0, [0xff, 0xfe])) {
    // UTF-16 text is full of NUL bytes, so the control-byte test runs on the decoded characters.
    text = new TextDecoder(bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le').decode(bytes.subarray(2));
    for (let i = 0; i < text.length; i++) if (isBinaryDataCode(text.charCodeAt(i))) return 'binary';
  } else {
    const body = bytesAt(bytes, 0, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
    for (const b of body) if (isBinaryDataCode(b)) return 'binary';
    text = new TextDecoder('utf-8').decode(body);
  }
  text = text.replace(/^[\s\uFEFF]+/, '');
  if (text === '') return 'text';
  const json = text.replace(kXssiPrefix, '');
  if ((json.startsWith('{') || json.startsWith('[')) && looksLikeJsonPrefix(json)) return 'json';
  return sniffMarkup(text) ?? 'text';
}
