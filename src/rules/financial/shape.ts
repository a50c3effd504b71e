import { isLetterCode, isSurrogateCode } from '../run-match.js';

/**
 * Pattern pieces shared by the numeric financial rules. A card or routing number is only credible when
 * it is a whole number, not a slice of a longer one. Boundaries see one character, so they catch
 * `14111111111111111` but not `1111 4111 1111 1111 1111`, where the slice is preceded by a separator
 * and a digit. RE2 has no lookbehind, so the pattern itself consumes what comes before the value:
 */

/**
 * Lead-in before a number: the start of the text (optionally one separator), one character that is
 * neither alphanumeric nor a separator (quote, `>`, `:`, newline, CJK or Hangul text…), a
 * non-alphanumeric followed by one separator (`: 4111…`, `, 4111…`, `(-4111`), or a letter and a space
 * (`Visa 4111…`). Never a digit followed by a separator, and never a letter glued to the number or
 * joined by `-`/`.` (`ORD-4111…`). Rules using it put the value in group 1, after this lead-in, so both
 * the reference matcher (first occurrence) and the engine (last occurrence) locate the value exactly.
 *
 * `^` is safe in the engine's windows: a window starts at least `maxLength` before its first trigger,
 * so a match anchored at a window start that is not the body start could not reach a trigger.
 */
export const kNumberLeadIn = '(?:^[ .-]?|[^0-9A-Za-z .-]|[^0-9A-Za-z][ .-]|[A-Za-z] )';

/** Characters `kNumberLeadIn` may consume before the value (for `maxLength`). */
export const kNumberLeadInLength = 2;

/**
 * Where `kNumberLeadIn` starts for a number at `p` of `text` (-1: no lead-in fits, or not known
 * here). Its alternatives, the search taking the leftmost: the text start with an optional separator,
 * one character that is neither alphanumeric nor a separator, a non-alphanumeric and a separator, or
 * a letter and a space.
 */
export function numberLeadInStart(text: string, p: number): number {
  if (p === 0) return 0;
  const c1 = text.charCodeAt(p - 1);
  if (c1 === 32 || c1 === 45 || c1 === 46) {
    if (p === 1) return 0;
    const c2 = text.charCodeAt(p - 2);
    if ((c2 >= 48 && c2 <= 57) || isSurrogateCode(c2)) return -1;
    if (isLetterCode(c2)) return c1 === 32 ? p - 2 : -1;
    return p - 2;
  }
  if ((c1 >= 48 && c1 <= 57) || isLetterCode(c1) || isSurrogateCode(c1)) return -1;
  return p - 1;
}
