import { isValidDate } from './date.js';

/**
 * Mexican CURP (Clave Única de Registro de Población, 18 characters): four name letters, birth date
 * `YYMMDD`, sex (H, M, or X since 2022), a two-letter state code (NE = born abroad), three name
 * consonants, a differentiator (a digit for births up to 1999, a letter from 2000) and a check digit:
 * characters valued in `0-9A-NÑO-Z` order, weighted 18 down to 2, check = (10 − sum mod 10) mod 10.
 *
 * @example
 * mxCurpValid('HEGG560427MVZRRL04'); // true (the widely published example)
 * mxCurpValid('HEGG560427MVZRRL05'); // false
 */
export function mxCurpValid(value: string): boolean {
  const m = /^[A-Z][AEIOUX][A-Z]{2}([0-9]{2})([0-9]{2})([0-9]{2})[HMX]([A-Z]{2})[B-DF-HJ-NP-TV-Z]{3}([0-9A-Z])[0-9]$/.exec(value);
  if (!m || !kStates.has(m[4]!)) return false;
  const century = /[0-9]/.test(m[5]!) ? 1900 : 2000;
  if (!isValidDate(century + Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += kValues.indexOf(value[i]!) * (18 - i);
  return (10 - (sum % 10)) % 10 === value.charCodeAt(17) - 48;
}

const kValues = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
const kStates: ReadonlySet<string> = new Set([
  'AS', 'BC', 'BS', 'CC', 'CL', 'CM', 'CS', 'CH', 'DF', 'DG', 'GT', 'GR', 'HG', 'JC', 'MC', 'MN', 'MS',
  'NT', 'NL', 'OC', 'PL', 'QT', 'QR', 'SP', 'SL', 'SR', 'TC', 'TS', 'TL', 'VZ', 'YN', 'ZS', 'NE',
]);
