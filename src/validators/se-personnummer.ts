import { isValidDate } from './date.js';
import { luhnValid } from './luhn.js';

/**
 * Swedish personnummer / samordningsnummer: `YYMMDD-NNNC` (`+` instead of `-` from the 100th
 * birthday) or with a four-digit year. The Luhn check runs over the ten digits `YYMMDDNNNC`;
 * coordination numbers add 60 to the day. With a two-digit year the date must exist in 1900s or 2000s.
 *
 * @example
 * sePersonnummerValid('811228-9874'); // true (the widely published example)
 * sePersonnummerValid('811228-9875'); // false
 */
export function sePersonnummerValid(value: string): boolean {
  const m = /^((?:19|20)?)([0-9]{2})([0-9]{2})([0-9]{2})[-+]?([0-9]{4})$/.exec(value);
  if (!m) return false;
  const yy = Number(m[2]);
  const month = Number(m[3]);
  let day = Number(m[4]);
  if (day > 60) day -= 60;
  const years = m[1] ? [Number(m[1]) * 100 + yy] : [1900 + yy, 2000 + yy];
  if (!years.some((y) => isValidDate(y, month, day))) return false;
  return luhnValid(m[2]! + m[3]! + m[4]! + m[5]!);
}
