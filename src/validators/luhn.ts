import luhn from 'luhn';

/**
 * Luhn (mod 10) check over a string of ASCII digits, as used by payment card numbers (ISO/IEC 7812)
 * and Canada's SIN. The project standardises on the `luhn` package for the arithmetic; this wrapper
 * adds the strictness that package lacks: it strips whitespace itself and treats an all-zero number
 * as invalid, but would accept embedded spaces and any length, so we insist on plain digits here and
 * leave separator handling to the caller.
 *
 * @example
 * luhnValid('4111111111111111'); // true
 * luhnValid('4111111111111112'); // false
 */
export function luhnValid(digits: string): boolean {
  if (digits.length < 2 || !/^[0-9]+$/.test(digits)) return false;
  return luhn.validate(digits);
}
