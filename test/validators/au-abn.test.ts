import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auAbnValid } from '../../src/validators/au-abn.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation in the generating form: an ABN is a 9-digit base behind two check digits
 * x (10..99), and the ABR's weighted sum is (x − 10) + S, where S weighs the base 3 5 7 … 19. So the
 * valid prefixes are x = 10 + (−S mod 89), and 99 too when that is 10.
 */
function prefixFor(base9: string): number {
  let s = 0;
  for (let i = 0; i < 9; i++) s += Number(base9[i]) * (3 + 2 * i);
  return 10 + ((89 - (s % 89)) % 89);
}
const reference = (v: string): boolean => /^[0-9]{11}$/.test(v) && (Number(v.slice(0, 2)) - prefixFor(v.slice(2))) % 89 === 0;

describe('auAbnValid', () => {
  it("accepts the ABR's worked example 51 824 753 556", () => {
    expect(auAbnValid('51824753556')).toBe(true);
    expect(prefixFor('824753556')).toBe(51);
  });

  it('agrees with the generating form on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.integer({ min: 10, max: 99 }), (base, x) => {
        const v = `${x}${base}`;
        expect(auAbnValid(v), v).toBe(reference(v));
        const good = prefixFor(base);
        if (good <= 99) expect(auAbnValid(`${good}${base}`)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every single-digit change and every swap of unequal neighbours', () => {
    // Weights are 1..19, below 89 and non-zero, and a change moves the sum by at most 9·19 < 178: never
    // by a multiple of 89. A swap moves it by (d₁ − d₂)·(w₂ − w₁), with |w₂ − w₁| ≤ 9 (or 2 beyond the
    // first pair): again never a multiple of the prime 89.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.nat(10), (base, at) => {
        const good = prefixFor(base);
        fc.pre(good <= 99);
        const valid = `${good}${base}`;
        for (const c of digitChanges(valid, at)) expect(auAbnValid(c), `${valid} → ${c}`).toBe(false);
        const swapped = swapAt(valid, Math.min(at, 9));
        if (swapped !== null) expect(auAbnValid(swapped), `${valid} → ${swapped}`).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['52824753556', '51824753557', '01824753556', '5182475355', '518247535560', '51 824 753 556', '5182475355a'])(
    'rejects %j',
    (v) => expect(auAbnValid(v)).toBe(false),
  );
});
