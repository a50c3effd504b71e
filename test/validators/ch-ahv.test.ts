import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chAhvValid } from '../../src/validators/ch-ahv.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation as GS1 states the EAN-13 check digit: counting from the right of the 12
 * payload digits, odd positions weigh 3 and even ones 1; the check digit rounds the sum up to a
 * multiple of ten.
 */
function checkDigit(payload12: string): number {
  let sum = 0;
  for (let k = 1; k <= 12; k++) sum += Number(payload12[12 - k]) * (k % 2 === 1 ? 3 : 1);
  return Math.ceil(sum / 10) * 10 - sum;
}

describe('chAhvValid', () => {
  it('accepts the Federal Social Insurance Office’s example 756.9217.0769.85', () => {
    expect(chAhvValid('756.9217.0769.85')).toBe(true);
    expect(checkDigit('756921707698')).toBe(5);
  });

  // Synthetic numbers; each is also checked by the GS1 form.
  it.each(['7569217076985', '756.1234.5678.97', '7569402385618'])('accepts %s', (v) => {
    expect(chAhvValid(v)).toBe(true);
    const d = v.replace(/\./g, '');
    expect(checkDigit(d.slice(0, 12))).toBe(Number(d[12]));
  });

  it('agrees with the GS1 form on every check digit of random 756 numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (rest) => {
        const payload = `756${rest}`;
        const good = checkDigit(payload);
        for (let d = 0; d < 10; d++) expect(chAhvValid(`${payload}${d}`), `${payload}${d}`).toBe(d === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and adjacent transpositions but those of digits five apart', () => {
    // Weights 1 and 3 are coprime to 10; neighbours differ by 2, so a swap of a, b is seen unless |a − b| = 5.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.integer({ min: 3, max: 12 }), (rest, at) => {
        const valid = `756${rest}${checkDigit(`756${rest}`)}`;
        expect(chAhvValid(valid)).toBe(true);
        for (const c of digitChanges(valid, at)) expect(chAhvValid(c), c).toBe(false);
        const i = Math.min(at, 11);
        const swapped = swapAt(valid, i);
        if (swapped !== null) expect(chAhvValid(swapped), swapped).toBe(Math.abs(Number(valid[i]) - Number(valid[i + 1])) === 5);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '756.9217.0769.86', // check + 1
    '7569317076985', // one digit + 1
    '7561334567897',
    '7561234567898',
    '7571234567896', // EAN-13 check right, but not the Swiss prefix 756
    '756.1234.5678.9',
  ])('rejects %s', (v) => expect(chAhvValid(v)).toBe(false));
});
