/**
 * Dutch burgerservicenummer (BSN) "elfproef": nine digits weighted 9 8 7 6 5 4 3 2 −1 sum to a
 * multiple of 11. All zeros passes the arithmetic but is not a number, so it is rejected.
 *
 * @example
 * nlBsnValid('111222333'); // true
 * nlBsnValid('111222334'); // false
 */
export function nlBsnValid(digits: string): boolean {
  if (!/^[0-9]{9}$/.test(digits) || digits === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (digits.charCodeAt(i) - 48) * (9 - i);
  sum -= digits.charCodeAt(8) - 48;
  return sum % 11 === 0;
}
