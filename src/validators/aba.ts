/**
 * ABA routing transit number (US): 9 digits whose weighted sum with the repeating weights 3, 7, 1 is
 * a multiple of 10, and whose first two digits lie in a range the Federal Reserve assigns:
 * 00-12 (banks, 00 = US government), 21-32 (thrift institutions, the first range + 20),
 * 61-72 (electronic transactions, the first range + 60) and 80 (traveller's cheques).
 * About one 9-digit number in ten passes the checksum alone, which is why the rule also needs context.
 *
 * @example
 * abaValid('021000021'); // true
 * abaValid('021000022'); // false (checksum)
 * abaValid('500000005'); // false (checksum holds, but 50 is not an assigned prefix)
 */
export function abaValid(digits: string): boolean {
  if (digits.length !== 9) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    sum += d * kWeights[i % 3]!;
  }
  // All zeros passes the arithmetic but names no institution (a common placeholder).
  if (sum % 10 !== 0 || digits === '000000000') return false;
  const prefix = Number(digits.slice(0, 2));
  return prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

const kWeights = [3, 7, 1] as const;
