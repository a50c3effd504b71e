import { describe, expect, it } from 'vitest';
import { sePersonnummerValid } from '../../src/validators/se-personnummer.js';

// 811228-9874 is the widely published example; the others were computed independently.
const valid = ['811228-9874', '8112289874', '19811228-9874', '811228+9874', '900101-1007', '640823-1006', '701063-2342'];
const invalid = [
  '811228-9875', // check + 1
  '900101-1017', // serial digit + 1
  '640823-1016',
  '190229-1002', // Luhn right, 29 February 1919 / 2019 does not exist
  '811328-9874', // month 13
  '18811228-9874', // four-digit year must start 19 or 20
  '811228-987',
];

describe('sePersonnummerValid', () => {
  it.each(valid)('accepts %s', (v) => expect(sePersonnummerValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(sePersonnummerValid(v)).toBe(false));
});
