/**
 * ISO 7064 MOD 11-2 (pure system, one check character `0`-`9` or `X`), as used by the Chinese
 * resident identity card (GB 11643-1999). Weights are powers of two modulo 11 counted from the check
 * character, so the whole string including the check character sums to 1 modulo 11.
 *
 * @example
 * iso7064Mod11_2Valid('11010519491231002X'); // true (the standard's own example)
 * iso7064Mod11_2Valid('110105194912310021'); // false
 */
export function iso7064Mod11_2Valid(value: string): boolean {
  const n = value.length;
  if (n < 2) return false;
  let sum = 0;
  let weight = 1;
  // Walk from the check character leftwards; its weight is 1, then 2, 4, 8… modulo 11.
  for (let i = n - 1; i >= 0; i--) {
    const c = value.charCodeAt(i);
    let v: number;
    if (c >= 48 && c <= 57) v = c - 48;
    else if (i === n - 1 && (c === 88 || c === 120)) v = 10; // X / x, only as the check character
    else return false;
    sum += v * weight;
    weight = (weight * 2) % 11;
  }
  return sum % 11 === 1;
}
