import { randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/validators/crc32.js';

describe('crc32', () => {
  // Published check values of CRC-32/ISO-HDLC (the "check" of the CRC catalogue, and the classic pangram).
  it.each([
    ['123456789', 0xcbf43926],
    ['', 0],
    ['a', 0xe8b7be43],
    ['The quick brown fox jumps over the lazy dog', 0x414fa339],
  ])('crc32(%j) = published value', (input, want) => {
    expect(crc32(input)).toBe(want);
  });

  it.each([
    ['123456780', 0xcbf43926],
    ['The quick brown fox jumps over the lazy dog.', 0x414fa339],
  ])('one character off (%j) changes the checksum', (input, notWant) => {
    expect(crc32(input)).not.toBe(notWant);
  });

  it('agrees with zlib on random bytes and their UTF-8 strings', () => {
    for (let n = 0; n < 200; n++) {
      const bytes = randomBytes(n % 97);
      expect(crc32(bytes)).toBe(zlibCrc32(bytes));
      const b64 = bytes.toString('base64');
      // ASCII alone, then non-ASCII at the end, the start and the middle (a pair and a lone half too).
      for (const text of [b64, b64 + '한국어', `é${b64}`, `${b64.slice(0, 7)}😀${b64.slice(7)}\ud83d${b64}`]) {
        expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text, 'utf8')));
      }
    }
  });

  it('returns an unsigned 32-bit number', () => {
    const v = crc32('123456789'); // 0xCBF43926 has the top bit set
    expect(v).toBeGreaterThan(0x7fffffff);
    expect(Number.isInteger(v)).toBe(true);
  });
});
