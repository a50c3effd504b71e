import { isValidDate } from './date.js';

/**
 * Norwegian fødselsnummer / D-nummer: `DDMMYY` + three-digit individual number + two mod-11 check
 * digits (weights 3 7 6 1 8 9 4 5 2, then 5 4 3 2 7 6 5 4 3 2; a remainder giving 10 is never issued).
 * D-numbers add 40 to the day, H-numbers 40 to the month. The individual number fixes the century:
 * 000-499 → 1900s; 500-749 with YY ≥ 54 → 1800s; 500-999 with YY ≤ 39 → 2000s; 900-999 with YY ≥ 40
 * → 1900s.
 *
 * @example
 * noFodselsnummerValid('01010750160'); // true
 * noFodselsnummerValid('01010750161'); // false
 */
export function noFodselsnummerValid(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits)) return false;
  const d = (i: number): number => digits.charCodeAt(i) - 48;
  let day = d(0) * 10 + d(1);
  let month = d(2) * 10 + d(3);
  const yy = d(4) * 10 + d(5);
  const ind = d(6) * 100 + d(7) * 10 + d(8);
  if (day > 40) day -= 40;
  if (month > 40) month -= 40;
  let century: number;
  if (ind < 500) century = 1900;
  else if (ind < 750 && yy >= 54) century = 1800;
  else if (yy <= 39) century = 2000;
  else if (ind >= 900) century = 1900;
  else return false;
  if (!isValidDate(century + yy, month, day)) return false;
  return check(digits, kW1, 9) === d(9) && check(digits, kW2, 10) === d(10);
}

function check(digits: string, weights: readonly number[], len: number): number {
  let sum = 0;
  for (let i = 0; i < len; i++) sum += (digits.charCodeAt(i) - 48) * weights[i]!;
  const k = (11 - (sum % 11)) % 11;
  return k === 10 ? -1 : k;
}

const kW1 = [3, 7, 6, 1, 8, 9, 4, 5, 2] as const;
const kW2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;
