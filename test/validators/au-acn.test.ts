import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auAcnValid } from '../../src/validators/au-acn.js';
import { digitChanges } from './helpers.js';

/**
 * A second implementation as one congruence: the check digit weighs 1, so the ninth digit is right
 * exactly when 8·d₁ + 7·d₂ + … + 1·d₈ + d₉ ≡ 0 (mod 10).
 */
const reference = (v: string): boolean =>
  /^[0-9]{9}$/.test(v) && v !== '000000000' && [...v].reduce((s, d, i) => s + Number(d) * (i < 8 ? 8 - i : 1), 0) % 10 === 0;

describe('auAcnValid', () => {
  // ASIC's published examples of valid ACNs.
  it.each(['000000019', '000250000', '001000004', '006249976', '010749961'])('accepts ASIC example %s', (v) => {
    expect(auAcnValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the congruence on random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (v) => {
        expect(auAcnValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects single-digit changes, except where weight × change is a multiple of 10', () => {
    // Weights 7, 3, 1 and the check digit's 1 are units mod 10: every change shows. Weights 8, 6, 4,
    // 2 miss a change by exactly 5, weight 5 an even change: the algorithm promises no more.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), fc.nat(8), (base, at) => {
        const sum = [...base].reduce((s, d, i) => s + Number(d) * (8 - i), 0);
        const valid = `${base}${(10 - (sum % 10)) % 10}`;
        fc.pre(valid !== '000000000');
        for (const c of digitChanges(valid, at)) {
          const weight = at < 8 ? 8 - at : 1;
          const unseen = (weight * (Number(c[at]) - Number(valid[at]))) % 10 === 0;
          if (c !== '000000000') expect(auAcnValid(c), `${valid} → ${c}`).toBe(unseen);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['000000018', '000000000', '00000001', '0000000190', '000 000 019', '00000001a'])('rejects %j', (v) =>
    expect(auAcnValid(v)).toBe(false),
  );
});
