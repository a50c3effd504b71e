import { describe, expect, it } from 'vitest';
import { noFodselsnummerValid } from '../../src/validators/no-fodselsnummer.js';

// 01010750160 is the number used in Norwegian developer guides; the others (a D-number, a 2000s birth
// with individual number 807, a 1900s birth with individual number 945) were computed independently.
const valid = ['01010750160', '15037894572', '29020080742', '07116430295', '45068936881', '23129519320'];
const invalid = [
  '02010750160', '01010751160', '01010750161', // one digit + 1 (day, individual number, second check)
  '16037894572', '15037895572', '15037894573',
  '46068936881', '45068937881', '45068936882',
  // Individual numbers 750-899 do not exist for years 40-99, whatever the check digits.
  '01016080000',
];

describe('noFodselsnummerValid', () => {
  it.each(valid)('accepts %s', (v) => expect(noFodselsnummerValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(noFodselsnummerValid(v)).toBe(false));
  // For 010107009 the first check digit would be 10: no such number is ever issued.
  it.each(Array.from({ length: 10 }, (_, k) => `010107009${k}0`))('rejects %s', (v) => expect(noFodselsnummerValid(v)).toBe(false));
});
