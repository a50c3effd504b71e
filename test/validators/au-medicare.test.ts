import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auMedicareValid } from '../../src/validators/au-medicare.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation: the eight identifier digits split into the two halves 1 3 7 9 weighs
 * alike, their column sums weighted once. Services Australia does not publish the rule or an example
 * number, so the vectors are synthetic and checked by this implementation.
 */
function checkDigit(eight: string): number {
  const col = (k: number): number => Number(eight[k]) + Number(eight[k + 4]);
  return (col(0) + 3 * col(1) + 7 * col(2) + 9 * col(3)) % 10;
}
const reference = (v: string): boolean => /^[2-6][0-9]{9}[1-9]?$/.test(v) && checkDigit(v.slice(0, 8)) === Number(v[8]);

describe('auMedicareValid', () => {
  it.each(['2123456701', '2951461751', '3517028375', '6123450903', '21234567011'])('accepts the synthetic %s', (v) => {
    expect(auMedicareValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the column-sum implementation on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{10,11}$/), (v) => {
        expect(auMedicareValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[2-6][0-9]{7}$/), fc.stringMatching(/^[0-9][1-9]?$/), (eight, tail) => {
        for (let d = 0; d < 10; d++) expect(auMedicareValid(`${eight}${d}${tail}`)).toBe(d === checkDigit(eight));
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change of the identifier and check digit, and swaps but of digits five apart', () => {
    // 1, 3, 7, 9 are coprime to 10; neighbours differ by 2, 4, 2 or 8, so a swap of a, b goes
    // unseen when |a − b| = 5. The issue number and IRN after the check digit are not covered.
    fc.assert(
      fc.property(fc.stringMatching(/^[2-6][0-9]{7}$/), fc.nat(8), (eight, at) => {
        const valid = `${eight}${checkDigit(eight)}1`;
        for (const c of digitChanges(valid, at)) expect(auMedicareValid(c), c).toBe(false);
        const i = Math.min(at, 6);
        const swapped = swapAt(valid, i);
        if (swapped !== null) expect(auMedicareValid(swapped), swapped).toBe(Math.abs(Number(valid[i]) - Number(valid[i + 1])) === 5 && /^[2-6]/.test(swapped));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '2123456711', // check + 1
    '2051461751', '2951462751', '2951461761',
    '3617028375', '3517029375', '3517028385',
    '7123456751', // check right, but cards start 2-6
    '21234567010', // individual reference number 0
    '212345670',
  ])('rejects %s', (v) => expect(auMedicareValid(v)).toBe(false));
});
