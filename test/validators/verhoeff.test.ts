import { describe, expect, it } from 'vitest';
import { verhoeffValid } from '../../src/validators/verhoeff.js';

// '2363' is the worked example of the Verhoeff algorithm; the 12-digit numbers are synthetic
// Aadhaar-shaped values whose check digits were computed with a separate implementation.
const valid = ['2363', '404538058038', '555860821440', '297499213553', '976014327969'];
// Each valid number with one digit increased by one (first, middle, check digit).
const invalid = [
  '2364', '504538058038', '404539058038', '404538058039', '655860821440', '555861821440', '555860821441',
  '397499213553', '297490213553', '297499213554', '076014327969', '976015327969', '976014327960',
  // Adjacent transposition, which Verhoeff (unlike Luhn's 09/90) always catches.
  '045438058038',
];

describe('verhoeffValid', () => {
  it.each(valid)('accepts %s', (v) => expect(verhoeffValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(verhoeffValid(v)).toBe(false));
  it.each(['', '7', '4045 3805 8038', '40453805803a'])('rejects malformed %j', (v) => expect(verhoeffValid(v)).toBe(false));
});
