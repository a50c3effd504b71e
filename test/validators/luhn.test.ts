import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnValid } from '../../src/validators/luhn.js';
import { digitChanges, swapAt } from './helpers.js';

// Valid vectors are published specimens: card-network test numbers from payment providers' docs
// (Stripe, PayPal), the worked example of the Luhn article (79927398713) and the specimen Canadian SIN
// of Service Canada's documentation (046 454 286).
const kValid = [
  '4111111111111111',
  '4242424242424242',
  '4012888888881881',
  '5555555555554444',
  '2223003122003222',
  '378282246310005',
  '6011111111111117',
  '3530111333300000',
  '30569309025904',
  '6205500000000000004',
  '79927398713',
  '046454286',
];

/**
 * A second implementation, by digit-sum arithmetic instead of the package's doubling table: from the
 * right, every second digit d counts as 2d − 9 when 2d > 9. All zeros (sum 0) is no number.
 */
function reference(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 1 ? (2 * d > 9 ? 2 * d - 9 : 2 * d) : d;
  }
  return digits.length >= 2 && sum % 10 === 0 && !/^0+$/.test(digits);
}
/** The check digit that completes `payload`. */
function checkDigit(payload: string): number {
  for (let d = 0; d < 10; d++) if (reference(`${payload}${d}`)) return d;
  return 0; // all zeros: 0 is the arithmetic's digit, rejected as no number
}

describe('luhnValid', () => {
  it.each(kValid)('accepts %s', (v) => {
    expect(luhnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it.each(kValid)('rejects every one-digit change of %s', (v) => {
    for (let i = 0; i < v.length; i++) for (const c of digitChanges(v, i)) expect(luhnValid(c), c).toBe(false);
  });

  it('agrees with the digit-sum implementation on random digit strings', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,24}$/), (s) => {
        expect(luhnValid(s), s).toBe(reference(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts exactly one check digit per payload', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,18}[1-9]$/), (payload) => {
        const good = checkDigit(payload);
        for (let d = 0; d < 10; d++) expect(luhnValid(`${payload}${d}`), `${payload}${d}`).toBe(d === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition except 09 ↔ 90', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{15}$/), fc.nat(15), (payload, at) => {
        const valid = `${payload}${checkDigit(payload)}`;
        fc.pre(reference(valid));
        expect(luhnValid(valid), valid).toBe(true);
        for (const c of digitChanges(valid, at)) expect(luhnValid(c), c).toBe(false);
        const i = Math.min(at, 14);
        const swapped = swapAt(valid, i);
        // Luhn's one blind spot: 0 and 9 count the same doubled or not (0 → 0, 9 → 18 → 9), so 09 ↔ 90 passes.
        const blind = (valid[i] === '0' && valid[i + 1] === '9') || (valid[i] === '9' && valid[i + 1] === '0');
        if (swapped !== null) expect(luhnValid(swapped), swapped).toBe(blind);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['4111111111111112', 'last digit off by one'],
    ['79927398710', 'Luhn article: wrong check digit'],
    ['046454287', 'SIN specimen with check digit + 1'],
    ['4111 1111 1111 1111', 'separators are the caller’s job'],
    ['4111-1111-1111-1111', 'separators are the caller’s job'],
    ['', 'empty'],
    ['0', 'single digit'],
    ['0000000000000000', 'all zeros (sum 0 is treated as no number)'],
    ['411111111111111a', 'a letter'],
    ['٤١١١١١١١١١١١١١١١', 'non-ASCII digits'],
  ])('rejects %s (%s)', (v) => {
    expect(luhnValid(v)).toBe(false);
  });
});
