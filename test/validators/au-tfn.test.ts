import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auTfnValid } from '../../src/validators/au-tfn.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation with the remainder taken as we go (Horner-like, mod 11 after every step)
 * rather than on the full sum. The ATO does not publish the rule or an example number, so the vectors
 * are synthetic (123 456 782 is the number of most tutorials) and checked by this implementation.
 */
function reference(v: string): boolean {
  const w = v.length === 9 ? [1, 4, 3, 7, 5, 8, 6, 9, 10] : v.length === 8 ? [10, 7, 8, 4, 6, 3, 5, 1] : null;
  if (w === null || !/^[0-9]+$/.test(v) || /^0+$/.test(v)) return false;
  let r = 0;
  for (let i = 0; i < v.length; i++) r = (r + w[i]! * Number(v[i])) % 11;
  return r === 0;
}
const complete = (eight: string): string | null => {
  for (let d = 0; d < 10; d++) if (reference(`${eight}${d}`)) return `${eight}${d}`;
  return null;
};

describe('auTfnValid', () => {
  it.each(['123456782', '552068552', '441785967', '512283632', '91257059'])('accepts the synthetic %s', (v) => {
    expect(auTfnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the second implementation on random eight- and nine-digit numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8,9}$/), (v) => {
        expect(auTfnValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{7,8}$/), (head) => {
        for (let d = 0; d < 10; d++) expect(auTfnValid(`${head}${d}`), `${head}${d}`).toBe(reference(`${head}${d}`));
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition', () => {
    // Both weight rows are non-zero mod the prime 11 and neighbours differ mod 11.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{7,8}$/), fc.nat(8), (head, at) => {
        const valid = complete(head);
        fc.pre(valid !== null);
        const i = at % valid!.length;
        for (const c of digitChanges(valid!, i)) expect(auTfnValid(c), c).toBe(false);
        const swapped = swapAt(valid!, Math.min(i, valid!.length - 2));
        if (swapped !== null) expect(auTfnValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['123456783', '652068552', '552078552', '552068562', '01257059', '91258059', '91257050', '000000000', '1234567', '1234567820'])('rejects %s', (v) =>
    expect(auTfnValid(v)).toBe(false),
  );
});
