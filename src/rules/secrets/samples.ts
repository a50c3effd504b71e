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

/** One DER tag-length-value (definite length, short or long form). */
function derTlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), content]);
}

/** `n` synthetic bytes, the first with its high bit clear (a positive INTEGER needs no 0x00 lead). */
function synthBytes(seed: string, n: number): Buffer {
  const b = Buffer.from(synth(seed, 2 * n, kHexLower), 'hex');
  b[0] = b[0]! & 0x7f;
  return b;
}

/**
 * A synthetic private key as base64 DER with the structure of the real thing (the numbers are
 * random, not a key): PKCS#1 RSA (2048-bit sizes), PKCS#8 wrapping it, or SEC 1 on P-256.
 */
export function derKeySample(kind: 'pkcs1' | 'pkcs8' | 'sec1', seed: string): string {
  const int = (b: Buffer) => derTlv(0x02, b);
  const pkcs1 = derTlv(0x30, Buffer.concat([
    int(Buffer.from([0])),
    int(Buffer.concat([Buffer.from([0]), Buffer.from(synth(`${seed}-n`, 512, kHexLower), 'hex')])),
    int(Buffer.from([1, 0, 1])),
    int(synthBytes(`${seed}-d`, 256)),
    ...['p', 'q', 'dp', 'dq', 'qi'].map((k) => int(synthBytes(`${seed}-${k}`, 128))),
  ]));
  if (kind === 'pkcs1') return pkcs1.toString('base64');
  if (kind === 'pkcs8') {
    const rsaAlg = derTlv(0x30, Buffer.concat([derTlv(0x06, Buffer.from('2a864886f70d010101', 'hex')), Buffer.from([5, 0])]));
    return derTlv(0x30, Buffer.concat([int(Buffer.from([0])), rsaAlg, derTlv(0x04, pkcs1)])).toString('base64');
  }
  const p256 = derTlv(0xa0, derTlv(0x06, Buffer.from('2a8648ce3d030107', 'hex')));
  const point = derTlv(0xa1, derTlv(0x03, Buffer.concat([Buffer.from([0, 4]), synthBytes(`${seed}-xy`, 64)])));
  return derTlv(0x30, Buffer.concat([int(Buffer.from([1])), derTlv(0x04, synthBytes(`${seed}-k`, 32)), p256, point])).toString('base64');
}

/**
 * A synthetic PuTTY key file (format 3 unless `format` says 2): the layout puttygen writes, with an
 * SSH wire-format public blob naming `algorithm` and random private lines and MAC.
 */
export function ppkSample(seed: string, algorithm = 'ssh-ed25519', format: 2 | 3 = 3, eol = '\n'): string {
  const name = Buffer.from(algorithm, 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(name.length);
  const wrap = (b64: string) => b64.match(/.{1,64}/g)!;
  const pub = wrap(Buffer.concat([len, name, synthBytes(`${seed}-pub`, 36)]).toString('base64'));
  const priv = wrap(synthBytes(`${seed}-priv`, 36).toString('base64'));
  return [
    `PuTTY-User-Key-File-${format}: ${algorithm}`,
    'Encryption: none',
    `Comment: ${algorithm.replace('ssh-', '')}-key-20260101`,
    `Public-Lines: ${pub.length}`,
    ...pub,
    `Private-Lines: ${priv.length}`,
    ...priv,
    `Private-MAC: ${synth(`${seed}-mac`, format === 2 ? 40 : 64, kHexLower)}`,
  ].join(eol);
}
