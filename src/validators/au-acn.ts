/**
 * Australian Company Number (ACN), ASIC's check: the first eight digits weighted 8 7 6 5 4 3 2 1; the
 * ninth is the complement of the sum's remainder mod 10 (10 − r, or 0 when r is 0). All zeros passes
 * the arithmetic but is not a company, so it is rejected.
 *
 * @example
 * auAcnValid('000000019'); // true (one of ASIC's examples)
 * auAcnValid('000000018'); // false
 */
export function auAcnValid(digits: string): boolean {
  if (!/^[0-9]{9}$/.test(digits) || digits === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (digits.charCodeAt(i) - 48) * (8 - i);
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(8) - 48;
}
