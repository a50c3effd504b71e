/**
 * Thai national identification number (13 digits): the first 12 weighted 13 down to 2, and the last
 * digit is (11 − sum mod 11) mod 10. The first digit is the person's category, 1 to 8.
 *
 * @example
 * thNationalIdValid('1101700207340'); // true
 * thNationalIdValid('1101700207341'); // false
 */
export function thNationalIdValid(digits: string): boolean {
  if (!/^[1-8][0-9]{12}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (digits.charCodeAt(i) - 48) * (13 - i);
  return (11 - (sum % 11)) % 10 === digits.charCodeAt(12) - 48;
}
