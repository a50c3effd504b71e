import type { RuleDef, RunMatch } from '../types.js';
import { isDigitAt, isLetterCode, isPlainRun, isSurrogateCode, runGoesOn } from '../run-match.js';

/**
 * Pattern pieces shared by the PII rules. Patterns must run on RE2 and on V8 (`u` flag), so there is
 * no look-behind, and the engine's only left-hand check is one boundary class for the character
 * before the whole match. "This value is a whole digit run, not the tail of `4111 1111 1111 1111` or
 * `1 234 567 890`" is therefore expressed by consuming a character or two before the value and
 * reporting the value through capture group 1.
 */

type RunShape = Pick<RuleDef, 'pattern' | 'group' | 'boundary' | 'runMatch'>;

/**
 * An optional `separator + digit` after the value, inside the value group: when the run goes on
 * (`123-45-6789-1`) the value grows past its shape and the rule's validator rejects it (every rule
 * using these helpers anchors its shape in `validate`). A longer continuation is caught by the default
 * right boundary (a digit touches the match).
 */
const kRunTail = '(?:[ .\\-][0-9])?';

/**
 * `body` as a whole digit run, for rules without context words. The match starts with what precedes
 * the value: text start, a character that is neither digit, ASCII letter nor one of the prefilter's
 * run separators (` `, `-`, `.`), or such a separator together with the non-digit before it. So
 * `SSN 123-45-6789`, `"123-45-6789"` and `번호:123-45-6789` qualify; `x123-45-6789`, `1-123-45-6789`
 * and the middle of a spaced card number do not. (`^` matches only at the start of the text searched;
 * the engine's window starts at least `maxLength` before its trigger, so a match anchored there could
 * not overlap the trigger anyway.)
 *
 * Not for rules with `context`: the consumed character may be the last letter of the label
 * (`NHS 943…`), and context words are looked for before the match.
 */
export function wholeRun(body: string): RunShape {
  const shape = {
    pattern: `(?:^|[^0-9A-Za-z .\\-]|(?:^|[^0-9])[ .\\-])((?:${body})${kRunTail})`,
    group: 1,
    boundary: { left: '' },
  };
  // A body with letters (`2A` in a NIR) could run a value through a lead-in: left to the pattern.
  return /[A-Za-z]/.test(body) ? shape : { ...shape, runMatch: wholeRunMatch(body) };
}

/**
 * `wholeRun`'s match on a group that is one run of digits and single separators (`RunMatch`): the
 * lead-in before it (the only place one fits: inside the run every character is a digit or a
 * separator after a digit), then the body, when it takes the whole run and nothing follows that the
 * tail would take. The body is asked with a sticky regex at the run's start, which chooses among its
 * alternatives as the pattern does (leftmost-first); its bodies are digits and separators.
 */
function wholeRunMatch(body: string): RunMatch {
  const re = new RegExp(`(?:${body})`, 'uy');
  return (text, start, end, out) => {
    const ms = wholeRunLeadIn(text, start);
    if (ms < 0 || !isPlainRun(text, start, end) || runGoesOn(text, end)) return false;
    re.lastIndex = start;
    if (!re.test(text) || re.lastIndex !== end) return false;
    out[0] = ms;
    out[1] = start;
    out[2] = end;
    return true;
  };
}

/**
 * Where `wholeRun`'s lead-in starts for a value at `p` (-1: none, or not known here). Its
 * alternatives: `^`, one character that is neither digit, letter nor separator, or a separator after
 * the text start or a non-digit; the search takes the leftmost.
 */
function wholeRunLeadIn(text: string, p: number): number {
  if (p === 0) return 0;
  const c1 = text.charCodeAt(p - 1);
  if (c1 === 32 || c1 === 45 || c1 === 46) {
    if (p === 1) return 0;
    const c2 = text.charCodeAt(p - 2);
    return isDigitAt(text, p - 2) || isSurrogateCode(c2) ? -1 : p - 2;
  }
  if ((c1 >= 48 && c1 <= 57) || isLetterCode(c1) || isSurrogateCode(c1)) return -1;
  return p - 1;
}

/**
 * `body` as a whole digit run, for rules with context words: only separators before the value are
 * consumed (up to three, for labels like `No. `, `Nr. ` or ` - `), and the left boundary rejects a
 * digit or a separator before the match. A label stays outside the match (`NHS 943 476 5919` matches
 * from the space), and a value right after a newline still qualifies. The price is that a letter glued
 * to the value (`x943 476 5919`) is not rejected, which the required label makes harmless.
 */
export function labelledRun(body: string): RunShape {
  return {
    pattern: `[ .\\-]{0,3}((?:${body})${kRunTail})`,
    group: 1,
    boundary: { left: '0-9 .\\-' },
  };
}

/**
 * `body` followed by the run tail only: nothing before the value is consumed and the default
 * boundaries apply. For labelled rules whose label must be matched with its trailing space (`SIN `:
 * the bare word "sin" is inside "using", "since"…); a value that continues a longer run on its left
 * is then accepted, which the label, the check digit and the right-hand tail keep rare.
 */
export function runEnd(body: string): RunShape {
  return { pattern: `((?:${body})${kRunTail})`, group: 1 };
}

/** Longest extra text the run helpers add around a value: up to three prefix characters and a two-character tail. */
export const kRunExtra = 5;

/** The value with every non-digit removed. */
export function digitsOf(value: string): string {
  return value.replace(/[^0-9]/g, '');
}

/** True when every digit of `digits` is the same (`000000000`, `1111 1111 1111`): form-filler junk. */
export function oneRepeatedDigit(digits: string): boolean {
  return /^(\d)\1*$/.test(digits);
}

/** Passport-number placeholders seen in forms and documentation: one repeated digit, or a run of `0123456789` or `9876543210`. */
export function passportPlaceholder(digits: string): boolean {
  return oneRepeatedDigit(digits) || '0123456789'.includes(digits) || '9876543210'.includes(digits);
}

/** Context-word distance used by the gated rules: a label like `"nhs_number": ` or `<th>NHS No.</th><td>`. */
export const kLabelReach = 64;
