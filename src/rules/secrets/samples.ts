import { crc32 } from '../../validators/crc32.js';

/**
 * Synthetic credentials for the rules' own examples. Every value is derived at load time from a seed
 * by a small deterministic generator, so:
 * - no live or leaked key is ever written down, and examples stay identical across runs;
 * - no vendor-prefixed, checksum-valid token appears as one literal in our sources, where the secret
 *   scanners of code hosts (which look for exactly these shapes) would flag or block the repository.
 * Vendor prefixes are therefore always passed separately and joined here.
 */

export const kAlnum = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const kBase64 = `${kAlnum}+/`;
export const kBase64Url = `${kAlnum}-_`;
export const kHexLower = '0123456789abcdef';
export const kBase32Upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const kUpperDigits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const kLetters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of `alphabet`, pseudo-random but fixed by `seed` (mulberry32 over FNV-1a). */
export function synth(seed: string, length: number, alphabet: string = kAlnum): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  let s = h;
  let out = '';
  for (let i = 0; i < length; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out += alphabet[Math.floor(r * alphabet.length)]!;
  }
  return out;
}

/** `prefix` + `body`: kept as a call so the two never sit together in a source literal. */
export function tok(prefix: string, body: string): string {
  return prefix + body;
}

/** Base62 (`0-9A-Za-z`) of an unsigned 32-bit number, left-padded with `0` to 6 digits. */
function base62Pad6(n: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) s = kAlnum[v % 62]! + s;
  return s.padStart(6, '0');
}

/** A GitHub/npm-format token: `<prefix>_` + 30 random base62 + the base62 CRC-32 of those 30. */
export function checksummedToken(prefix: string, seed: string): string {
  const random = synth(seed, 30);
  return `${prefix}_${random}${base62Pad6(crc32(random))}`;
}

/** The same token with its last character changed, so its checksum no longer matches. */
export function breakLastChar(token: string): string {
  const last = token.charAt(token.length - 1);
  return token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
}

/** Unpadded base64url of UTF-8 text. */
export function b64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** Padded standard base64 of UTF-8 text. */
export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** A compact JWS with the given header and claims and a synthetic signature of `sigLength` characters. */
export function jwtSample(header: object, claims: object, seed: string, sigLength = 43): string {
  const sig = sigLength === 0 ? '' : synth(seed, sigLength, kBase64Url);
  return `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}.${sig}`;
}

/**
 * A synthetic PEM private key block: `label` armour around `bodyChars` base64 characters that start
 * with `lead` (e.g. `MIIE` for DER, the OpenSSH magic), in lines of 64 joined by `eol` (a real newline,
 * or the two characters `\n` as in a pasted `.env` value).
 */
export function pemSample(label: string, seed: string, bodyChars: number, lead: string, eol = '\n', headers: readonly string[] = []): string {
  let body = lead + synth(seed, bodyChars - lead.length, kBase64);
  const pad = body.length % 4;
  if (pad !== 0) body = body.slice(0, body.length - pad);
  const lines: string[] = [];
  for (let i = 0; i < body.length; i += 64) lines.push(body.slice(i, i + 64));
  const head = headers.length > 0 ? [...headers, ''] : [];
  return [`-----BEGIN ${label}-----`, ...head, ...lines, `-----END ${label}-----`].join(eol);
}
