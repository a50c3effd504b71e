/**
 * UK National Insurance number format rules (HMRC; there is no check character): two prefix letters
 * where the first is not D, F, I, Q, U or V and the second not D, F, I, O, Q, U or V; the prefixes
 * BG, GB, KN, NK, NT, TN and ZZ are never allocated; six digits; suffix A-D. Spaces are ignored, so
 * `AB 12 34 56 C` and `AB123456C` are the same number.
 *
 * @example
 * ukNinoValid('JT 44 82 19 B'); // true
 * ukNinoValid('QQ 12 34 56 C'); // false (HMRC's printed example uses the invalid prefix QQ)
 */
export function ukNinoValid(value: string): boolean {
  const v = value.replace(/ /g, '');
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][0-9]{6}[A-D]$/.test(v)) return false;
  return !kUnallocatedPrefixes.has(v.slice(0, 2));
}

const kUnallocatedPrefixes: ReadonlySet<string> = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);
