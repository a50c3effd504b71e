import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verhoeffValid } from '../../src/validators/verhoeff.js';

/**
 * A second implementation, written from the algebra instead of the tables: digits 0-4 are the
 * rotations r^k of the dihedral group D5 and 5-9 the reflections r^k·s; the position permutation is
 * given by its cycles, (0 1 5 8 9 4 2 7)(3 6). Nothing here is derived from the code under test.
 */
function d5(a: number, b: number): number {
  const [ka, sa] = [a % 5, a >= 5];
  const [kb, sb] = [b % 5, b >= 5];
  // r^a·r^b = r^(a+b); r^a·r^b·s = r^(a+b)·s; r^a·s·r^b = r^(a-b)·s; r^a·s·r^b·s = r^(a-b)
  const k = (sa ? ka - kb + 5 : ka + kb) % 5;
  return sa !== sb ? 5 + k : k;
}
const kCycles = [[0, 1, 5, 8, 9, 4, 2, 7], [3, 6]];
function permute(d: number, times: number): number {
  const cycle = kCycles.find((c) => c.includes(d))!;
  return cycle[(cycle.indexOf(d) + times) % cycle.length]!;
}
const inverse = (a: number): number => (a >= 5 ? a : (5 - a) % 5);
/** The check digit that makes `payload + digit` valid. */
function checkDigit(payload: string): number {
  let c = 0;
  for (let i = 0; i < payload.length; i++) c = d5(c, permute(Number(payload[payload.length - 1 - i]), (i + 1) % 8));
  return inverse(c);
}

describe('verhoeffValid', () => {
  it('accepts the published examples', () => {
    // Verhoeff's worked example (236 → 3) and the Rosetta Code task's (12345 → 1, 123456789012 → 0).
    for (const v of ['2363', '123451', '1234567890120']) expect(verhoeffValid(v), v).toBe(true);
    for (const v of ['2364', '123452', '1234567890121']) expect(verhoeffValid(v), v).toBe(false);
  });

  it('agrees with the dihedral-group implementation on every check digit', () => {
    expect(checkDigit('236')).toBe(3); // the second implementation itself meets the published example
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,20}$/), (payload) => {
        const good = checkDigit(payload);
        for (let d = 0; d < 10; d++) expect(verhoeffValid(`${payload}${d}`), `${payload}${d}`).toBe(d === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every transposition of adjacent unequal digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{11}$/), fc.nat(11), fc.integer({ min: 1, max: 9 }), (payload, at, delta) => {
        const valid = `${payload}${checkDigit(payload)}`; // an Aadhaar-length number
        expect(verhoeffValid(valid)).toBe(true);
        const changed = valid.slice(0, at) + String((Number(valid[at]) + delta) % 10) + valid.slice(at + 1);
        expect(verhoeffValid(changed), changed).toBe(false);
        const i = Math.min(at, 10);
        if (valid[i] !== valid[i + 1]) {
          const swapped = valid.slice(0, i) + valid[i + 1] + valid[i] + valid.slice(i + 2);
          expect(verhoeffValid(swapped), swapped).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each(['', '7', '4045 3805 8038', '40453805803a'])('rejects malformed %j', (v) => expect(verhoeffValid(v)).toBe(false));
});
