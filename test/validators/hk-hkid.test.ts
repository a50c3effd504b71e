import { describe, expect, it } from 'vitest';
import { hkHkidValid } from '../../src/validators/hk-hkid.js';

// A123456(3) is the number printed in every guide; the others were computed independently.
const valid = ['A123456(3)', 'A1234563', 'K481632(3)', 'XA904215(3)', 'Z683920(8)'];
const invalid = [
  'A123456(4)', // check + 1
  'K481642(3)', // one digit + 1 (its check would be 0)
  'XB904215(3)', // second letter + 1 (its check would be 6)
  'XA904215(A)',
  'A12345(6)',
  'a123456(3)',
];

describe('hkHkidValid', () => {
  it.each(valid)('accepts %s', (v) => expect(hkHkidValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(hkHkidValid(v)).toBe(false));
});
