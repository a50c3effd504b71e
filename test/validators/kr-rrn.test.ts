import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { krRrnValid } from '../../src/validators/kr-rrn.js';
import { digitChanges, swapAt, utcDates } from './helpers.js';

/**
 * A second implementation: the weighted sum's remainder mod 11 looked up in the table of check digits
 * it gives (remainder 0 → 1, 1 → 0, 2 → 9 … 10 → 1), the weights written out in full. No issuer
 * example could be confirmed, so the vectors are synthetic and checked by this implementation.
 */
const kWeights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
const kDigitByRemainder = [1, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1];
const remainder = (twelve: string): number => [...twelve].reduce((s, c, i) => s + Number(c) * kWeights[i]!, 0) % 11;
const checkDigit = (twelve: string): string => String(kDigitByRemainder[remainder(twelve)]);
// Gender/century digit → century: 9, 0 the 1800s; 1, 2, 5, 6 the 1900s; 3, 4, 7, 8 the 2000s.
const kCentury = [1800, 1900, 1900, 2000, 2000, 1900, 1900, 2000, 2000, 1800];
function reference(v: string): boolean {
  const d = v.replace('-', '');
  if (!/^[0-9]{13}$/.test(d)) return false;
  const year = kCentury[Number(d[6])]! + Number(d.slice(0, 2));
  return isValidDate(year, Number(d.slice(2, 4)), Number(d.slice(4, 6))) && checkDigit(d.slice(0, 12)) === d[12];
}
const kTwelve = fc
  .tuple(utcDates(1900, 1999), fc.constantFrom('1', '2', '5', '6'), fc.stringMatching(/^[0-9]{5}$/))
  .map(([d, g, serial]) => d.toISOString().slice(2, 10).replace(/-/g, '') + g + serial);

describe('krRrnValid', () => {
  it.each(['900101-1234568', '850315-2345615', '021107-4123456', '780901-1987650', '8503152345615'])('accepts the synthetic %s', (v) => {
    expect(krRrnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the lookup-table implementation on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{2}[01][0-9][0-3][0-9][0-9]{7}$/), (v) => {
        expect(krRrnValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(kTwelve, (twelve) => {
        for (let c = 0; c < 10; c++) expect(krRrnValid(`${twelve}${c}`), `${twelve}${c}`).toBe(String(c) === checkDigit(twelve));
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects single-digit changes and adjacent transpositions unless the check digit is 1', () => {
    // Weights are non-zero mod 11 and neighbours differ, so an error always moves the remainder; but
    // remainders 0 and 10 both give check digit 1, and a move between them goes unseen. (A swap with
    // the check digit itself is no linear error and is left out: 700101-2228203 → …230 passes.)
    fc.assert(
      fc.property(kTwelve, fc.nat(12), (twelve, at) => {
        const valid = twelve + checkDigit(twelve);
        for (const c of digitChanges(valid, at)) if (krRrnValid(c)) expect(valid[12], `${valid} → ${c}`).toBe('1');
        const swapped = swapAt(valid, Math.min(at, 10));
        if (swapped !== null && krRrnValid(swapped)) expect(valid[12], `${valid} → ${swapped}`).toBe('1');
      }),
      { numRuns: 3000 },
    );
  });

  it('passes the swap of the last two digits in the documented case', () => {
    expect([krRrnValid('7001012228203'), krRrnValid('7001012228230')]).toEqual([true, true]);
  });

  it.each([
    '900101-1234567',
    '850315-2355615', // serial digit + 1
    '850315-2345616', // check + 1
    '021107-4133456',
    '021107-4123457',
    '850230-2345611', // check right, 30 February
    '85031-2345615',
  ])('rejects %s', (v) => expect(krRrnValid(v)).toBe(false));
});
