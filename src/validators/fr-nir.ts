/**
 * French NIR ("numéro de sécurité sociale", INSEE): sex (1, 2; 7, 8 for provisional numbers), year,
 * month (01-12, or 20, 30-42, 50-99 when unknown), department (2 digits, or 2A / 2B for Corsica),
 * commune (3), order (3), then a key = 97 − (first 13 digits mod 97). For Corsica the department is
 * read as 19 (2A) or 18 (2B) when computing the key. Spaces are ignored.
 *
 * @example
 * frNirValid('2 95 10 99 126 111 93'); // true
 * frNirValid('253072B07300470'); // true (born in Haute-Corse)
 * frNirValid('295109912611199'); // false
 */
export function frNirValid(value: string): boolean {
  const v = value.replace(/ /g, '').toUpperCase();
  const m = /^([1278])([0-9]{2})([0-9]{2})([0-9]{2}|2A|2B)([0-9]{3})([0-9]{3})([0-9]{2})$/.exec(v);
  if (!m) return false;
  const month = Number(m[3]);
  if (!((month >= 1 && month <= 12) || month === 20 || (month >= 30 && month <= 42) || month >= 50)) return false;
  if (m[4] === '00' || m[6] === '000') return false;
  const dept = m[4] === '2A' ? '19' : m[4] === '2B' ? '18' : m[4]!;
  // 13 digits exceed 2^53 only above 9.007e15, so plain Number arithmetic is exact here.
  const body = Number(m[1]! + m[2]! + m[3]! + dept + m[5]! + m[6]!);
  const key = Number(m[7]);
  return key >= 1 && key <= 97 && key === 97 - (body % 97);
}
