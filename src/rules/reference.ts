import type { Confidence, RuleDef } from './types.js';
import { afterCodePoint, compileChecks, listContinues } from '../engine/checks.js';

export interface ReferenceMatch {
  /** Span of the value (the rule's group) in `text`, UTF-16 indices. */
  start: number;
  end: number;
  value: string;
  /** Span of the whole pattern match (lead-in and label included), which the engine requires to overlap a trigger. */
  matchStart: number;
  matchEnd: number;
  /** Rank of the match's confidence (see `MatchChecks.accept`). */
  rank: number;
}

/**
 * The slow, obviously-correct matcher: the rule's pattern as a V8 RegExp over the whole decoded text,
 * then the same checks as the engine. For rule authors' examples and as the oracle of conformance
 * tests; never used on the scanning path (V8 is not linear-time on hostile input).
 */
export function referenceMatches(rule: RuleDef, text: string, minConfidence: Confidence = 'high'): ReferenceMatch[] {
  // `d`: exact group indices, so a value whose text repeats in the match is placed where it was captured.
  const re = new RegExp(rule.pattern, rule.ignoreCase ? 'giud' : 'gud');
  const checks = compileChecks(rule, minConfidence);
  const group = rule.group ?? 0;
  const out: ReferenceMatch[] = [];
  let listRe: RegExp | undefined;
  // Accepted matches never overlap: the next search starts where the last accepted match ended.
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const ms = m.index;
    const me = ms + m[0].length;
    if (me === ms || me - ms > rule.maxLength) {
      re.lastIndex = afterCodePoint(text, ms);
      continue;
    }
    const span = m.indices?.[group];
    if (span === undefined) continue;
    const [vs, ve] = span;
    const rank = checks.accept(text, ms, me, vs, ve);
    if (rank === 0) {
      // Retry one position later, as the engine's windows would see a later start.
      re.lastIndex = afterCodePoint(text, ms);
      continue;
    }
    out.push({ start: vs, end: ve, value: text.slice(vs, ve), matchStart: ms, matchEnd: me, rank });
    if (rule.inLists === true) {
      // Searched from the start of the text after each space: a non-global copy of the pattern.
      listRe ??= new RegExp(rule.pattern, rule.ignoreCase ? 'iud' : 'ud');
      re.lastIndex = continueList(listRe, group, rule.maxLength, checks, text, me, out);
    }
  }
  return out;
}

/** The later values of a list after an accepted one ending at `end`, as the engine reads them (`RuleDef.inLists`). */
function continueList(re: RegExp, group: number, maxLength: number, checks: ReturnType<typeof compileChecks>, text: string, end: number, out: ReferenceMatch[]): number {
  while (listContinues(text, end)) {
    const at = end + 1;
    const sub = text.slice(at);
    const m = re.exec(sub);
    const span = m?.indices?.[group];
    if (m === null || span === undefined || span[0] !== 0 || m[0].length > maxLength) break;
    const rank = checks.accept(sub, m.index, m.index + m[0].length, span[0], span[1]);
    if (rank === 0) break;
    out.push({ start: at + span[0], end: at + span[1], value: sub.slice(span[0], span[1]), matchStart: at + m.index, matchEnd: at + m.index + m[0].length, rank });
    end = at + m.index + m[0].length;
  }
  return end;
}

/**
 * Spans where the rule's trigger fires in `text`, computed naively (the engine's prefilter computes the
 * same spans in one shared pass). A match the engine can report always overlaps one of these.
 */
export function referenceTriggerSpans(rule: RuleDef, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const t = rule.trigger;
  if ('keywords' in t) {
    const lower = text.toLowerCase();
    for (const kw of t.keywords) {
      const k = kw.toLowerCase();
      for (let i = lower.indexOf(k); i !== -1; i = lower.indexOf(k, i + 1)) spans.push([i, i + k.length]);
    }
  } else if ('digits' in t) {
    const seps = (t.digits.separators ?? ' -.').replace(/[\\\]^-]/g, '\\$&');
    const re = seps ? new RegExp(`[0-9](?:[${seps}]?[0-9])*`, 'g') : /[0-9]+/g;
    for (const m of text.matchAll(re)) {
      const digits = m[0].replace(/[^0-9]/g, '').length;
      if (digits >= t.digits.min && digits <= (t.digits.max ?? Number.MAX_SAFE_INTEGER)) spans.push([m.index, m.index + m[0].length]);
    }
  } else {
    const { min, max, needsDigit = true, needsLetter = false } = t.token;
    for (const m of text.matchAll(/[A-Za-z0-9]+/g)) {
      const s = m[0];
      if (s.length < min || s.length > max) continue;
      if (needsDigit && !/[0-9]/.test(s)) continue;
      if (needsLetter && !/[A-Za-z]/.test(s)) continue;
      spans.push([m.index, m.index + s.length]);
    }
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
