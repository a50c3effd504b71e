/**
 * Character-wise encoders for the containers values are planted in. Each maps one character at a time
 * (the random ones draw per character), so encode(a + b) === encode(a) + encode(b): the generator
 * encodes the text before a value, the value and the text after it separately and knows the value's
 * byte span in the escaped form, which is the span the engine reports.
 */
import type { Rng } from '../../bench/prng.js';

export type Encoder = (s: string) => string;

const perChar = (f: (ch: string) => string): Encoder => (s) => {
  let out = '';
  for (const ch of s) out += f(ch);
  return out;
};

export const raw: Encoder = (s) => s;

/** Body of a JSON string as `JSON.stringify` writes it. */
export const jsonString: Encoder = (s) => JSON.stringify(s).slice(1, -1);

/** JSON string with `/` written as `\/` (PHP's `json_encode` default). */
export const jsonSlashes: Encoder = perChar((ch) => (ch === '/' ? '\\/' : jsonString(ch)));

/** JSON string with `@ - /` and some digits as `\uXXXX` (Java's and PHP's hex-escaping encoders). */
export function jsonUnicode(rng: Rng): Encoder {
  return perChar((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '@' || ch === '-' || ch === '/' || ch === '<' || ch === '>' || (c >= 48 && c <= 57 && rng.chance(0.3))) {
      return '\\u' + c.toString(16).padStart(4, '0');
    }
    return jsonString(ch);
  });
}

export const htmlText: Encoder = perChar((ch) =>
  ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : ch,
);

/** HTML text with `@ .` and some digits as decimal or hex numeric character references. */
export function htmlEntities(rng: Rng): Encoder {
  return perChar((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '@' || ch === '.' || (c >= 48 && c <= 57 && rng.chance(0.4))) return rng.chance(0.5) ? `&#${c};` : `&#x${c.toString(16)};`;
    return htmlText(ch);
  });
}

export const xmlText: Encoder = perChar((ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch));

/**
 * Where the decoded `match` sits in an already-escaped `text` (a rule example written with `\u`
 * escapes or numeric character references): [start, end) in `text`'s characters, or undefined.
 * Decodes JSON escapes and HTML numeric references while keeping a map back to the raw offsets.
 */
export function locateDecoded(text: string, match: string): [number, number] | undefined {
  let decoded = '';
  const from: number[] = []; // raw offset of each decoded UTF-16 unit
  const to: number[] = []; // raw end offset of each decoded unit
  for (let i = 0; i < text.length; ) {
    let m: RegExpMatchArray | null;
    const rest = text.slice(i, i + 12);
    let ch: string;
    let len: number;
    if ((m = /^\\u([0-9a-fA-F]{4})/.exec(rest))) {
      ch = String.fromCharCode(parseInt(m[1] ?? '0', 16));
      len = 6;
    } else if ((m = /^\\([nrt"\\/])/.exec(rest))) {
      const e = m[1] ?? '';
      ch = e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e;
      len = 2;
    } else if ((m = /^&#(x[0-9a-fA-F]+|[0-9]+);/.exec(rest))) {
      const v = m[1] ?? '0';
      ch = String.fromCodePoint(v.startsWith('x') ? parseInt(v.slice(1), 16) : parseInt(v, 10));
      len = m[0].length;
    } else {
      ch = text[i] ?? '';
      len = 1;
    }
    for (let k = 0; k < ch.length; k++) {
      from.push(i);
      to.push(i + len);
    }
    decoded += ch;
    i += len;
  }
  const at = decoded.indexOf(match);
  if (at < 0 || match.length === 0) return undefined;
  const s = from[at];
  const e = to[at + match.length - 1];
  return s === undefined || e === undefined ? undefined : [s, e];
}
