import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { cnResidentIdValid } from '../../src/validators/cn-resident-id.js';
import { utcDates } from './helpers.js';

/**
 * A second implementation in the form GB 11643-1999 prints it: the weights 7 9 10 5 8 4 2 1 6 3 7 9 10
 * 5 8 4 2 and the check characters 1 0 X 9 8 7 6 5 4 3 2 indexed by the weighted sum mod 11.
 */
const kWeights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
function checkChar(body17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(body17[i]) * kWeights[i]!;
  return '10X98765432'[sum % 11]!;
}
// Province-level codes of GB/T 2260, plus 71 (Taiwan), 81/82 (Hong Kong, Macau) and 83 (residence
// permits for Taiwan residents).
const kProvinces = fc.constantFrom(...'11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 50 51 52 53 54 61 62 63 64 65 71 81 82 83'.split(' '));
/** A random date in 1900-2099 as YYYYMMDD. */
const kDates = utcDates(1900, 2099).map((d) => d.toISOString().slice(0, 10).replace(/-/g, ''));

describe('cnResidentIdValid', () => {
  it('accepts the example of GB 11643-1999, and the published check table agrees', () => {
    expect(cnResidentIdValid('11010519491231002X')).toBe(true);
    expect(checkChar('11010519491231002')).toBe('X');
  });

  // Synthetic numbers; each is also checked against the standard's table.
  it.each(['11010519491231002x', '440305198802173613', '320102200109309503', '510104197506052389'])('accepts %s', (v) => {
    expect(cnResidentIdValid(v)).toBe(true);
    expect(checkChar(v.slice(0, 17))).toBe(v[17]!.toUpperCase());
  });

  it('agrees with the published table on random numbers of valid province and date', () => {
    fc.assert(
      fc.property(kProvinces, fc.stringMatching(/^[0-9]{4}$/), kDates, fc.stringMatching(/^[0-9]{3}$/), (p, county, date, seq) => {
        const body = `${p}${county}${date}${seq}`;
        const good = checkChar(body);
        for (const c of '0123456789X') expect(cnResidentIdValid(body + c), body + c).toBe(c === good);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with the table and a calendar check on random 18-character strings', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{17}[0-9X]$/), (v) => {
        const year = Number(v.slice(6, 10));
        const expected =
          /^(1[1-5]|2[1-3]|3[1-7]|4[1-6]|5[0-4]|6[1-5]|71|8[1-3])$/.test(v.slice(0, 2)) &&
          year >= 1900 &&
          year <= 2099 &&
          isValidDate(year, Number(v.slice(10, 12)), Number(v.slice(12, 14))) &&
          checkChar(v.slice(0, 17)) === v[17];
        expect(cnResidentIdValid(v), v).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '11010519491231003X', // sequence digit + 1
    '110105194912310020', // wrong check character
    '440305198802173623',
    '320102200109309513',
    '510104197506052399',
    // Check character right, but the date or region is not.
    '110105194913310021', // month 13
    '440305198802303617', // 30 February
    '090105194912310020', // province 09 does not exist
    '110105189912310023', // born 1899
  ])('rejects %s', (v) => expect(cnResidentIdValid(v)).toBe(false));
  it.each(['11010519491231002', '1101051949123100X2', '110105 19491231002X'])('rejects malformed %j', (v) => expect(cnResidentIdValid(v)).toBe(false));
});
