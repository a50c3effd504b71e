import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nlBsnValid } from '../../src/validators/nl-bsn.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation of the elfproef (RvIG's description: 9·d1 + 8·d2 + … + 2·d8 − 1·d9 is a
 * multiple of 11) by running totals: the sum of the eight prefix sums plus the total once more is
 * 9·d1 + … + 2·d8, so no weight table appears.
 */
function reference(v: string): boolean {
  if (!/^[0-9]{9}$/.test(v) || v === '000000000') return false;
  let prefix = 0;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    prefix += Number(v[i]);
    sum += prefix;
  }
  return (sum + prefix - Number(v[8])) % 11 === 0;
}
/** The last digit that completes eight digits, or null when the remainder asks for 10. */
function complete(eight: string): string | null {
  for (let d = 0; d < 10; d++) if (reference(`${eight}${d}`)) return `${eight}${d}`;
  return null;
}

describe('nlBsnValid', () => {
  it.each([
    // 1·9 + 1·8 + 1·7 + 2·6 + 2·5 + 2·4 + 3·3 + 3·2 − 3 = 66 = 6·11: the test numbers of Dutch
    // developer documentation, 111222333 and 123456782, checked by hand and by the running totals.
    '111222333',
    '123456782',
  ])('accepts %s', (v) => {
    expect(nlBsnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  // Synthetic numbers; each is also checked by the second implementation.
  it.each(['431113531', '907661452', '641257995'])('accepts the synthetic %s', (v) => {
    expect(nlBsnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the running-total implementation on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (v) => {
        expect(nlBsnValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), (eight) => {
        const v = complete(eight);
        if (v !== null) expect(nlBsnValid(v), v).toBe(v !== '000000000');
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition', () => {
    // Weights 9 … 2, −1 are non-zero mod the prime 11 and neighbours differ by 1 or 3.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), fc.nat(8), (eight, at) => {
        const valid = complete(eight);
        fc.pre(valid !== null && valid !== '000000000');
        for (const c of digitChanges(valid!, at)) expect(nlBsnValid(c), c).toBe(false);
        const swapped = swapAt(valid!, Math.min(at, 7));
        if (swapped !== null) expect(nlBsnValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['111222334', '531113531', '431123531', '431113532', '007661452', '907671452', '907661453', '000000000', '43111353', '4311135310'])('rejects %s', (v) =>
    expect(nlBsnValid(v)).toBe(false),
  );
});
