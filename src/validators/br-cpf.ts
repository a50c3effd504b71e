/**
 * Brazilian CPF (Cadastro de Pessoas Físicas) check digits: two mod-11 digits, the first over the nine
 * base digits weighted 10..2, the second over the base plus the first check digit weighted 11..2
 * (remainder r gives digit 11 − r, or 0 when that is 10 or 11). Eleven identical digits pass the
 * arithmetic but are never issued, and are the usual form-filler junk, so they are rejected.
 *
 * @example
 * brCpfValid('11144477735'); // true
 * brCpfValid('11144477736'); // false
 */
export function brCpfValid(digits: string): boolean {
  if (!/^[0-9]{11}$/.test(digits) || /^(.)\1{10}$/.test(digits)) return false;
  return checkDigit(digits, 9) === digits.charCodeAt(9) - 48 && checkDigit(digits, 10) === digits.charCodeAt(10) - 48;
}

function checkDigit(digits: string, len: number): number {
  let sum = 0;
  for (let i = 0; i < len; i++) sum += (digits.charCodeAt(i) - 48) * (len + 1 - i);
  const d = 11 - (sum % 11);
  return d >= 10 ? 0 : d;
}
