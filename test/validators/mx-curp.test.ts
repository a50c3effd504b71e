import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { mxCurpValid } from '../../src/validators/mx-curp.js';
import { utcDates } from './helpers.js';

/**
 * A second implementation of RENAPO's check digit by running totals: Σ vᵢ·(18 − i) over the 17
 * characters equals the sum of the 17 prefix sums plus the total once more, so no weight appears.
 * Values follow the order 0-9, A-N, Ñ, O-Z (so O and later letters are one higher than A = 10 gives).
 */
const kAlphabet = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
function checkDigit(first17: string): number {
  let prefix = 0;
  let sumOfPrefixes = 0;
  for (const c of first17) {
    prefix += kAlphabet.indexOf(c);
    sumOfPrefixes += prefix;
  }
  return (10 - ((sumOfPrefixes + prefix) % 10)) % 10;
}
const kStates = 'AS BC BS CC CL CM CS CH DF DG GT GR HG JC MC MN MS NT NL OC PL QT QR SP SL SR TC TS TL VZ YN ZS NE'.split(' ');
function reference(v: string): boolean {
  const m = /^[A-Z][AEIOUX][A-Z]{2}([0-9]{6})[HMX]([A-Z]{2})([B-DF-HJ-NP-TV-Z]{3})([0-9A-Z])([0-9])$/.exec(v);
  if (!m || !kStates.includes(m[2]!)) return false;
  const century = /[0-9]/.test(m[4]!) ? 1900 : 2000;
  const ymd = m[1]!;
  return isValidDate(century + Number(ymd.slice(0, 2)), Number(ymd.slice(2, 4)), Number(ymd.slice(4, 6))) && checkDigit(v.slice(0, 17)) === Number(m[5]);
}
const kFirst17 = fc
  .tuple(
    fc.stringMatching(/^[A-Z][AEIOUX][A-Z]{2}$/),
    utcDates(1900, 1999),
    fc.constantFrom('H', 'M', 'X'),
    fc.constantFrom(...kStates),
    fc.stringMatching(/^[B-DF-HJ-NP-TV-Z]{3}[0-9]$/),
  )
  .map(([names, d, sex, state, tail]) => `${names}${d.toISOString().slice(2, 10).replace(/-/g, '')}${sex}${state}${tail}`);

describe('mxCurpValid', () => {
  it('accepts HEGG560427MVZRRL04, the CURP of most documentation, and the running totals agree', () => {
    expect(mxCurpValid('HEGG560427MVZRRL04')).toBe(true);
    expect(checkDigit('HEGG560427MVZRRL0')).toBe(4);
  });

  // Synthetic codes (PELS… is a 2002 birth, so its differentiator is a letter); each is also
  // checked by the second implementation.
  it.each(['GOMA850312HDFNRN04', 'PELS020915MJCRPFA3', 'ROAJ991231HNLDLS01'])('accepts %s', (v) => {
    expect(mxCurpValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the running-total implementation on every check digit of random codes', () => {
    fc.assert(
      fc.property(kFirst17, (first) => {
        for (let d = 0; d < 10; d++) expect(mxCurpValid(`${first}${d}`), `${first}${d}`).toBe(d === checkDigit(first));
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}[01][0-9][0-3][0-9][HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$/), (v) => {
        expect(mxCurpValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects a digit change of δ at weight w whenever δ·w is not a multiple of 10', () => {
    // The check is mod 10 with weights 18 … 2, many of them even or 5 or 10: the 9th character (the
    // day's tens) weighs 10 and is not guarded at all, the even weights miss a change by 5.
    fc.assert(
      fc.property(kFirst17, fc.integer({ min: 4, max: 17 }), fc.integer({ min: 1, max: 9 }), (first, at, delta) => {
        const valid = `${first}${checkDigit(first)}`;
        if (!/[0-9]/.test(valid[at]!)) return;
        const changed = valid.slice(0, at) + String((Number(valid[at]) + delta) % 10) + valid.slice(at + 1);
        const shift = (Number(changed[at]) - Number(valid[at])) * (at === 17 ? 1 : 18 - at);
        if (shift % 10 !== 0) expect(mxCurpValid(changed), changed).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    'HEGG560427MVZRRL05', // check + 1
    'GOMA850313HDFNRN04', // day + 1 (its check would be 5)
    'PELS020915MJCRPFB3', // differentiator changed (its check would be 1)
    'GOMA850312HXXNRN03', // check right, XX is not a state
    'GOMA851312HDFNRN0X',
    'GOMA850230HDFNRN03', // check right, but 30 February
  ])('rejects %s', (v) => expect(mxCurpValid(v)).toBe(false));
});
