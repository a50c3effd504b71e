import { isValidDate } from './date.js';

/**
 * Italian codice fiscale (DM 23/12/1976) for persons: 3 surname letters, 3 name letters, year (2),
 * month letter (`ABCDEHLMPRST`), day (01-31, plus 40 for women), birthplace code (letter + 3), and a
 * check letter: characters at odd positions (1st, 3rd…) are mapped through the published odd table,
 * those at even positions to 0-9 / 0-25, and the sum modulo 26 is the letter.
 *
 * Omocodia: when two people would share a code, digits are replaced from the right by
 * `LMNPQRSTUV` (0-9); such codes are accepted and decoded before the date check.
 *
 * @example
 * itCodiceFiscaleValid('RSSMRA80A01H501U'); // true
 * itCodiceFiscaleValid('RSSMRA80A01H501V'); // false
 */
export function itCodiceFiscaleValid(value: string): boolean {
  // The six name letters first, before any copy: the rule's trigger hands over every 16-character
  // token with a letter, and hex names (`db869ecdbe59fef5.png`) are the usual ones. (A non-ASCII
  // character goes on to the full test: `ſ` upper-cases to `S`.)
  if (value.length !== 16) return false;
  for (let i = 0; i < 6; i++) {
    const c = value.charCodeAt(i);
    const lower = c | 0x20;
    if (c < 128 && (lower < 97 || lower > 122)) return false;
  }
  const v = value.toUpperCase();
  if (!kShape.test(v)) return false;
  const digitAt = (i: number): number => {
    const c = v.charCodeAt(i);
    return c <= 57 ? c - 48 : kOmocodia.indexOf(v[i]!);
  };
  const month = kMonths.indexOf(v[8]!) + 1;
  let day = digitAt(9) * 10 + digitAt(10);
  if (day > 40) day -= 40;
  // The year has no century; 2000 is a leap year, so 29 February is allowed for any year.
  if (!isValidDate(2000, month, day)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = v.charCodeAt(i);
    const n = c <= 57 ? c - 48 : c - 65;
    // Positions are 1-based in the decree, so index 0 is "odd"; even positions count at face value.
    sum += i % 2 === 0 ? kOdd[n]! : n;
  }
  return v.charCodeAt(15) - 65 === sum % 26;
}

// Digits and letters share one odd table: '0' and 'A' → 1, '1' and 'B' → 0, … as published.
const kOdd = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23] as const;
const kMonths = 'ABCDEHLMPRST';
const kOmocodia = 'LMNPQRSTUV';
// Digit positions 7-8, 10-11, 13-15 (1-based) may hold omocodia letters.
const kShape = /^[A-Z]{6}[0-9LMNP-V]{2}[ABCDEHLMPRST][0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{3}[A-Z]$/;
