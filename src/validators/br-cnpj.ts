/**
 * Brazilian CNPJ (company registry number, 14 digits) check digits: two mod-11 digits, the first over
 * the 12 base digits weighted 5 4 3 2 9 8 7 6 5 4 3 2, the second over the base and the first check
 * digit weighted 6 5 4 3 2 9 8 7 6 5 4 3 2 (remainder below 2 gives 0, else 11 − remainder). Fourteen
 * identical digits pass the arithmetic but are never issued, so they are rejected.
 *
 * @example
 * brCnpjValid('11222333000181'); // true
 * brCnpjValid('11222333000182'); // false
 */
export function brCnpjValid(digits: string): boolean {
  if (!/^[0-9]{14}$/.test(digits) || /^(.)\1{13}$/.test(digits)) return false;
  return checkDigit(digits, 12) === digits.charCodeAt(12) - 48 && checkDigit(digits, 13) === digits.charCodeAt(13) - 48;
}

/** The check digit over the first `len` digits: weights run 2..9 from the right, cyclically. */
function checkDigit(digits: string, len: number): number {
  let sum = 0;
  for (let i = 0; i < len; i++) sum += (digits.charCodeAt(len - 1 - i) - 48) * (2 + (i % 8));
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}
