import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hkHkidValid } from '../../src/validators/hk-hkid.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation in "sum to zero" form: with the check character counted as its value (A =
 * 10) at weight 1, the whole weighted sum 9·l₁ + 8·l₂ + 7·d₁ + … + 2·d₆ + c must be ≡ 0 (mod 11). A
 * single-letter number has a space in front, valued 36; letters are A = 10 … Z = 35.
 */
function reference(v: string): boolean {
  const m = /^([A-Z]{1,2})([0-9]{6})\(?([0-9A])\)?$/.exec(v);
  if (!m) return false;
  const value = (c: string): number => (c === ' ' ? 36 : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(c));
  const chars = [...m[1]!.padStart(2, ' '), ...m[2]!, m[3]!];
  return chars.reduce((sum, c, i) => sum + value(c) * (9 - i), 0) % 11 === 0;
}
function checkChar(prefix: string, digits: string): string {
  for (const c of '0123456789A') if (reference(`${prefix}${digits}${c}`)) return c;
  throw new Error('unreachable');
}

describe('hkHkidValid', () => {
  it('accepts A123456(3), the number of most explanations, checked by hand', () => {
    // 36·9 + 10·8 + 1·7 + 2·6 + 3·5 + 4·4 + 5·3 + 6·2 = 481 = 11·43 + 8, and 11 − 8 = 3.
    expect(hkHkidValid('A123456(3)')).toBe(true);
    expect(reference('A123456(3)')).toBe(true);
  });

  // Synthetic numbers; each is also checked by the second implementation.
  it.each(['A123456(3', 'A1234563)', 'A123456((3))', 'A123456()3'])('rejects the unbalanced or doubled brackets of %s', (v) => {
    expect(hkHkidValid(v)).toBe(false);
  });

  it.each(['A1234563', 'K481632(3)', 'XA904215(3)', 'Z683920(8)'])('accepts %s', (v) => {
    expect(hkHkidValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the sum-to-zero form on every check character of random numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{1,2}$/), fc.stringMatching(/^[0-9]{6}$/), (prefix, digits) => {
        for (const c of '0123456789A') {
          expect(hkHkidValid(`${prefix}${digits}(${c})`), `${prefix}${digits}(${c})`).toBe(reference(`${prefix}${digits}${c}`));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change, every letter change not by a multiple of 11, and digit swaps', () => {
    // Weights 9 … 2 are non-zero mod the prime 11 and neighbours differ by 1; a letter moved by 11
    // or 22 places (A ↔ L ↔ W) is the only change of one character the check cannot see.
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{2}$/), fc.stringMatching(/^[0-9]{6}$/), fc.nat(5), fc.integer({ min: 1, max: 25 }), (prefix, digits, at, shift) => {
        const valid = `${prefix}${digits}${checkChar(prefix, digits)}`;
        expect(hkHkidValid(valid), valid).toBe(true);
        for (const c of digitChanges(valid, 2 + at)) expect(hkHkidValid(c), c).toBe(false);
        const letter = String.fromCharCode(65 + ((prefix.charCodeAt(at % 2) - 65 + shift) % 26));
        const moved = at % 2 === 0 ? letter + valid.slice(1) : valid[0] + letter + valid.slice(2);
        const delta = Math.abs(letter.charCodeAt(0) - prefix.charCodeAt(at % 2));
        expect(hkHkidValid(moved), moved).toBe(delta % 11 === 0);
        const swapped = swapAt(valid, 2 + Math.min(at, 4));
        if (swapped !== null) expect(hkHkidValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    'A123456(4)', // check + 1
    'K481642(3)', // one digit + 1 (its check would be 0)
    'XB904215(3)', // second letter + 1 (its check would be 6)
    'XA904215(A)',
    'A12345(6)',
    'a123456(3)',
  ])('rejects %s', (v) => expect(hkHkidValid(v)).toBe(false));
});
