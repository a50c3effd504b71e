import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { esNifValid } from '../../src/validators/es-nif.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation from the Ministerio del Interior's table (remainder → letter, as printed on
 * its "Cálculo del dígito de control del NIF/NIE" page), with the remainder taken digit by digit.
 */
const kTable: Record<number, string> = {
  0: 'T', 1: 'R', 2: 'W', 3: 'A', 4: 'G', 5: 'M', 6: 'Y', 7: 'F', 8: 'P', 9: 'D', 10: 'X', 11: 'B',
  12: 'N', 13: 'J', 14: 'Z', 15: 'S', 16: 'Q', 17: 'V', 18: 'H', 19: 'L', 20: 'C', 21: 'K', 22: 'E',
};
function letterFor(eight: string): string {
  let r = 0;
  for (const c of eight) r = (r * 10 + Number(c)) % 23;
  return kTable[r]!;
}
/** The NIE prefixes X, Y, Z stand for 0, 1, 2. */
const nieDigits = (nie: string): string => String('XYZ'.indexOf(nie[0]!)) + nie.slice(1, 8);

describe('esNifValid', () => {
  it.each([
    // 12345678 = 23 · 536768 + 14, and 14 is Z: the DNI of every explanation of the letter.
    '12345678Z',
    // X1234567 → 01234567 = 23 · 53676 + 19, and 19 is L.
    'X1234567L',
  ])('accepts %s, checked by hand against the table', (v) => {
    expect(esNifValid(v)).toBe(true);
    expect(letterFor(/^[XYZ]/.test(v) ? nieDigits(v) : v.slice(0, 8))).toBe(v[8]);
  });

  // Synthetic numbers; each is also checked against the table.
  it.each(['51729702B', '75032304W', '13018877A', '75.032.304-W', '13018877-a', 'X4111851A', 'Y8576135R', 'Z8248261Y', 'Y-8576135-R'])('accepts %s', (v) => {
    expect(esNifValid(v)).toBe(true);
    const n = v.replace(/[ .-]/g, '').toUpperCase();
    expect(letterFor(/^[XYZ]/.test(n) ? nieDigits(n) : n.slice(0, 8))).toBe(n[8]);
  });

  it('agrees with the table on every letter of random DNIs and NIEs', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9XYZ][0-9]{7}$/), (body) => {
        const good = letterFor(/^[XYZ]/.test(body) ? nieDigits(body) : body);
        for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') expect(esNifValid(body + l), body + l).toBe(l === good);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-digit change and every adjacent transposition of a DNI', () => {
    // 10^k is never 0 mod the prime 23 and the table's 23 letters differ, so a change δ·10^k or a
    // swap (a − b)·9·10^k always moves the remainder to another letter.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), fc.nat(7), (body, at) => {
        const valid = body + letterFor(body);
        for (const c of digitChanges(valid, at)) expect(esNifValid(c), c).toBe(false);
        const swapped = swapAt(valid, Math.min(at, 6));
        if (swapped !== null) expect(esNifValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '12345678A',
    '51729703B', // last digit + 1 (its letter would be N)
    '51729702C',
    '75032314W',
    'X4111852A', // last digit + 1 (its letter would be G)
    'Y8576135S',
    'Z8248261Z',
    'W4111851A', // W is not an NIE prefix
    '5172970B', // seven digits
    'X41118510A',
  ])('rejects %s', (v) => expect(esNifValid(v)).toBe(false));
});
