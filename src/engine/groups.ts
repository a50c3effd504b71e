import type { RuleDef } from '../rules/types.js';
import { asciiClass } from './checks.js';
import type { PrefilterSpec } from './prefilter.js';

/**
 * How triggers of one rule form groups, each confirmed in one window: shared by the matcher, which
 * forms them, and the program, whose prefilter joins keyword hits the same way.
 */

/** Candidate spans of one rule closer than this join one group (one regex window, not one per hit). */
export const kGroupCap = 2048;
/**
 * Triggers of one rule at most this far apart (or the rule's maxLength, if larger) share a group: one
 * pattern call over a slightly longer window costs less than two calls (the per-call cost dominates
 * on the short windows of national-id rules).
 */
const kJoinGap = 256;

/** What grouping reads of a compiled rule. */
export interface GroupedRule {
  readonly index: number;
  /** Its run gate's index, -1 for none. */
  readonly gate: number;
  readonly maxLength: number;
  readonly def: Pick<RuleDef, 'trigger'>;
  /** Its match worked out without a pattern call (`RuleDef.runMatch`), or null. */
  readonly runMatch: RuleDef['runMatch'] | null;
}

/**
 * How far apart a rule's triggers may be and still share a group (one window). A rule with a
 * `runMatch` answers a group of one run or hit without a pattern call, and leaves a group of two to
 * the pattern: its triggers join only where they touch or one character apart (the prefilter's
 * joins take a positive gap).
 */
export function joinGapOf(r: GroupedRule): number {
  return r.runMatch !== null ? 1 : Math.max(kJoinGap, r.maxLength);
}

/**
 * The keyword rules' hits, joined in the prefilter by the rule groups are formed by in the matcher
 * (`PrefilterSpec.joins`): the groups come out the same, from one event per group instead of one per
 * hit. A rule's `trigger.next` class (the characters its match lets follow its keyword) is applied
 * there too: a hit followed by anything else never leaves the pass, and forms no group.
 */
export function keywordJoins(rules: readonly GroupedRule[]): NonNullable<PrefilterSpec['joins']> {
  return rules.flatMap((r) => {
    const t = r.def.trigger;
    if (!('keywords' in t) || r.gate >= 0) return [];
    return [{ rule: r.index, gap: joinGapOf(r), span: kGroupCap, ...(t.next !== undefined && { next: asciiClass(t.next).ascii }) }];
  });
}
