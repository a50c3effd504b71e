/**
 * Hong Kong identity card number: one or two letters, six digits and a check character (`0`-`9` or
 * `A`), usually printed in parentheses: `A123456(3)`. Letters count 10-35 and a missing first letter
 * counts 36; weights 9 8 7 6 5 4 3 2; check = (11 − sum mod 11) mod 11, where 10 is written `A`.
 *
 * @example
 * hkHkidValid('A123456(3)'); // true
 * hkHkidValid('A123456(4)'); // false
 */
export function hkHkidValid(value: string): boolean {
  // The check character in parentheses or bare, never behind a lone bracket (`A123456(3`).
  const m = /^([A-Z]{1,2})([0-9]{6})(?:\(([0-9A])\)|([0-9A]))$/.exec(value);
  if (!m) return false;
  const checkChar = m[3] ?? m[4];
  const letters = m[1]!.length === 1 ? ` ${m[1]!}` : m[1]!;
  const v = (c: string): number => (c === ' ' ? 36 : c.charCodeAt(0) - 55);
  let sum = v(letters[0]!) * 9 + v(letters[1]!) * 8;
  for (let i = 0; i < 6; i++) sum += (m[2]!.charCodeAt(i) - 48) * (7 - i);
  const check = (11 - (sum % 11)) % 11;
  return (check === 10 ? 'A' : String(check)) === checkChar;
}
