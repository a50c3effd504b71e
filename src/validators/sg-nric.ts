/**
 * Singapore NRIC / FIN check letter (ICA): the seven digits weighted 2 7 6 5 4 3 2, plus 4 for the T
 * and G series and 3 for the M series (2022), modulo 11, then a series-specific letter table:
 * S/T `JZIHGFEDCBA`, F/G `XWUTRQPNMLK`, M `XWUTRQPNJLK`.
 *
 * @example
 * sgNricValid('S1234567D'); // true
 * sgNricValid('S1234567E'); // false
 */
export function sgNricValid(value: string): boolean {
  const m = /^([STFGM])([0-9]{7})([A-Z])$/.exec(value);
  if (!m) return false;
  const series = m[1]!;
  const digits = m[2]!;
  let sum = series === 'T' || series === 'G' ? 4 : series === 'M' ? 3 : 0;
  for (let i = 0; i < 7; i++) sum += (digits.charCodeAt(i) - 48) * kWeights[i]!;
  const table = series === 'S' || series === 'T' ? 'JZIHGFEDCBA' : series === 'M' ? 'XWUTRQPNJLK' : 'XWUTRQPNMLK';
  return table[sum % 11] === m[3];
}

const kWeights = [2, 7, 6, 5, 4, 3, 2] as const;
