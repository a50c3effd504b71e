/**
 * Verhoeff check digit (dihedral group D5), used by India's Aadhaar. It catches every single-digit
 * error and every transposition of adjacent digits, which is why a random 12-digit number passes only
 * one time in ten.
 *
 * @example
 * verhoeffValid('2363'); // true  (the textbook example: 236 with check digit 3)
 * verhoeffValid('2364'); // false
 */
export function verhoeffValid(digits: string): boolean {
  if (digits.length < 2 || !/^[0-9]+$/.test(digits)) return false;
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = kMultiply[c * 10 + kPermute[(i % 8) * 10 + d]!]!;
  }
  return c === 0;
}

// Multiplication table of D5, flattened row-major (row = left operand).
const kMultiply = Uint8Array.from([
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
  1, 2, 3, 4, 0, 6, 7, 8, 9, 5,
  2, 3, 4, 0, 1, 7, 8, 9, 5, 6,
  3, 4, 0, 1, 2, 8, 9, 5, 6, 7,
  4, 0, 1, 2, 3, 9, 5, 6, 7, 8,
  5, 9, 8, 7, 6, 0, 4, 3, 2, 1,
  6, 5, 9, 8, 7, 1, 0, 4, 3, 2,
  7, 6, 5, 9, 8, 2, 1, 0, 4, 3,
  8, 7, 6, 5, 9, 3, 2, 1, 0, 4,
  9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
]);

// Position-dependent permutation: row i is p^i, applied to the digit i places from the right (mod 8),
// where p = (1 5 7 6 2 8 3 0 9 4) in one-line notation (Verhoeff 1969). Built by composing p so no row
// is copied by hand.
const kPermute = (() => {
  const p = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
  const rows = new Uint8Array(80);
  for (let d = 0; d < 10; d++) rows[d] = d;
  for (let i = 1; i < 8; i++) for (let d = 0; d < 10; d++) rows[i * 10 + d] = p[rows[(i - 1) * 10 + d]!]!;
  return rows;
})();
