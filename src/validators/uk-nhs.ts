/**
 * NHS number (England, Wales, Isle of Man) check digit: the first nine digits weighted 10 down to 2,
 * check = 11 − (sum mod 11), where 11 becomes 0 and 10 means the number is never issued.
 *
 * @example
 * ukNhsValid('9434765919'); // true (the example most NHS-number documentation uses)
 * ukNhsValid('9434765918'); // false
 */
export function ukNhsValid(digits: string): boolean {
  if (!/^[0-9]{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (digits.charCodeAt(i) - 48) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === digits.charCodeAt(9) - 48;
}
