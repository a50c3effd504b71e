/**
 * Character tests on UTF-16 code units (NaN, past either end of a text, passes none), for the rules'
 * run gates and value checks, and the pieces of their `runMatch` functions (see `RunMatch` in
 * ./types.ts): tests on a digit run and on the characters around it in the window text; and
 * `matchFromHit`, the `runMatch` of keyword rules whose token starts at its keyword.
 */
import type { RunMatch } from './types.js';

/**
 * The `runMatch` of a keyword rule whose every match starts at a hit of its keyword and is the value
 * (group 0): a token such as `AIza…` or `ghp_…`. The pattern is asked where the contract says, as a
 * sticky V8 regex (V8 and RE2 read the rules' patterns alike: test/rules/examples.test.ts):
 * at the group's first hit, where the match must start and reach the group's end; at each later
 * position inside the group, where none may start; at each position of the window before it (the
 * rule's lead and reach: one or two with `lead: 0`), where a match must end by the group's start.
 * Each of those is one anchored attempt, most failing at their first character, against a window
 * search's fixed cost in RE2. A group of several hits, or a match inside the group, is left to the
 * pattern.
 */
export function matchFromHit(pattern: string, ignoreCase = false): RunMatch {
  const re = new RegExp(pattern, ignoreCase ? 'iuy' : 'uy');
  const endFrom = (text: string, p: number): number => {
    re.lastIndex = p;
    return re.test(text) ? re.lastIndex : -1;
  };
  return (text, start, end, out) => {
    const me = endFrom(text, start);
    if (me < end) return false;
    for (let p = start + 1; p < end; p++) if (endFrom(text, p) >= 0) return false;
    for (let q = 0; q < start; q++) if (endFrom(text, q) > start) return false;
    out[0] = start;
    out[1] = start;
    out[2] = me;
    return true;
  };
}

export function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isCapitalCode(c: number): boolean {
  return c >= 65 && c <= 90;
}

export function isDigitAt(text: string, i: number): boolean {
  return isDigitCode(text.charCodeAt(i));
}

/** An ASCII letter. */
export function isLetterCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Half of a surrogate pair (or a lone one): a pattern's one-character class takes the whole code
 * point, so a match would start a unit earlier than the character suggests. The functions give up there.
 */
export function isSurrogateCode(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/**
 * True when [start, end) is digits joined by single separators from ` .-` (`only`: by one of them
 * alone, if given), starting and ending with a digit. Inside such a run no lead-in of the rules' fits
 * (each needs a character that is neither digit nor one of these, or a separator after such a character).
 */
export function isPlainRun(text: string, start: number, end: number): boolean {
  if (end <= start || !isDigitAt(text, start) || !isDigitAt(text, end - 1)) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if ((c !== 32 && c !== 45 && c !== 46) || !isDigitAt(text, i - 1)) return false;
  }
  return true;
}

/**
 * True when the text at `end` could continue a value that ends there: a digit, or a separator of
 * ` .-` and a digit (the rules' overruns and tails, `(?:[ .-][0-9])?`, would take it).
 */
export function runGoesOn(text: string, end: number): boolean {
  const c = text.charCodeAt(end);
  if (c >= 48 && c <= 57) return true;
  return (c === 32 || c === 45 || c === 46) && isDigitAt(text, end + 1);
}
