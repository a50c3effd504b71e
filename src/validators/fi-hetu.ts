import { isValidDate } from './date.js';

/**
 * Finnish personal identity code (henkilötunnus): `DDMMYY`, a century sign, a three-digit individual
 * number and a check character = `0123456789ABCDEFHJKLMNPRSTUVWXY`[(DDMMYYNNN as an integer) mod 31].
 * Century signs: `+` 1800s; `-` and (since 2023) `Y X W V U` 1900s; `A` and `B C D E F` 2000s.
 * Individual numbers 002-899 are permanent, 900-999 temporary; 000 and 001 are never used.
 *
 * @example
 * fiHetuValid('131052-308T'); // true (the widely published example)
 * fiHetuValid('131052-308U'); // false
 */
export function fiHetuValid(value: string): boolean {
  const m = /^([0-9]{2})([0-9]{2})([0-9]{2})([-+A-FU-Y])([0-9]{3})([0-9A-Y])$/.exec(value);
  if (!m) return false;
  const sign = m[4]!;
  const century = sign === '+' ? 1800 : sign === '-' || sign >= 'U' ? 1900 : 2000;
  if (!isValidDate(century + Number(m[3]), Number(m[2]), Number(m[1]))) return false;
  if (Number(m[5]) < 2) return false;
  return kCheck[Number(m[1]! + m[2]! + m[3]! + m[5]!) % 31] === m[6];
}

const kCheck = '0123456789ABCDEFHJKLMNPRSTUVWXY';
