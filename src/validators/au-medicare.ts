/**
 * Australian Medicare card number: eight digits starting 2-6, a check digit = Σ dᵢ·wᵢ mod 10 with
 * weights 1 3 7 9 1 3 7 9, then the card issue number, and optionally the one-digit individual
 * reference number (IRN, 1-9) of the person on the card: 10 or 11 digits in all.
 *
 * @example
 * auMedicareValid('2123456701'); // true
 * auMedicareValid('2123456711'); // false
 */
export function auMedicareValid(digits: string): boolean {
  if (!/^[2-6][0-9]{9}(?:[1-9])?$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (digits.charCodeAt(i) - 48) * kWeights[i]!;
  return sum % 10 === digits.charCodeAt(8) - 48;
}

const kWeights = [1, 3, 7, 9, 1, 3, 7, 9] as const;
