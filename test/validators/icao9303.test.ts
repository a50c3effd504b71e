import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { icaoCheckDigit } from '../../src/validators/icao9303.js';

/**
 * A second implementation (ICAO Doc 9303 part 3 §4.9) that sums the three columns of weight 7, 3 and
 * 1 separately and values characters by their place in the MRZ alphabet rather than by char codes.
 */
const kValues = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
function reference(field: string): number {
  const cols = [0, 0, 0];
  for (let i = 0; i < field.length; i++) cols[i % 3]! += field[i] === '<' ? 0 : kValues.indexOf(field[i]!);
  return (7 * cols[0]! + 3 * cols[1]! + cols[2]!) % 10;
}
const kField = fc.stringMatching(/^[0-9A-Z<]{1,39}$/);

describe('icaoCheckDigit', () => {
  // Fields and check digits printed on the ICAO Doc 9303 specimens (Anna Maria Eriksson, Utopia: part
  // 4 passport L898902C3, part 5 identity card D23145890) and on the German specimen passport (Erika
  // Mustermann, C01X00T47).
  it.each([
    ['L898902C3', 6],
    ['740812', 2],
    ['120415', 9],
    ['ZE184226B<<<<<', 1],
    ['L898902C36' + '7408122' + '1204159ZE184226B<<<<<1', 0],
    ['D23145890', 7],
    ['D23145890734', 9],
    ['C01X00T47', 8],
    ['640812', 5],
    ['270228', 3],
  ])('%s → %i (published)', (field, digit) => {
    expect(icaoCheckDigit(field)).toBe(digit);
    expect(reference(field)).toBe(digit);
  });

  it('gives 0 for a field of fillers', () => expect(icaoCheckDigit('<<<<<<<<<<<<<<')).toBe(0));

  it('agrees with the column-sum implementation on random MRZ fields', () => {
    fc.assert(
      fc.property(kField, (f) => {
        expect(icaoCheckDigit(f), f).toBe(reference(f));
      }),
      { numRuns: 5000 },
    );
  });

  it('changes with any single character change whose value difference is not a multiple of 10', () => {
    // 7, 3 and 1 are coprime to 10: a value change δ is seen unless 10 | δ (A ↔ K ↔ U, 0 ↔ A ↔ K…).
    fc.assert(
      fc.property(kField, fc.nat(38), fc.constantFrom(...kValues, '<'), (f, at, c) => {
        const i = at % f.length;
        const value = (x: string): number => (x === '<' ? 0 : kValues.indexOf(x));
        const changed = f.slice(0, i) + c + f.slice(i + 1);
        if ((value(c) - value(f[i]!)) % 10 !== 0) expect(icaoCheckDigit(changed), changed).not.toBe(icaoCheckDigit(f));
      }),
      { numRuns: 3000 },
    );
  });

  it('changes with a swap of neighbours unless their values differ by a multiple of 5', () => {
    // Neighbouring weights differ by 4, 2 or 6, so a swap of values a, b adds a multiple of 2(a − b).
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z<]{2,39}$/), fc.nat(37), (f, at) => {
        const i = at % (f.length - 1);
        const value = (x: string): number => (x === '<' ? 0 : kValues.indexOf(x));
        const swapped = f.slice(0, i) + f[i + 1] + f[i] + f.slice(i + 2);
        const same = (value(f[i]!) - value(f[i + 1]!)) % 5 === 0;
        expect(icaoCheckDigit(swapped) === icaoCheckDigit(f), swapped).toBe(same);
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['c01x00t47', 'C01X00T4 ', 'C01-00T47'])('returns -1 for non-MRZ characters in %j', (v) => expect(icaoCheckDigit(v)).toBe(-1));
});
