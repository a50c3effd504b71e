/**
 * Australian Business Number (ABN), the ABR's check: subtract 1 from the first digit, weight the 11
 * digits 10 1 3 5 7 9 11 13 15 17 19, and the sum is a multiple of 89. The first digit is never 0.
 *
 * @example
 * auAbnValid('51824753556'); // true (the ABR's worked example)
 * auAbnValid('52824753556'); // false
 */
export function auAbnValid(digits: string): boolean {
  if (!/^[1-9][0-9]{10}$/.test(digits)) return false;
  let sum = (digits.charCodeAt(0) - 49) * 10;
  for (let i = 1; i < 11; i++) sum += (digits.charCodeAt(i) - 48) * (2 * i - 1);
  return sum % 89 === 0;
}
