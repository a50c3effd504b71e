import { describe, expect, it } from 'vitest';
import { icaoCheckDigit } from '../../src/validators/icao9303.js';

// Fields and check digits printed on the ICAO Doc 9303 specimen (Anna Maria Eriksson, Utopia) and on
// the German specimen passport (Erika Mustermann).
describe('icaoCheckDigit', () => {
  it.each([
    ['L898902C3', 6],
    ['740812', 2],
    ['120415', 9],
    ['ZE184226B<<<<<', 1],
    ['L898902C36' + '7408122' + '1204159ZE184226B<<<<<1', 0],
    ['C01X00T47', 8],
    ['640812', 5],
    ['<<<<<<<<<<<<<<', 0],
  ])('%s → %i', (field, digit) => expect(icaoCheckDigit(field)).toBe(digit));

  it('changes when one character changes', () => {
    expect(icaoCheckDigit('L898902C4')).not.toBe(6);
    expect(icaoCheckDigit('C01X00T48')).not.toBe(8);
  });

  it.each(['c01x00t47', 'C01X00T4 ', 'C01-00T47'])('returns -1 for non-MRZ characters in %j', (v) => expect(icaoCheckDigit(v)).toBe(-1));
});
