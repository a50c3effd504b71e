import { randomInt } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { githubTokenChecksumValid } from '../../src/validators/github-token.js';

// An independent encoder (zlib's CRC-32 and a base62 written here), so the validator is checked
// against the format definition rather than against itself.
const kB62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function randomBase62(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += kB62[randomInt(62)];
  return s;
}
function checksum6(random30: string): string {
  let n = zlibCrc32(random30);
  let s = '';
  while (n > 0) {
    s = kB62[n % 62] + s;
    n = Math.floor(n / 62);
  }
  return s.padStart(6, '0');
}
function token(prefix: string, random30 = randomBase62(30)): string {
  return `${prefix}_${random30}${checksum6(random30)}`;
}
/** Replaces the character at `i` with a different base62 character. */
function change(s: string, i: number): string {
  const c = s[i]!;
  const next = kB62[(kB62.indexOf(c) + 1) % 62]!;
  return s.slice(0, i) + next + s.slice(i + 1);
}

describe('githubTokenChecksumValid', () => {
  it('accepts the example of base62-token.js (an independent encoder), and rejects it changed', () => {
    // From the README of therootcompany/base62-token.js, which also states that GitHub and npm use
    // the digits-upper-lower ("GMP") base62 alphabet: ghp_ + 30 random characters + "0mLq17".
    expect(githubTokenChecksumValid('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')).toBe(true);
    expect(checksum6('zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ')).toBe('0mLq17');
    expect(githubTokenChecksumValid('ghp_zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ0mLq18')).toBe(false);
  });

  it.each(['ghp', 'gho', 'ghu', 'ghs', 'ghr', 'npm'])('accepts %s_ tokens with the right checksum', (prefix) => {
    for (let n = 0; n < 50; n++) expect(githubTokenChecksumValid(token(prefix))).toBe(true);
  });

  it('accepts a checksum that needed zero padding (CRC-32 below 62^5)', () => {
    let random30 = randomBase62(30);
    while (zlibCrc32(random30) >= 62 ** 5) random30 = randomBase62(30);
    const t = token('ghp', random30);
    expect(t.charAt(34)).toBe('0');
    expect(githubTokenChecksumValid(t)).toBe(true);
  });

  it('rejects any one changed character, in the random part or in the checksum', () => {
    const t = token('ghp');
    for (let i = 4; i < t.length; i++) expect(githubTokenChecksumValid(change(t, i))).toBe(false);
  });

  it.each([
    ['wrong length', (t: string) => t.slice(0, -1)],
    ['extra character', (t: string) => `${t}0`],
    ['non-base62 character', (t: string) => `${t.slice(0, -1)}-`],
    ['non-ASCII character', (t: string) => `${t.slice(0, -1)}ñ`],
  ])('rejects %s', (_name, mutate) => {
    expect(githubTokenChecksumValid(mutate(token('gho')))).toBe(false);
  });

  it('rejects a look-alike with a fixed body', () => {
    expect(githubTokenChecksumValid(`ghp_${'a'.repeat(36)}`)).toBe(false);
    expect(githubTokenChecksumValid(`ghp_${'0'.repeat(36)}`)).toBe(false);
  });
});
