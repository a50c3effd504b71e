import { isValidDate } from './date.js';
import { iso7064Mod11_2Valid } from './iso7064-mod11-2.js';

/**
 * Chinese resident identity card number (GB 11643-1999, 18 characters): a six-digit administrative
 * division code whose first two digits are a province-level code, the birth date `YYYYMMDD`, a
 * three-digit sequence and an ISO 7064 MOD 11-2 check character (`0`-`9` or `X`).
 *
 * The check alone passes one random number in eleven; the province list and the real calendar date
 * (1900-2099) cut that by a further factor of about 500.
 *
 * @example
 * cnResidentIdValid('11010519491231002X'); // true (the standard's example)
 * cnResidentIdValid('110105194913310021'); // false (month 13, though the check character fits)
 */
export function cnResidentIdValid(value: string): boolean {
  if (!/^[0-9]{17}[0-9Xx]$/.test(value)) return false;
  if (!kProvinces.has(value.slice(0, 2))) return false;
  const year = Number(value.slice(6, 10));
  if (year < 1900 || year > 2099) return false;
  if (!isValidDate(year, Number(value.slice(10, 12)), Number(value.slice(12, 14)))) return false;
  return iso7064Mod11_2Valid(value);
}

// Province-level division codes (GB/T 2260), plus 71 Taiwan, 81/82 Hong Kong/Macau and 83 for the
// residence permits of Taiwan residents (2018).
const kProvinces: ReadonlySet<string> = new Set([
  '11', '12', '13', '14', '15', '21', '22', '23', '31', '32', '33', '34', '35', '36', '37',
  '41', '42', '43', '44', '45', '46', '50', '51', '52', '53', '54', '61', '62', '63', '64', '65',
  '71', '81', '82', '83',
]);
