/**
 * Structural check of a US Social Security Number (no check digit exists): the SSA never issues area
 * 000, 666 or 900-999 (the 9xx range is ITINs and advertising numbers), group 00 or serial 0000, and a
 * handful of numbers are famous non-SSNs printed in wallets, ads and documentation. Separators ` ` or
 * `-` are ignored; anything else or a length other than nine digits is invalid.
 *
 * @example
 * usSsnValid('536-22-8714'); // true
 * usSsnValid('078-05-1120'); // false (the Woolworth wallet-card number)
 */
export function usSsnValid(value: string): boolean {
  const digits = value.replace(/[ -]/g, '');
  if (!/^[0-9]{9}$/.test(digits)) return false;
  const area = digits.slice(0, 3);
  if (area === '000' || area === '666' || area[0] === '9') return false;
  if (digits.slice(3, 5) === '00' || digits.slice(5) === '0000') return false;
  if (/^(.)\1{8}$/.test(digits)) return false;
  return !kPublishedNonSsns.has(digits);
}

/**
 * 078-05-1120: printed on Woolworth's sample wallet cards (1938) and used by thousands of people;
 * 219-09-9999: from an SSA advertising pamphlet; 123-45-6789: the canonical placeholder.
 * (987-65-4320…4329, reserved for advertising, are already excluded by the 9xx area rule.)
 */
const kPublishedNonSsns: ReadonlySet<string> = new Set(['078051120', '219099999', '123456789']);
