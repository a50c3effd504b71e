/**
 * ICAO Doc 9303 check digit (machine readable travel documents, part 3 §4.9): characters valued
 * `0`-`9` → 0-9, `A`-`Z` → 10-35, filler `<` → 0, weighted 7, 3, 1 repeating, sum modulo 10.
 * Used for MRZ fields and German passport / identity card numbers.
 *
 * @example
 * icaoCheckDigit('C01X00T47'); // 8 (German specimen passport number)
 * icaoCheckDigit('c01'); // -1 (lower case is not an MRZ character)
 */
export function icaoCheckDigit(field: string): number {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    let v: number;
    if (c >= 48 && c <= 57) v = c - 48;
    else if (c >= 65 && c <= 90) v = c - 55;
    else if (c === 60) v = 0;
    else return -1;
    sum += v * kWeights[i % 3]!;
  }
  return sum % 10;
}

const kWeights = [7, 3, 1] as const;
