import { describe, expect, it } from 'vitest';
import { luhnValid } from '../../src/validators/luhn.js';

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

/** The vector with its digit at `i` replaced by (digit + 1) mod 10: Luhn detects every such change. */
function bump(s: string, i: number): string {
  return s.slice(0, i) + String((Number(s[i]) + 1) % 10) + s.slice(i + 1);
}

describe('luhnValid', () => {
  it.each(kValid)('accepts %s', (v) => {
    expect(luhnValid(v)).toBe(true);
  });

  it.each(kValid)('rejects every one-digit change of %s', (v) => {
    for (let i = 0; i < v.length; i++) expect(luhnValid(bump(v, i)), bump(v, i)).toBe(false);
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
