import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { sePersonnummerValid } from '../../src/validators/se-personnummer.js';
import { utcDates } from './helpers.js';

/**
 * A second implementation from Skatteverket's description (SKV 704): the ten digits YYMMDDNNNC are
 * weighted 2 1 2 1 …, the digits of the products added (16 → 1 + 6), and the total is a multiple of 10.
 */
function luhn10(ten: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const p = Number(ten[i]) * (i % 2 === 0 ? 2 : 1);
    sum += Math.floor(p / 10) + (p % 10);
  }
  return sum % 10 === 0;
}
function reference(v: string): boolean {
  const m = /^(19|20)?([0-9]{6})[-+]?([0-9]{4})$/.exec(v);
  if (!m) return false;
  const [yy, mm, dd] = [0, 2, 4].map((k) => Number(m[2]!.slice(k, k + 2))) as [number, number, number];
  const day = dd > 60 ? dd - 60 : dd;
  const years = m[1] ? [Number(m[1]) * 100 + yy] : [1900 + yy, 2000 + yy];
  return years.some((y) => isValidDate(y, mm, day)) && luhn10(m[2]! + m[3]!);
}
const kNine = fc
  .tuple(utcDates(1900, 2099), fc.boolean(), fc.stringMatching(/^[0-9]{3}$/))
  .map(([d, coordination, serial]) => {
    const iso = d.toISOString();
    return `${iso.slice(2, 4)}${iso.slice(5, 7)}${String(Number(iso.slice(8, 10)) + (coordination ? 60 : 0)).padStart(2, '0')}${serial}`;
  });

describe('sePersonnummerValid', () => {
  it.each([
    '640823-3234', // Skatteverket's example in its brochure on the personal identity number (SKV 704)
    '811218-9876', // the example of the Swedish Wikipedia article "Personnummer i Sverige"
    '121212-1212', // Skatteverket's test number
  ])('accepts the published example %s', (v) => {
    expect(sePersonnummerValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  // Synthetic numbers and forms; each is also checked by the second implementation.
  it.each(['811228-9874', '8112289874', '19811228-9874', '811228+9874', '900101-1007', '640823-1006', '701063-2342'])('accepts %s', (v) => {
    expect(sePersonnummerValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the second implementation on random numbers, coordination numbers included', () => {
    fc.assert(
      fc.property(kNine, fc.constantFrom('', '19', '20'), fc.constantFrom('', '-', '+'), (nine, century, sep) => {
        for (let c = 0; c < 10; c++) {
          const v = `${century}${nine.slice(0, 6)}${sep}${nine.slice(6)}${c}`;
          expect(sePersonnummerValid(v), v).toBe(reference(v));
        }
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{2}[01][0-9][0-9]{2}-[0-9]{4}$/), (v) => {
        expect(sePersonnummerValid(v), v).toBe(reference(v));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '811228-9875', // check + 1
    '900101-1017', // serial digit + 1
    '640823-1016',
    '640823-3235', // Skatteverket's example, check + 1
    '190229-1002', // Luhn right, 29 February 1919 / 2019 does not exist
    '811328-9874', // month 13
    '18811228-9874', // four-digit year must start 19 or 20
    '811228-987',
  ])('rejects %s', (v) => expect(sePersonnummerValid(v)).toBe(false));
});
