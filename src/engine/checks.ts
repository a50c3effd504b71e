import { kConfidenceRank, reaches, type Confidence, type RuleDef } from '../rules/types.js';
import { isPlaceholder } from '../rules/placeholders.js';
import { shannonEntropy } from '../validators/entropy.js';

/**
 * The JavaScript checks that run after a pattern matched, shared by the engine and the reference
 * matcher so both accept exactly the same matches. All are O(match length + context distance).
 */
export interface MatchChecks {
  /**
   * 0 when the match is rejected, else the rank of its confidence (`kConfidenceRank`): the rule's
   * own level, or its context's `without` level when the words are missing and the threshold allows
   * it. `text` is the decoded text around the match; indices are into it.
   */
  accept(text: string, matchStart: number, matchEnd: number, valueStart: number, valueEnd: number): number;
  /**
   * The first position at or after `from` where a match could pass the left boundary check. After a
   * rejected match the search resumes there rather than one character later: every start skipped
   * would fail the boundary anyway, so the result is the same, but a run of `0000…` costs one
   * pattern call instead of one per character.
   */
  nextStart(text: string, from: number): number;
  /**
   * False when no match in this window can pass the checks whatever the pattern finds: a rule that
   * needs context words is not run where none of them occurs (a rule whose context is optional at the
   * scan's threshold always may). Pure JavaScript, so the pattern call
   * is saved on most windows of context-gated rules. `ascii`: the caller knows the window is ASCII
   * (a miss then needs no second look).
   */
  mayMatch(window: string, ascii?: boolean): boolean;
}

const kDefaultBoundary = 'A-Za-z0-9';

/**
 * The position just past the code point at `i`: `i + 2` on a surrogate pair, else `i + 1`. A search
 * resumed after a rejected match starts there, never between the halves of a pair, where a `u`
 * regex backs up to the pair (V8: the same match again, forever) or finds nothing (native RE2).
 */
export function afterCodePoint(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return i + 1;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? i + 2 : i + 1;
}

const kNonAsciiChar = /[^\x00-\x7f]/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The regex class `[body]` and its answer (1 or 0) for each ASCII code: a rule's class bodies are read one way. */
export function asciiClass(body: string): { re: RegExp; ascii: Uint8Array } {
  // Rules share a few bodies (`A-Za-z0-9` dozens of times): each is worked out once per process, and
  // every caller gets its own copy of the columns (the prefilter edits its copy).
  let known = kAsciiClasses.get(body);
  if (known === undefined) {
    const re = new RegExp(`^[${body}]$`, 'u');
    const ascii = new Uint8Array(128);
    for (let c = 0; c < 128; c++) ascii[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
    known = { re, ascii };
    kAsciiClasses.set(body, known);
  }
  return { re: known.re, ascii: known.ascii.slice() };
}
const kAsciiClasses = new Map<string, { re: RegExp; ascii: Uint8Array }>();

function classTest(body: string | undefined): ((code: number) => boolean) | null {
  const cls = body ?? kDefaultBoundary;
  if (cls === '') return null;
  const { re, ascii } = asciiClass(cls);
  return (code) => (code < 128 ? ascii[code] === 1 : re.test(String.fromCharCode(code)));
}

/**
 * The rank of a match lacking its context words at threshold `min` (0: dropped). Context words are
 * optional only when the rule says at which level (`context.without`) and the threshold reaches it.
 */
export function withoutContextRank(rule: RuleDef, min: Confidence = 'high'): number {
  const w = rule.context?.without;
  return w !== undefined && reaches(w, min) ? kConfidenceRank[w] : 0;
}

/** The checks of `rule` for a scan that reports confidence `min` and above (default `high`). */
export function compileChecks(rule: RuleDef, min: Confidence = 'high'): MatchChecks {
  const left = classTest(rule.boundary?.left);
  const right = classTest(rule.boundary?.right);
  const ctx = rule.context;
  const ctxWords = ctx?.words.map((w) => w.toLowerCase()) ?? [];
  // A rule below the threshold accepts nothing (compileProgram leaves it out altogether).
  const level = rule.confidence ?? 'high';
  const rank = reaches(level, min) ? kConfidenceRank[level] : 0;
  const bare = withoutContextRank(rule, min);
  // With optional context every window may hold a match: the words only grade it.
  const ctxAny = ctxWords.length === 0 || bare > 0 ? null : new RegExp(ctxWords.map(escapeRegExp).join('|'), 'i');
  const suppress = rule.suppressPlaceholders ?? rule.family === 'secrets';
  const { minEntropy, validate } = rule;
  return {
    mayMatch(window, ascii = false) {
      if (ctxAny === null) return true;
      // One case-insensitive search, no lower-cased copy of the window. On ASCII text it answers
      // exactly as `toLowerCase().includes` does; elsewhere case folding and `toLowerCase` can differ
      // (U+0130 lower-cases to two characters), so a miss there is checked the exact way.
      if (ctxAny.test(window)) return true;
      if (ascii || !kNonAsciiChar.test(window)) return false;
      const lower = window.toLowerCase();
      return ctxWords.some((w) => lower.includes(w));
    },
    nextStart(text, from) {
      if (!left) return from;
      let p = from;
      while (p > 0 && p < text.length && left(text.charCodeAt(p - 1))) p++;
      return p;
    },
    accept(text, ms, me, vs, ve) {
      if (rank === 0) return 0;
      if (left && ms > 0 && left(text.charCodeAt(ms - 1))) return 0;
      if (right && me < text.length && right(text.charCodeAt(me))) return 0;
      const value = text.slice(vs, ve);
      if (value.length === 0) return 0;
      if (minEntropy !== undefined && shannonEntropy(value) < minEntropy) return 0;
      if (suppress && isPlaceholder(value)) return 0;
      if (validate && !validate(value)) return 0;
      if (ctx) {
        const before = text.slice(Math.max(0, ms - ctx.before), ms).toLowerCase();
        const after = ctx.after ? text.slice(me, me + ctx.after).toLowerCase() : '';
        if (!ctxWords.some((w) => before.includes(w) || after.includes(w))) return bare;
      }
      return rank;
    },
  };
}

/** How far from the start of its digit run a later value of a list may start (`RuleDef.inLists`). */
const kMaxListSpan = 200;

/**
 * True when an `inLists` rule's next value may start at `at + 1`: a space at `at`, a digit after it,
 * and the digit run (digits joined by single spaces or dashes) that holds them started at most
 * `kMaxListSpan` characters back, so the engine, which reports longer runs in pieces, and the
 * reference matcher see the same lists.
 */
export function listContinues(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 32) return false;
  const next = text.charCodeAt(at + 1);
  if (next < 48 || next > 57) return false;
  for (let i = at - 1; i >= Math.max(0, at - kMaxListSpan); i--) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if ((c === 32 || c === 45) && i > 0 && text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57) continue;
    return true;
  }
  return at <= kMaxListSpan;
}

/** Window context a rule needs on each side of a match (context words, one boundary character). */
export function contextReach(rule: RuleDef): number {
  return Math.max(rule.context?.before ?? 0, rule.context?.after ?? 0) + 1;
}
