import { isValidDate } from './date.js';

/**
 * Polish PESEL: `YYMMDD` + 4-digit serial + check digit. The century is encoded in the month (+80 for
 * 1800s, +0 for 1900s, +20 for 2000s, +40 for 2100s, +60 for 2200s); the check digit is
 * (10 − Σ dᵢ·wᵢ mod 10) mod 10 with weights 1 3 7 9 1 3 7 9 1 3.
 *
 * @example
 * plPeselValid('44051401359'); // true (the widely published example)
 * plPeselValid('44051401358'); // false
 */
export function plPeselValid(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits)) return false;
  const d = (i: number): number => digits.charCodeAt(i) - 48;
  const rawMonth = d(2) * 10 + d(3);
  const century = kCenturyByMonthBlock[Math.floor(rawMonth / 20)];
  if (century === undefined) return false;
  const year = century + d(0) * 10 + d(1);
  if (!isValidDate(year, rawMonth % 20, d(4) * 10 + d(5))) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += d(i) * kWeights[i]!;
  return (10 - (sum % 10)) % 10 === d(10);
}

// Month 01-12 → 1900, 21-32 → 2000, 41-52 → 2100, 61-72 → 2200, 81-92 → 1800.
const kCenturyByMonthBlock = [1900, 2000, 2100, 2200, 1800] as const;
const kWeights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3] as const;
