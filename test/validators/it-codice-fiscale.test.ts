import { describe, expect, it } from 'vitest';
import { itCodiceFiscaleValid } from '../../src/validators/it-codice-fiscale.js';

// RSSMRA80A01H501U (Mario Rossi, Rome, 1 January 1980) is the usual textbook code; the others, and
// the omocodic variants, were computed independently from the decree's tables.
const valid = [
  'RSSMRA80A01H501U',
  'rssmra80a01h501u',
  'BNCGNN85T10F205Q',
  'VRDLRA92E45A944G', // woman: day 05 + 40
  'FRRLCU77B21L219I',
  'RSSMRA80A01H50MM', // omocodia: last digit 1 → M
  'RSSMRA8LA01H501F', // omocodia: year digit 0 → L
];
const invalid = [
  'RSSMRA80A01H501V', // check letter + 1
  'RSSMRA80A01H502U', // one digit + 1 (its check letter would be Z)
  'BNCGNN85T10F205R',
  'VRDLRA92E45A944H',
  'BNCGNN85T32F205W', // check letter right, day 32 impossible
  'RSSMRA80F01H501U', // F is not a month letter
  'RSSMRA80A01H5O1U', // O is not an omocodia letter
  'RSSMRA80A01H501', // 15 characters
  'db869ecdbe59fef5', // a hex file name: a digit among the six name letters
  'RSSMR080A01H501U',
  'RSS-RA80A01H501U',
];

describe('itCodiceFiscaleValid', () => {
  it.each(valid)('accepts %s', (v) => expect(itCodiceFiscaleValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(itCodiceFiscaleValid(v)).toBe(false));
  it('upper-cases before its letter tests: ſ (long s) is an S, as case-insensitive matching has it', () => {
    expect(itCodiceFiscaleValid('Rſſmra80a01h501u')).toBe(true);
  });
});
