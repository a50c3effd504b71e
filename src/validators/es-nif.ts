/**
 * Spanish personal NIF check letter (mod 23), covering the DNI (`12345678Z`: eight digits) and the NIE
 * for foreigners (`X1234567L`: X, Y or Z standing for 0, 1, 2, then seven digits). The letter is
 * `TRWAGMYFPDXBNJZSQVHLCKE`[number mod 23]. Dots, spaces and dashes between the parts are ignored.
 *
 * @example
 * esNifValid('12345678-Z'); // true
 * esNifValid('X1234567L'); // true
 * esNifValid('12345678A'); // false
 */
export function esNifValid(value: string): boolean {
  const v = value.replace(/[ .-]/g, '').toUpperCase();
  const m = /^([0-9XYZ])([0-9]{7})([A-Z])$/.exec(v);
  if (!m) return false;
  const lead = m[1]!;
  const first = lead === 'X' ? '0' : lead === 'Y' ? '1' : lead === 'Z' ? '2' : lead;
  return kLetters[Number(first + m[2]!) % 23] === m[3];
}

const kLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';
