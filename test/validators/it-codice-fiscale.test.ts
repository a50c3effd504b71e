import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { itCodiceFiscaleValid } from '../../src/validators/it-codice-fiscale.js';

/**
 * A second implementation from the tables of DM 23/12/1976 (allegati), keyed by character rather than
 * by arithmetic on char codes: the odd-position table, and the even-position values.
 */
const kOddTable: Record<string, number> = {
  0: 1, 1: 0, 2: 5, 3: 7, 4: 9, 5: 13, 6: 15, 7: 17, 8: 19, 9: 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
};
const kEvenTable: Record<string, number> = Object.fromEntries([
  ...[...'0123456789'].map((c, i) => [c, i]),
  ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, i]),
]);
function checkLetter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += (i % 2 === 0 ? kOddTable : kEvenTable)[first15[i]!]!;
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[sum % 26]!;
}
/** Omocodia letters stand for 0-9 in the seven digit positions. */
const kOmocodia: Record<string, string> = { L: '0', M: '1', N: '2', P: '3', Q: '4', R: '5', S: '6', T: '7', U: '8', V: '9' };
function reference(value: string): boolean {
  const v = value.toUpperCase();
  const d = '[0-9LMNPQRSTUV]';
  if (!new RegExp(`^[A-Z]{6}${d}{2}[ABCDEHLMPRST]${d}{2}[A-Z]${d}{3}[A-Z]$`).test(v)) return false;
  const plain = (c: string): string => kOmocodia[c] ?? c;
  const day = Number(plain(v[9]!) + plain(v[10]!));
  const month = 'ABCDEHLMPRST'.indexOf(v[8]!) + 1;
  if (!isValidDate(2000, month, day > 40 ? day - 40 : day)) return false;
  return checkLetter(v.slice(0, 15)) === v[15];
}
const kBody = fc
  .tuple(fc.stringMatching(/^[A-Z]{6}[0-9]{2}[ABCDEHLMPRST]$/), fc.integer({ min: 1, max: 28 }), fc.boolean(), fc.stringMatching(/^[A-Z][0-9]{3}$/))
  .map(([head, day, woman, place]) => `${head}${String(woman ? day + 40 : day).padStart(2, '0')}${place}`);

describe('itCodiceFiscaleValid', () => {
  it.each([
    'RSSMRA85T10A562S', // the example of the Italian Wikipedia article "Codice fiscale"
    'MRTMTT25D09F205Z', // the example of the English Wikipedia article "Italian fiscal code"
  ])('accepts the published example %s', (v) => {
    expect(itCodiceFiscaleValid(v)).toBe(true);
    expect(checkLetter(v.slice(0, 15))).toBe(v[15]);
  });

  // Synthetic codes and omocodic variants; each is also checked by the second implementation.
  it.each([
    'RSSMRA80A01H501U',
    'rssmra80a01h501u',
    'BNCGNN85T10F205Q',
    'VRDLRA92E45A944G', // woman: day 05 + 40
    'FRRLCU77B21L219I',
    'RSSMRA80A01H50MM', // omocodia: last digit 1 → M
    'RSSMRA8LA01H501F', // omocodia: year digit 0 → L
  ])('accepts %s', (v) => {
    expect(itCodiceFiscaleValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the decree’s tables on every check letter of random codes', () => {
    fc.assert(
      fc.property(kBody, (body) => {
        for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') expect(itCodiceFiscaleValid(body + l), body + l).toBe(l === checkLetter(body));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with the second implementation on random strings of the code’s shape, omocodia included', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{6}[0-9LMNP-V]{2}[A-Z][0-7LMNP-S][0-9LMNP-V][A-Z][0-9LMNP-V]{3}[A-Z]$/), (v) => {
        expect(itCodiceFiscaleValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects every change of one digit into another digit, or of one letter into another letter', () => {
    // Each table gives digits, and letters, distinct values below 26, so such a change moves the sum
    // mod 26. (A digit and a letter may share a value: 0 and A both count 1 in odd places.)
    fc.assert(
      fc.property(kBody, fc.nat(15), fc.integer({ min: 1, max: 25 }), (body, at, shift) => {
        const valid = body + checkLetter(body);
        const c = valid[at]!;
        const other = /[0-9]/.test(c) ? String((Number(c) + (shift % 9) + 1) % 10) : String.fromCharCode(65 + ((c.charCodeAt(0) - 65 + shift) % 26));
        const changed = valid.slice(0, at) + other + valid.slice(at + 1);
        expect(itCodiceFiscaleValid(changed), changed).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
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
  ])('rejects %s', (v) => expect(itCodiceFiscaleValid(v)).toBe(false));
  it('upper-cases before its letter tests: ſ (long s) is an S, as case-insensitive matching has it', () => {
    expect(itCodiceFiscaleValid('Rſſmra80a01h501u')).toBe(true);
  });
});
