import { crc32 } from './crc32.js';

/**
 * The checksum of GitHub's 2021 token format (ghp_, gho_, ghu_, ghs_, ghr_; npm adopted the same
 * scheme for its `npm_` tokens): after the prefix come 30 random base62 characters and then the
 * CRC-32 of those 30 characters, written in base62 (`0-9A-Za-z`) and left-padded with `0` to 6
 * characters. See https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/.
 *
 * The checksum is decoded and compared as a number, so a token whose checksum GitHub padded (about one
 * in five) is accepted exactly like the others.
 *
 * @example
 * githubTokenChecksumValid('ghp_' + random30 + base62(crc32(random30)).padStart(6, '0')); // true
 * githubTokenChecksumValid('ghp_' + 'a'.repeat(36)); // false
 */
export function githubTokenChecksumValid(token: string): boolean {
  const sep = token.lastIndexOf('_');
  const body = token.slice(sep + 1);
  if (body.length !== 36) return false;
  let checksum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = base62Digit(body.charCodeAt(i));
    if (d < 0) return false;
    if (i >= 30) checksum = checksum * 62 + d;
  }
  return checksum === crc32(body.slice(0, 30));
}

/** Value of one base62 digit in GitHub's alphabet (`0-9`, then `A-Z`, then `a-z`), or -1. */
function base62Digit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 90) return c - 55;
  if (c >= 97 && c <= 122) return c - 61;
  return -1;
}
