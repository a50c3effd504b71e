import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thNationalIdValid } from '../../src/validators/th-national-id.js';
import { digitChanges } from './helpers.js';

/**
 * A second implementation with the check digit as a table on the remainder r of Σ dᵢ·(13 − i): r = 0
 * gives 1, r = 1 gives 0, otherwise 11 − r. Synthetic numbers only: no issuer publishes a sample.
 */
const kCheck = [1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1];
function checkDigit(base12: string): number {
  let s = 0;
  for (let i = 0; i < 12; i++) s += Number(base12[i]) * (13 - i);
  return kCheck[s % 11]!;
}
const reference = (v: string): boolean => /^[1-8][0-9]{12}$/.test(v) && checkDigit(v.slice(0, 12)) === Number(v[12]);

describe('thNationalIdValid', () => {
  it('accepts a number checked by hand', () => {
    // 1·13 + 1·12 + 0 + 1·10 + 7·9 + 0 + 0 + 2·6 + 0 + 7·4 + 3·3 + 4·2 = 155 ≡ 1 (mod 11) → 0.
    expect(thNationalIdValid('1101700207340')).toBe(true);
    expect(checkDigit('110170020734')).toBe(0);
  });

  it('agrees with the table form on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{13}$/), (v) => {
        expect(thNationalIdValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects single-digit changes unless the check digit is 0 or 1', () => {
    // Weights 2..13 are non-zero mod 11 except 11 itself (the third digit), so a change moves the
    // remainder; remainders 0 and 10 both give check digit 1 (and 1 gives 0, as does no other), so
    // only the third digit, or a number whose check digit is 1, can hide a change.
    fc.assert(
      fc.property(fc.stringMatching(/^[1-8][0-9]{11}$/), fc.nat(12), (base, at) => {
        const valid = `${base}${checkDigit(base)}`;
        for (const c of digitChanges(valid, at)) {
          if (thNationalIdValid(c)) expect(at === 2 || valid[12] === '1', `${valid} → ${c}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['1101700207341', '9101700207340', '0101700207340', '110170020734', '1-1017-00207-34-0'])('rejects %j', (v) =>
    expect(thNationalIdValid(v)).toBe(false),
  );
});
