import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sgNricValid } from '../../src/validators/sg-nric.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation in the other common form of the rule (ICA does not publish it): the letter
 * tables written in ascending order and indexed by 10 − remainder, e.g. S/T "ABCDEFGHIZJ", F/G
 * "KLMNPQRTUWX", M "KLJNPQRTUWX"; the series offset (T, G +4; M +3) added to the weighted sum.
 */
const kTables: Record<string, [offset: number, ascending: string]> = {
  S: [0, 'ABCDEFGHIZJ'],
  T: [4, 'ABCDEFGHIZJ'],
  F: [0, 'KLMNPQRTUWX'],
  G: [4, 'KLMNPQRTUWX'],
  M: [3, 'KLJNPQRTUWX'],
};
function checkLetter(series: string, digits: string): string {
  const [offset, table] = kTables[series]!;
  const sum = [2, 7, 6, 5, 4, 3, 2].reduce((s, w, i) => s + w * Number(digits[i]), offset);
  return table[10 - (sum % 11)]!;
}

describe('sgNricValid', () => {
  it('accepts S1234567D, checked by hand', () => {
    // 1·2 + 2·7 + 3·6 + 4·5 + 5·4 + 6·3 + 7·2 = 106 = 9·11 + 7, and 10 − 7 = 3 is D.
    expect(sgNricValid('S1234567D')).toBe(true);
    expect(checkLetter('S', '1234567')).toBe('D');
  });

  it('accepts M1234567K, the M-series example of GovTech’s FormSG (opengovsg/FormSG, nric-validation)', () => {
    // FormSG spells the M-series steps out: weighted sum + 3 = 109 = 9·11 + 10, P = 11 − 10 = 1, the
    // first letter of KLJNPQRTUWX.
    expect(sgNricValid('M1234567K')).toBe(true);
    expect(checkLetter('M', '1234567')).toBe('K');
  });

  // Synthetic numbers, one per series; each is also checked by the second implementation.
  it.each(['S8812345Z', 'T0254321J', 'F1234567N', 'G5512390Q', 'M4567890X'])('accepts %s', (v) => {
    expect(sgNricValid(v)).toBe(true);
    expect(checkLetter(v[0]!, v.slice(1, 8))).toBe(v[8]);
  });

  it('agrees with the ascending tables on every letter of random numbers of each series', () => {
    fc.assert(
      fc.property(fc.constantFrom('S', 'T', 'F', 'G', 'M'), fc.stringMatching(/^[0-9]{7}$/), (series, digits) => {
        const good = checkLetter(series, digits);
        for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') expect(sgNricValid(`${series}${digits}${l}`), `${series}${digits}${l}`).toBe(l === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition', () => {
    // Weights 2 7 6 5 4 3 2 are non-zero mod the prime 11 and neighbours differ; each table has 11
    // different letters.
    fc.assert(
      fc.property(fc.constantFrom('S', 'T', 'F', 'G', 'M'), fc.stringMatching(/^[0-9]{7}$/), fc.nat(6), (series, digits, at) => {
        const valid = `${series}${digits}${checkLetter(series, digits)}`;
        for (const c of digitChanges(valid, 1 + at)) expect(sgNricValid(c), c).toBe(false);
        const swapped = swapAt(valid, 1 + Math.min(at, 5));
        if (swapped !== null) expect(sgNricValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    'S1235567D', 'S8813345Z', 'T0255321J', 'F1235567N', 'G5513390Q', 'M4568890X', // one digit + 1
    'S1234567E', // check letter + 1
    'T1234567D', // same digits, T series offset
    'A1234567D', // unknown series
    's1234567d',
  ])('rejects %s', (v) => expect(sgNricValid(v)).toBe(false));
});
