import { isValidDate } from './date.js';
import { icaoCheckDigit } from './icao9303.js';

/**
 * Machine readable zone of a passport (ICAO Doc 9303 part 4, TD3: two lines of 44 characters). The
 * value may carry anything between the two lines (newline, `<br>`, a JSON `","`): only its first and
 * last 44 characters are read. Line 1 must start with `P`; line 2 must have a valid check digit for the
 * document number, the birth date, the expiry date, the optional data (or `<` when that is empty) and
 * the composite, with real calendar dates.
 *
 * @example
 * mrzTd3Valid('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10'); // true
 */
export function mrzTd3Valid(value: string): boolean {
  if (value.length < 88) return false;
  const line1 = value.slice(0, 44);
  if (!/^P[A-Z<][A-Z<]{42}$/.test(line1)) return false;
  return mrzTd3Line2Valid(value.slice(-44));
}

/**
 * The data line of a TD3 MRZ on its own (ICAO Doc 9303 part 4, line 2: 44 characters): every check
 * digit (document number, birth date, expiry date, optional data or `<`, composite) and real dates,
 * as in `mrzTd3Valid`, without the name line.
 *
 * @example
 * mrzTd3Line2Valid('L898902C36UTO7408122F1204159ZE184226B<<<<<10'); // true (Doc 9303 part 4 specimen)
 */
export function mrzTd3Line2Valid(line2: string): boolean {
  const m = kLine2.exec(line2);
  if (!m) return false;
  const [, docNo, docCheck, , birth, birthCheck, , expiry, expiryCheck, optional, optionalCheck, composite] = m;
  if (!checks(docNo!, docCheck!) || !checks(birth!, birthCheck!) || !checks(expiry!, expiryCheck!)) return false;
  if (!(optionalCheck === '<' ? /^<+$/.test(optional!) : checks(optional!, optionalCheck!))) return false;
  const compositeField = line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43);
  if (!checks(compositeField, composite!)) return false;
  return plausibleDate(birth!) && plausibleDate(expiry!) && /[A-Z0-9]/.test(docNo!);
}

/**
 * Machine readable zone of an identity card or residence permit (ICAO Doc 9303 part 5, TD1: three
 * lines of 30 characters). Line 1: document code (`I`, `A` or `C` first), issuing state, document
 * number and its check digit (when the check position holds `<`, the number continues in the optional
 * data and ends with its check digit), optional data. Line 2: birth date, check, sex, expiry, check,
 * nationality, optional data, composite check. Line 3: the name. As for TD3, separators between the
 * lines are skipped: line 1 is the first 30 characters, line 3 the last 30, line 2 the 30-character
 * run between them that starts and ends with a digit.
 *
 * @example
 * mrzTd1Valid('I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<'); // true
 */
export function mrzTd1Valid(value: string): boolean {
  if (value.length < 90) return false;
  const line1 = value.slice(0, 30);
  const line3 = value.slice(-30);
  const middle = /[0-9][A-Z0-9<]{28}[0-9]/.exec(value.slice(30, -30));
  if (!middle || !/^[IAC][A-Z<][A-Z<]{3}[A-Z0-9<]{25}$/.test(line1) || !/^[A-Z<]{30}$/.test(line3)) return false;
  const line2 = middle[0];
  const m = kTd1Line2.exec(line2);
  if (!m) return false;
  const [, birth, birthCheck, , expiry, expiryCheck, , , composite] = m;
  if (!checks(birth!, birthCheck!) || !checks(expiry!, expiryCheck!)) return false;
  let docNo = line1.slice(5, 14);
  let docCheck = line1[14]!;
  if (docCheck === '<') {
    // Long document number: the rest of it, then its check digit, lead the optional data.
    const rest = /^([A-Z0-9]*)([0-9])</.exec(line1.slice(15));
    if (!rest) return false;
    docNo += rest[1]!;
    docCheck = rest[2]!;
  }
  if (!/^[0-9]$/.test(docCheck) || !checks(docNo, docCheck)) return false;
  const compositeField = line1.slice(5, 30) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29);
  if (!checks(compositeField, composite!)) return false;
  return plausibleDate(birth!) && plausibleDate(expiry!) && /[A-Z0-9]/.test(docNo) && line3.includes('<<');
}

/**
 * Machine readable zone of a TD2 identity document (ICAO Doc 9303 part 6: two lines of 36 characters).
 * Line 1: document code (`I`, `A` or `C` first), issuing state and the name, which holds `<<`. Line 2:
 * document number and check, nationality, birth date and check, sex, expiry and check, optional data
 * and the composite check (over positions 1-10, 14-20 and 22-35). When the document number's check
 * position holds `<`, the number continues in the optional data and ends with its check digit, as in
 * TD1. As for TD3, separators between the lines are skipped.
 *
 * @example
 * mrzTd2Valid('I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6'); // true (Doc 9303 part 6 specimen)
 */
export function mrzTd2Valid(value: string): boolean {
  if (value.length < 72) return false;
  const line1 = value.slice(0, 36);
  const line2 = value.slice(-36);
  if (!/^[IAC][A-Z<][A-Z<]{34}$/.test(line1) || !line1.slice(5).includes('<<')) return false;
  const m = kTd2Line2.exec(line2);
  if (!m) return false;
  const [, docField, docCheckField, , birth, birthCheck, , expiry, expiryCheck, optional, composite] = m;
  if (!checks(birth!, birthCheck!) || !checks(expiry!, expiryCheck!)) return false;
  let docNo = docField!;
  let docCheck = docCheckField!;
  if (docCheck === '<') {
    const rest = /^([A-Z0-9]*)([0-9])</.exec(optional! + '<');
    if (!rest) return false;
    docNo += rest[1]!;
    docCheck = rest[2]!;
  }
  if (!/^[0-9]$/.test(docCheck) || !checks(docNo, docCheck)) return false;
  if (!checks(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 35), composite!)) return false;
  return plausibleDate(birth!) && plausibleDate(expiry!) && /[A-Z0-9]/.test(docNo);
}

// number(9) check nationality(3) birth(6) check sex expiry(6) check optional(7) composite
const kTd2Line2 = /^([A-Z0-9<]{9})([0-9<])([A-Z<]{3})([0-9]{6})([0-9])([MFX<])([0-9]{6})([0-9])([A-Z0-9<]{7})([0-9])$/;

// birth(6) check sex expiry(6) check nationality(3) optional(11) composite
const kTd1Line2 = /^([0-9]{6})([0-9])([MFX<])([0-9]{6})([0-9])([A-Z<]{3})([A-Z0-9<]{11})([0-9])$/;

// number(9) check nationality(3) birth(6) check sex expiry(6) check optional(14) check composite
const kLine2 = /^([A-Z0-9<]{9})([0-9])([A-Z<]{3})([0-9]{6})([0-9])([MFX<])([0-9]{6})([0-9])([A-Z0-9<]{14})([0-9<])([0-9])$/;

function checks(field: string, digit: string): boolean {
  return icaoCheckDigit(field) === digit.charCodeAt(0) - 48;
}

/** `YYMMDD` is a real date in either century (the MRZ does not say which). */
function plausibleDate(yymmdd: string): boolean {
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  return isValidDate(1900 + yy, mm, dd) || isValidDate(2000 + yy, mm, dd);
}
