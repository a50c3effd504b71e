import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { iso7064Mod11_2Valid } from '../../src/validators/iso7064-mod11-2.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation by the standard's recursive method (ISO/IEC 7064 §6 "pure system",
 * evaluated Horner-style from the left) instead of the validator's explicit powers of two:
 * p ← (p + digit)·2 mod 11 over the payload, then the check value is (12 − p) mod 11.
 */
function checkValue(payload: string): number {
  let p = 0;
  for (const c of payload) p = ((p + Number(c)) * 2) % 11;
  return (12 - p) % 11;
}
const checkChar = (payload: string): string => {
  const v = checkValue(payload);
  return v === 10 ? 'X' : String(v);
};

describe('iso7064Mod11_2Valid', () => {
  it.each([
    // GB 11643-1999's own example of a citizen identity number.
    '11010519491231002X',
    // ORCID iDs of ORCID's "Structure of the ORCID Identifier" support page, which names ISO 7064 11-2
    // as the checksum: 0000-0002-1825-0097, 0000-0001-5109-3700, 0000-0002-1694-233X.
    '0000000218250097',
    '0000000151093700',
    '000000021694233X',
  ])('accepts the published example %s', (v) => {
    expect(iso7064Mod11_2Valid(v)).toBe(true);
    expect(checkChar(v.slice(0, -1))).toBe(v.slice(-1));
  });

  // Synthetic numbers; each is also checked by the recursive method.
  it.each(['11010519491231002x', '440305198802173613', '320102200109309503', '510104197506052389'])('accepts %s', (v) => {
    expect(iso7064Mod11_2Valid(v)).toBe(true);
    expect(checkChar(v.slice(0, -1))).toBe(v.slice(-1).toUpperCase());
  });

  it('agrees with the recursive method on every check character of random payloads', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,20}$/), (payload) => {
        const good = checkChar(payload);
        for (const c of '0123456789X') expect(iso7064Mod11_2Valid(payload + c), payload + c).toBe(c === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every transposition of adjacent digits', () => {
    // The weights 2^k mod 11 are non-zero and neighbours differ by a factor 2, so with 11 prime a
    // change d → d' adds (d' − d)·w ≢ 0 and a swap adds (a − b)·w ≢ 0 (mod 11).
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{17}$/), fc.nat(17), (payload, at) => {
        const valid = payload + checkChar(payload);
        expect(iso7064Mod11_2Valid(valid)).toBe(true);
        const changes = at < 17 ? digitChanges(valid, at) : [...'0123456789X'].filter((c) => c !== valid[17]).map((c) => payload + c);
        for (const c of changes) expect(iso7064Mod11_2Valid(c), c).toBe(false);
        const swapped = swapAt(valid, Math.min(at, 16));
        if (swapped !== null) expect(iso7064Mod11_2Valid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '11010519491231003X', // 17th digit + 1
    '110105194912310020', // X replaced by 0
    '0000000218250098', // ORCID example, check + 1
  ])('rejects %s', (v) => expect(iso7064Mod11_2Valid(v)).toBe(false));
  it.each(['', '1', '1101051949123100X2', '11010519491231-02X'])('rejects malformed %j', (v) => expect(iso7064Mod11_2Valid(v)).toBe(false));
});
