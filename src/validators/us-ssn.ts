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
  // The nine digits read as one number, separators skipped (one pass over the codes: a rule's run gate
  // asks this of every nine-digit run, thousands in a dump of records).
  let n = 0;
  let count = 0;
  let first = -1;
  let repeated = true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 32 || c === 45) continue;
    if (c < 48 || c > 57 || ++count > 9) return false;
    const d = c - 48;
    if (first < 0) first = d;
    else if (d !== first) repeated = false;
    n = n * 10 + d;
  }
  if (count !== 9 || repeated) return false;
  const area = Math.floor(n / 1e6);
  if (area === 0 || area === 666 || area >= 900) return false;
  if (Math.floor(n / 1e4) % 100 === 0 || n % 1e4 === 0) return false;
  return !kPublishedNonSsns.has(n);
}

/**
 * 078-05-1120: printed on Woolworth's sample wallet cards (1938) and used by thousands of people;
 * 219-09-9999: from an SSA advertising pamphlet; 123-45-6789: the canonical placeholder.
 * (987-65-4320…4329, reserved for advertising, are already excluded by the 9xx area rule.) As numbers.
 */
const kPublishedNonSsns: ReadonlySet<number> = new Set([78051120, 219099999, 123456789]);
