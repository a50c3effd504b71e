import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ukNhsValid } from '../../src/validators/uk-nhs.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation in "sum to zero" form: with the check digit at weight 1, 10·d1 + 9·d2 + … +
 * 2·d9 + d10 ≡ 0 (mod 11); a check value of 10 cannot be written, so no number needs it. Weights
 * come from running totals (the sum of prefix sums), not from a table.
 */
function reference(v: string): boolean {
  if (!/^[0-9]{10}$/.test(v)) return false;
  let prefix = 0;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    prefix += Number(v[i]);
    sum += prefix;
  }
  return sum % 11 === 0;
}
const complete = (nine: string): string | null => {
  for (let d = 0; d < 10; d++) if (reference(`${nine}${d}`)) return `${nine}${d}`;
  return null;
};

describe('ukNhsValid', () => {
  it('accepts 401 023 2137, the worked example of the NHS Data Dictionary ("NHS NUMBER", Modulus 11)', () => {
    // 4·10 + 0·9 + 1·8 + 0·7 + 2·6 + 3·5 + 2·4 + 1·3 + 3·2 = 92 = 8·11 + 4, and 11 − 4 = 7.
    expect(ukNhsValid('4010232137')).toBe(true);
    expect(reference('4010232137')).toBe(true);
  });

  // 943 476 5919 is the test number most NHS-number documentation uses; the others are synthetic.
  // Each is also checked by the second implementation.
  it.each(['9434765919', '6871775781', '6671150664', '6542260897'])('accepts %s', (v) => {
    expect(ukNhsValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the sum-to-zero form on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (nine) => {
        for (let d = 0; d < 10; d++) expect(ukNhsValid(`${nine}${d}`), `${nine}${d}`).toBe(reference(`${nine}${d}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition', () => {
    // Weights 10 … 2, 1 are non-zero mod the prime 11 and neighbours differ by 1.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.nat(9), (nine, at) => {
        const valid = complete(nine);
        fc.pre(valid !== null);
        for (const c of digitChanges(valid!, at)) expect(ukNhsValid(c), c).toBe(false);
        const swapped = swapAt(valid!, Math.min(at, 8));
        if (swapped !== null) expect(ukNhsValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '4010232138', // the Data Dictionary's example, check + 1
    '0434765919', '9434865919', '9434765910',
    '7871775781', '6871875781', '6871775782',
    // The first nine digits give a check value of 10: no check digit can make this number valid.
    '4000000080', '4000000081', '4000000089',
  ])('rejects %s', (v) => expect(ukNhsValid(v)).toBe(false));
  it.each(['943 476 5919', '943476591', '94347659190'])('rejects malformed %j', (v) => expect(ukNhsValid(v)).toBe(false));
});
