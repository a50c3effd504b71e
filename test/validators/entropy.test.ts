import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shannonEntropy } from '../../src/validators/entropy.js';

/** The definition, with a Map in first-occurrence order. */
function reference(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < value.length; i++) counts.set(value.charCodeAt(i), (counts.get(value.charCodeAt(i)) ?? 0) + 1);
  let h = 0;
  for (const k of counts.values()) {
    const p = k / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

describe('shannonEntropy', () => {
  it('gives the textbook figures', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abab')).toBe(1);
    expect(shannonEntropy('abcd')).toBe(2);
    expect(shannonEntropy('aé😀')).toBeCloseTo(Math.log2(4), 12); // four UTF-16 units, all different
  });

  it('equals the definition to the last bit, ASCII and not, call after call', () => {
    const unit = fc.constantFrom('a', 'b', 'Z', '0', '9', '_', '-', '+', '/', '=', 'é', '中', '\u212a', '😀', '\x7f', '\x80');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 80 }), { minLength: 1, maxLength: 4 }), (values) => {
        for (const v of values) expect(shannonEntropy(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });
});
