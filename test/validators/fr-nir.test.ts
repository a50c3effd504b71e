import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frNirValid } from '../../src/validators/fr-nir.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation of the key (INSEE: key = 97 − (13-digit number mod 97), with 2A read as 19
 * and 2B as 18), the remainder taken digit by digit instead of as one Number.
 */
function key(body13: string): string {
  const digits = body13.replace('2A', '19').replace('2B', '18');
  let r = 0;
  for (const c of digits) r = (r * 10 + Number(c)) % 97;
  return String(97 - r).padStart(2, '0');
}
const kMonth = fc
  .oneof(fc.integer({ min: 1, max: 12 }), fc.constant(20), fc.integer({ min: 30, max: 42 }), fc.integer({ min: 50, max: 99 }))
  .map((m) => String(m).padStart(2, '0'));
const kDept = fc.oneof(fc.integer({ min: 1, max: 99 }).map((d) => String(d).padStart(2, '0')), fc.constantFrom('2A', '2B'));
const kBody = fc
  .tuple(fc.constantFrom('1', '2', '7', '8'), fc.stringMatching(/^[0-9]{2}$/), kMonth, kDept, fc.stringMatching(/^[0-9]{3}$/), fc.integer({ min: 1, max: 999 }))
  .map(([s, yy, mm, dept, commune, order]) => `${s}${yy}${mm}${dept}${commune}${String(order).padStart(3, '0')}`);

describe('frNirValid', () => {
  it('accepts the example of the French Wikipedia article on the NIR, 2 55 08 14 168 025 38', () => {
    expect(frNirValid('2 55 08 14 168 025 38')).toBe(true);
    expect(key('2550814168025')).toBe('38');
  });

  // python-stdnum's fr.nir documentation (Corsica 2A and 2B included), then synthetic numbers; each is
  // also checked by the second implementation.
  const kOthers = ['2 95 10 99 126 111 93', '295109912611193', '253072B07300470', '253072A07300443', '185077511601280', '1 85 07 75 116 012 80', '292031305504686'];
  it.each(kOthers)('accepts %s', (v) => {
    expect(frNirValid(v)).toBe(true);
    const n = v.replace(/ /g, '');
    expect(key(n.slice(0, 13))).toBe(n.slice(13));
  });

  it('agrees with the digit-by-digit key on random numbers, Corsica included', () => {
    fc.assert(
      fc.property(kBody, fc.integer({ min: 0, max: 99 }), (body, k) => {
        const good = key(body);
        const v = body + String(k).padStart(2, '0');
        expect(frNirValid(body + good), body + good).toBe(true);
        expect(frNirValid(v), v).toBe(v === body + good);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition of the 13 digits', () => {
    // 97 is prime and 10^k ≢ 0 (mod 97): a change δ·10^k or a swap (a − b)·9·10^k always moves the key.
    fc.assert(
      fc.property(kBody, fc.nat(12), (body, at) => {
        fc.pre(!/2[AB]/.test(body));
        const valid = body + key(body);
        for (const c of digitChanges(valid, at)) expect(frNirValid(c), c).toBe(false);
        const swapped = swapAt(valid, Math.min(at, 11));
        if (swapped !== null) expect(frNirValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '295109912611199', // wrong key (stdnum's own negative example)
    '253072C07300443', // 2C is not a department
    '186077511601280', // year digit + 1
    '185077511701280', // order digit + 1
    '185077511601281', // key + 1
    '293031305504686',
    '292031305504687',
    '385077511601277', // key right, but 3 is not a sex digit
    '185137511601279', // key right, but month 13
    '18507751160128', // 14 characters
  ])('rejects %s', (v) => expect(frNirValid(v)).toBe(false));
});
