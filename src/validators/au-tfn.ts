/**
 * Australian Tax File Number: nine digits weighted 1 4 3 7 5 8 6 9 10 (or the older eight-digit
 * numbers weighted 10 7 8 4 6 3 5 1) must sum to a multiple of 11.
 *
 * @example
 * auTfnValid('123456782'); // true
 * auTfnValid('123456783'); // false
 */
export function auTfnValid(digits: string): boolean {
  if (!/^[0-9]{8,9}$/.test(digits)) return false;
  const weights = digits.length === 9 ? kWeights9 : kWeights8;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.charCodeAt(i) - 48) * weights[i]!;
  return sum % 11 === 0 && !/^0+$/.test(digits);
}

const kWeights9 = [1, 4, 3, 7, 5, 8, 6, 9, 10] as const;
const kWeights8 = [10, 7, 8, 4, 6, 3, 5, 1] as const;
