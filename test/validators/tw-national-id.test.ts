import { describe, expect, it } from 'vitest';
import { twNationalIdValid } from '../../src/validators/tw-national-id.js';

// A123456789 is the canonical example; the others were computed independently.
const valid = ['A123456789', 'F228374654', 'Q192837462', 'Z246801356'];
const invalid = [
  'A123456780', // check + 1
  'F228374754', // one digit + 1 (its check would be 2)
  'G228374654', // letter + 1 (its check would be 5)
  'F328374654', // gender digit 3 does not exist
  'f228374654',
  'F22837465',
];

describe('twNationalIdValid', () => {
  it.each(valid)('accepts %s', (v) => expect(twNationalIdValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(twNationalIdValid(v)).toBe(false));
});
