import { describe, expect, it } from 'vitest';
import { iso7064Mod11_2Valid } from '../../src/validators/iso7064-mod11-2.js';

// 11010519491231002X is the example of GB 11643-1999; the others were computed independently.
const valid = ['11010519491231002X', '11010519491231002x', '440305198802173613', '320102200109309503', '510104197506052389'];
const invalid = [
  '11010519491231003X', // 17th digit + 1
  '110105194912310020', // X replaced by 0
  '440305198802173623',
  '440305198802173610',
  '320102200109309513',
  '510104197506052399',
];

describe('iso7064Mod11_2Valid', () => {
  it.each(valid)('accepts %s', (v) => expect(iso7064Mod11_2Valid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(iso7064Mod11_2Valid(v)).toBe(false));
  it.each(['', '1', '1101051949123100X2', '11010519491231-02X'])('rejects malformed %j', (v) => expect(iso7064Mod11_2Valid(v)).toBe(false));
});
