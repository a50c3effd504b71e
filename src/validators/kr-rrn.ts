import { isValidDate } from './date.js';

/**
 * South Korean resident registration number `YYMMDD-GNNNNNC`: birth date, a gender/century digit
 * (1 2 5 6 → 1900s, 3 4 7 8 → 2000s, 9 0 → 1800s; 5-8 are foreign residents), and a check digit
 * (11 − Σ dᵢ·wᵢ mod 11) mod 10 with weights 2 3 4 5 6 7 8 9 2 3 4 5. The dash is optional here.
 *
 * Numbers issued from October 2020 have random trailing digits and may fail the check digit; this
 * validator (and so the rule) only accepts numbers that carry it, which is every number issued before.
 *
 * @example
 * krRrnValid('900101-1234568'); // true
 * krRrnValid('900101-1234567'); // false
 */
export function krRrnValid(value: string): boolean {
  const digits = value.replace('-', '');
  if (!/^[0-9]{13}$/.test(digits)) return false;
  const d = (i: number): number => digits.charCodeAt(i) - 48;
  const century = kCenturyByGenderDigit[d(6)]!;
  if (!isValidDate(century + d(0) * 10 + d(1), d(2) * 10 + d(3), d(4) * 10 + d(5))) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += d(i) * kWeights[i]!;
  return (11 - (sum % 11)) % 10 === d(12);
}

const kCenturyByGenderDigit = [1800, 1900, 1900, 2000, 2000, 1900, 1900, 2000, 2000, 1800] as const;
const kWeights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5] as const;
