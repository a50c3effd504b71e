import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { noFodselsnummerValid } from '../../src/validators/no-fodselsnummer.js';
import { digitChanges, swapAt, utcDates } from './helpers.js';

/**
 * A second implementation in "sum to zero" form (Skatteetaten): with each check digit given weight 1
 * after the others, 3 7 6 1 8 9 4 5 2 1 over the first ten digits and 5 4 3 2 7 6 5 4 3 2 1 over all
 * eleven must each be ≡ 0 (mod 11); a check value of 10 cannot be written, so no such number exists.
 */
const kK1 = [3, 7, 6, 1, 8, 9, 4, 5, 2, 1];
const kK2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2, 1];
const sumsToZero = (digits: string, w: number[]): boolean => w.reduce((s, k, i) => s + k * Number(digits[i]), 0) % 11 === 0;
/** Century from the individual number and the two-digit year, as Skatteetaten lists the ranges. */
function century(ind: number, yy: number): number | null {
  if (ind <= 499) return 1900;
  if (ind <= 749 && yy >= 54) return 1800;
  if (ind >= 500 && yy <= 39) return 2000;
  if (ind >= 900 && yy >= 40) return 1900;
  return null;
}
function reference(v: string): boolean {
  if (!/^[0-9]{11}$/.test(v) || !sumsToZero(v, kK1) || !sumsToZero(v, kK2)) return false;
  const c = century(Number(v.slice(6, 9)), Number(v.slice(4, 6)));
  const dd = Number(v.slice(0, 2));
  const mm = Number(v.slice(2, 4));
  return c !== null && isValidDate(c + Number(v.slice(4, 6)), mm > 40 ? mm - 40 : mm, dd > 40 ? dd - 40 : dd);
}
/** Both check digits for nine digits, or null when either would be 10. */
function complete(nine: string): string | null {
  for (let a = 0; a < 10; a++) {
    if (!sumsToZero(`${nine}${a}`, kK1)) continue;
    for (let b = 0; b < 10; b++) if (sumsToZero(`${nine}${a}${b}`, kK2)) return `${nine}${a}${b}`;
    return null;
  }
  return null;
}
const kNine = fc
  .tuple(utcDates(1900, 1999), fc.integer({ min: 0, max: 499 }), fc.boolean())
  .map(([d, ind, dNumber]) => {
    const iso = d.toISOString();
    const day = Number(iso.slice(8, 10)) + (dNumber ? 40 : 0);
    return `${String(day).padStart(2, '0')}${iso.slice(5, 7)}${iso.slice(2, 4)}${String(ind).padStart(3, '0')}`;
  });

describe('noFodselsnummerValid', () => {
  // 01010750160 is the number of Norwegian developer guides; the others (a D-number, a 2000s birth
  // with individual number 807, a 1900s birth with individual number 945) are synthetic. Each is
  // checked by the sum-to-zero form too.
  it.each(['01010750160', '15037894572', '29020080742', '07116430295', '45068936881', '23129519320'])('accepts %s', (v) => {
    expect(noFodselsnummerValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the sum-to-zero form on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-7][0-9][0-5][0-9]{8}$/), (v) => {
        expect(noFodselsnummerValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(kNine, (nine) => {
        const v = complete(nine);
        for (let k = 0; k < 100; k++) {
          const w = `${nine}${String(k).padStart(2, '0')}`;
          expect(noFodselsnummerValid(w), w).toBe(w === v);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition', () => {
    // Row k1's weights are non-zero mod the prime 11 and neighbours differ over digits 1-10, and row
    // k2's last two differ too: every single change or swap of neighbours moves a sum off zero.
    fc.assert(
      fc.property(kNine, fc.nat(10), (nine, at) => {
        const valid = complete(nine);
        fc.pre(valid !== null);
        for (const c of digitChanges(valid!, at)) expect(noFodselsnummerValid(c), c).toBe(false);
        const swapped = swapAt(valid!, Math.min(at, 9));
        if (swapped !== null) expect(noFodselsnummerValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '02010750160', '01010751160', '01010750161', // one digit + 1 (day, individual number, second check)
    '16037894572', '15037895572', '15037894573',
    '46068936881', '45068937881', '45068936882',
    // Individual numbers 750-899 do not exist for years 40-99, whatever the check digits.
    '01016080000',
  ])('rejects %s', (v) => expect(noFodselsnummerValid(v)).toBe(false));
  // For 010107009 the first check digit would be 10: no such number is ever issued.
  it.each(Array.from({ length: 10 }, (_, k) => `010107009${k}0`))('rejects %s', (v) => expect(noFodselsnummerValid(v)).toBe(false));
});
