import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { usSsnValid } from '../../src/validators/us-ssn.js';

// SSNs have no check digit: these are synthetic numbers inside the issued ranges.
const valid = ['536-22-8714', '536 22 8714', '536228714', '001-01-0001', '665-99-9999', '899-45-1234', '078-05-1121'];
const invalid = [
  '000-22-8714', // area 000
  '666-22-8714', // area 666
  '900-22-8714', // 9xx: ITIN / advertising
  '987-65-4321',
  '536-00-8714', // group 00
  '536-22-0000', // serial 0000
  '078-05-1120', // Woolworth wallet card
  '219-09-9999', // SSA pamphlet
  '123-45-6789',
  '111-11-1111',
  '536-22-871', // eight digits
  '536-22-87145',
  '536/22/8714',
];

/**
 * The SSA's rules restated ("Social Security Number Randomization", SSA 2011, and POMS RM 10201.060):
 * no area 000, 666 or 900-999, no group 00, no serial 0000; plus this validator's own list of
 * placeholders (the Woolworth card, the SSA pamphlet number, 123-45-6789, nine equal digits).
 */
function reference(digits: string): boolean {
  const area = Number(digits.slice(0, 3));
  if (area === 0 || area === 666 || area >= 900) return false;
  if (Number(digits.slice(3, 5)) === 0 || Number(digits.slice(5)) === 0) return false;
  return !['078051120', '219099999', '123456789'].includes(digits) && new Set(digits).size > 1;
}

describe('usSsnValid', () => {
  it.each(valid)('accepts %s', (v) => expect(usSsnValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(usSsnValid(v)).toBe(false));

  it('agrees with the SSA rules on random nine-digit numbers, with and without separators', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.constantFrom('', '-', ' '), (d, sep) => {
        const v = `${d.slice(0, 3)}${sep}${d.slice(3, 5)}${sep}${d.slice(5)}`;
        expect(usSsnValid(v), v).toBe(reference(d));
      }),
      { numRuns: 5000 },
    );
    // Any text: spaces and dashes anywhere are skipped, anything else is refused, nine digits exactly.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789012345678901234567890123456789 -/a\u0660'), maxLength: 14 }), (v) => {
        const digits = v.replace(/[ -]/g, '');
        expect(usSsnValid(v), JSON.stringify(v)).toBe(/^[0-9]{9}$/.test(digits) && reference(digits));
      }),
      { numRuns: 5000, seed: 20261129 },
    );
    for (const area of ['000', '001', '665', '666', '667', '899', '900', '999']) {
      for (const group of ['00', '01', '99']) {
        for (const serial of ['0000', '0001', '9999']) expect(usSsnValid(area + group + serial), area + group + serial).toBe(reference(area + group + serial));
      }
    }
  });
});
