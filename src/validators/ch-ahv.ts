/**
 * Swiss social security number (AHV/AVS number, since 2008): 13 digits starting with the country code
 * 756, the last being an EAN-13 check digit (weights 1 and 3 alternating from the left). Dots are
 * ignored, so `756.9217.0769.85` and `7569217076985` are the same number.
 *
 * @example
 * chAhvValid('756.9217.0769.85'); // true (the widely published example)
 * chAhvValid('756.9217.0769.86'); // false
 */
export function chAhvValid(value: string): boolean {
  const digits = value.replace(/\./g, '');
  if (!/^756[0-9]{10}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(12) - 48;
}
