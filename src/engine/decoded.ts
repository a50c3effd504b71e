import type { RuleDef } from '../rules/types.js';

/**
 * One level of decoding for values hidden in base64: a JSON document encoded in base64 (a field of a
 * JSON body, a query parameter, a cookie, a header) is decoded once and scanned with the same rules,
 * and each finding points at the base64 characters that encode its value. Only candidates the
 * prefilter found are decoded (its keywords are the encodings of `{"`, `{ "`, `{⏎ `, `{⏎"`, `{␍⏎`, `[{"`
 * and `[{⏎`),
 * never a whole body, and a decoded document is not decoded again.
 *
 * It is compiled into every program as a rule whose own match is never reported (`decodes`). JWT
 * segments are left alone: the dot that joins them is a boundary, and the `jwt` rules report the token.
 */
export const kBase64JsonDecoder: RuleDef = {
  id: 'base64-json',
  description: 'A JSON document encoded in base64, decoded once and scanned with the same rules.',
  family: 'secrets',
  tags: ['decoder'],
  enabledByDefault: true,
  // A keyword followed by anything but base64 starts no candidate (a lone `eyJ` in prose, a body of
  // keywords), so the window is never searched for it.
  trigger: { keywords: ['eyJ', 'eyAi', 'ewog', 'ewoi', 'ew0K', 'W3si', 'W3sK'], next: 'A-Za-z0-9+/_-' },
  // Standard or URL-safe alphabet, padding optional; 24 characters at least (18 bytes of JSON).
  pattern: '(?:eyJ|eyAi|ewog|ewoi|ew0K|W3si|W3sK)[A-Za-z0-9+/_-]{20,}={0,2}',
  lead: 0,
  maxLength: 8192,
  boundary: { left: 'A-Za-z0-9+/._-', right: 'A-Za-z0-9+/=._-' },
  decodes: 'base64',
  examples: { positive: [], negative: [] },
};

/** Characters of a candidate's run: both base64 alphabets (padding and the dots of a JWT end it). */
const kRunChar = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') kRunChar[c.charCodeAt(0)] = 1;
const isRunChar = (c: number): boolean => c < 128 && kRunChar[c] === 1;

const kKeywords = (kBase64JsonDecoder.trigger as { keywords: readonly string[] }).keywords;
/** Every keyword, found by one search: a run that begins with none holds no start. */
const kKeywordSearch = new RegExp(kKeywords.join('|'), 'g');
const kKeywordMax = Math.max(...kKeywords.map((k) => k.length));

/** The end of the run of base64 characters from `i`. */
function runEnd(text: string, i: number): number {
  while (i < text.length && isRunChar(text.charCodeAt(i))) i++;
  return i;
}

/**
 * False when no candidate can start in [from, to) of `text`: a match starts at a keyword that begins
 * a run of base64 characters and stays inside that run, so a run that does not begin with a keyword,
 * or that a dot borders on either side (a JWT's segments), is refused by the boundaries whatever the
 * pattern finds in it; its window need not be searched. True when unsure (a run reaching the end).
 * The keywords are found by a regex search and only their runs walked: walking every run of the
 * range, character by character, cost more than the search over it.
 */
export function mayHoldCandidate(text: string, from: number, to: number): boolean {
  let i = from;
  // A run that began before `from` holds no start: its characters are glued to the one before.
  if (i > 0 && isRunChar(text.charCodeAt(i - 1))) while (i < to && isRunChar(text.charCodeAt(i))) i++;
  if (i >= to) return false;
  // The run that reaches the end of the text so far may go on: unsure when it starts in [i, to).
  if (runEnd(text, to) === text.length) {
    let s = to;
    while (s > i && isRunChar(text.charCodeAt(s - 1))) s--;
    if (s < to) return true;
  }
  // Searched in a view that ends with the last keyword that can start before `to`: a search of the
  // whole text would read on to the next keyword, however far.
  const view = text.slice(i, to + kKeywordMax - 1);
  const search = kKeywordSearch;
  search.lastIndex = 0;
  for (let m = search.exec(view); m !== null; m = search.exec(view)) {
    const p = i + m.index;
    if (p >= to) break;
    const before = p > 0 ? text.charCodeAt(p - 1) : -1;
    // Inside a run (not where one starts), or after a dot (a JWT's segment).
    if (before === 46 || (before >= 0 && isRunChar(before))) continue;
    const e = runEnd(text, p + m[0].length);
    if (e === text.length || text.charCodeAt(e) !== 46) return true;
    search.lastIndex = e - i;
  }
  return false;
}

const kUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The candidate's decoded bytes when they are a UTF-8 JSON text (an object or an array), else null. */
export function decodeBase64Json(value: string): Uint8Array | null {
  const bytes = Buffer.from(value, 'base64');
  const first = bytes[0];
  if (first !== 0x7b && first !== 0x5b) return null;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    // Control characters other than whitespace: binary data that happens to start like JSON.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return null;
  }
  try {
    kUtf8.decode(bytes);
  } catch {
    return null;
  }
  return bytes;
}

/**
 * Where in the body each group of four base64 characters of a candidate starts (`quanta[k]`: the byte
 * offset of character 4k; the last entry: the byte after the candidate), so a byte span of the
 * decoded text maps back to the characters that encode it: bytes [3k, 3k+3) come from characters
 * [4k, 4k+4).
 */
export interface DecodedCandidate {
  readonly bytes: Uint8Array;
  readonly quanta: Int32Array;
}

/** The body bytes of the base64 characters that encode decoded bytes [start, end). */
export function encodedSpan(c: DecodedCandidate, start: number, end: number): [number, number] {
  const last = c.quanta.length - 1;
  return [c.quanta[Math.min(last, Math.floor(start / 3))]!, c.quanta[Math.min(last, Math.ceil(end / 3))]!];
}
