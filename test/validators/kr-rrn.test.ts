import { describe, expect, it } from 'vitest';
import { krRrnValid } from '../../src/validators/kr-rrn.js';

// Synthetic numbers whose check digits were computed independently.
const valid = ['900101-1234568', '850315-2345615', '021107-4123456', '780901-1987650', '8503152345615'];
const invalid = [
  '900101-1234567',
  '850315-2355615', // serial digit + 1
  '850315-2345616', // check + 1
  '021107-4133456',
  '021107-4123457',
  '850230-2345611', // check right, 30 February
  '85031-2345615',
];

describe('krRrnValid', () => {
  it.each(valid)('accepts %s', (v) => expect(krRrnValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(krRrnValid(v)).toBe(false));
});
