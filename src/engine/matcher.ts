import type { Finding } from '../types.js';
import { redact } from '../redact/index.js';
import type { Prefilter } from './prefilter.js';
import type { Program } from './program.js';
import type { Segment } from './text/segment.js';

/** Candidate spans of one rule closer than this join one group (one regex window, not one per hit). */
const kGroupCap = 2048;
/**
 * Triggers of one rule at most this far apart (or the rule's maxLength, if larger) share a group: one
 * pattern call over a slightly longer window costs less than two calls (the per-call cost dominates
 * on the short windows of national-id rules).
 */
const kJoinGap = 256;
/**
 * Rejected pattern matches tolerated in one window before the rest of the window is given up: bounds
 * the pattern calls per window on bodies built to match everywhere and fail every check. Counted in
 * the report (`SDD_CONFIRM_BUDGET`), never reached by the rule examples or the corpus.
 */
const kMaxRejectsPerWindow = 256;
/** Dead text kept before the buffer is compacted (avoids a copy per chunk). */
const kCompactSlack = 64 * 1024;

interface Group {
  rule: number;
  start: number;
  end: number;
}

/**
 * Text → findings, incrementally. Decoded text arrives in segments; the prefilter reports trigger
 * spans; spans of one rule that lie close together form a group; once no later span can join a group
 * and the text its window needs has arrived, the rule's pattern runs over that window only:
 * `[group.start - maxLength - reach, group.end + maxLength + reach)`. Because windows and groups are
 * functions of positions in the text alone, the findings do not depend on chunking, and because each
 * window is bounded and each position is covered by a bounded number of windows, time is linear.
 *
 * Text is kept only as far back as a pending window or a future trigger can reach.
 */
export class Matcher {
  readonly #program: Program;
  readonly #prefilter: Prefilter;
  readonly #maxFindings: number;
  readonly #groupStart: Float64Array;
  readonly #groupEnd: Float64Array;
  readonly #lastEnd: Float64Array;
  #waiting: Group[] = [];
  #buf = '';
  #bufStart = 0;
  #off: Int32Array = new Int32Array(1);
  readonly findings: Finding[] = [];
  findingsTruncated = false;
  /** Windows given up after too many rejected matches. */
  windowsCut = 0;

  constructor(program: Program, maxFindings: number) {
    this.#program = program;
    this.#prefilter = program.newPrefilter();
    this.#maxFindings = maxFindings;
    const n = program.rules.length;
    this.#groupStart = new Float64Array(n).fill(-1);
    this.#groupEnd = new Float64Array(n).fill(-1);
    this.#lastEnd = new Float64Array(n).fill(-1);
  }

  /** Global position just past the text received so far. */
  get #end(): number {
    return this.#bufStart + this.#buf.length;
  }

  push(seg: Segment): void {
    if (seg.text.length === 0 || this.findingsTruncated) return;
    this.#append(seg);
    this.#prefilter.scan(seg.text, this.#onCandidate);
    this.#closeSettledGroups(this.#prefilter.minFutureStart());
    this.#confirmReady(false);
    this.#compact();
  }

  finish(): void {
    if (this.findingsTruncated) return;
    this.#prefilter.finish(this.#onCandidate);
    this.#closeSettledGroups(Number.POSITIVE_INFINITY);
    this.#confirmReady(true);
  }

  #append(seg: Segment): void {
    const keep = this.#buf.length;
    const off = new Int32Array(keep + seg.text.length + 1);
    off.set(this.#off.subarray(0, keep));
    off.set(seg.offsets, keep);
    this.#off = off;
    this.#buf = keep === 0 ? seg.text : this.#buf + seg.text;
  }

  readonly #onCandidate = (rule: number, start: number, end: number): void => {
    const gs = this.#groupStart[rule]!;
    if (gs >= 0) {
      const ge = this.#groupEnd[rule]!;
      const gap = Math.max(kJoinGap, this.#program.rules[rule]!.maxLength);
      if (start <= ge + gap && Math.max(end, ge) - Math.min(gs, start) <= kGroupCap) {
        if (end > ge) this.#groupEnd[rule] = end;
        if (start < gs) this.#groupStart[rule] = start;
        return;
      }
      this.#waiting.push({ rule, start: gs, end: ge });
    }
    this.#groupStart[rule] = start;
    this.#groupEnd[rule] = end;
  };

  /** Groups that no future trigger can join are moved to the waiting list. */
  #closeSettledGroups(minFuture: number): void {
    const rules = this.#program.rules;
    for (let r = 0; r < rules.length; r++) {
      const gs = this.#groupStart[r]!;
      if (gs < 0) continue;
      const ge = this.#groupEnd[r]!;
      if (ge + Math.max(kJoinGap, rules[r]!.maxLength) < minFuture) {
        this.#waiting.push({ rule: r, start: gs, end: ge });
        this.#groupStart[r] = -1;
      }
    }
  }

  #confirmReady(final: boolean): void {
    if (this.#waiting.length === 0) return;
    const end = this.#end;
    const still: Group[] = [];
    for (const g of this.#waiting) {
      const r = this.#program.rules[g.rule]!;
      const windowEnd = g.end + r.maxLength + r.reach;
      if (final || windowEnd < end) this.#confirm(g);
      else still.push(g);
      if (this.findingsTruncated) {
        this.#waiting = [];
        return;
      }
    }
    this.#waiting = still;
  }

  #confirm(g: Group): void {
    const rule = this.#program.rules[g.rule]!;
    const margin = rule.maxLength + rule.reach;
    const ws = Math.max(this.#bufStart, g.start - margin);
    const we = Math.min(this.#end, g.end + margin);
    const text = this.#buf.slice(ws - this.#bufStart, we - this.#bufStart);
    if (!rule.checks.mayMatch(text)) return;
    // Resume where this rule's last finding ended, as one left-to-right pass over the body would.
    let from = Math.max(0, this.#lastEnd[g.rule]! - ws);
    let rejects = 0;
    while (from <= text.length) {
      if (rejects > kMaxRejectsPerWindow) {
        this.windowsCut++;
        return;
      }
      const m = rule.pattern.exec(text, from);
      if (m === null) break;
      const ms = ws + m.start;
      if (ms >= g.end) break;
      if (m.end === m.start || m.end - m.start > rule.maxLength || !rule.checks.accept(text, m.start, m.end, m.groupStart, m.groupEnd)) {
        // Rejected (too long for the rule: cut by the window edge; or a check failed): resume at
        // the next start that could pass the left boundary.
        rejects++;
        from = rule.checks.nextStart(text, m.start + 1);
        continue;
      }
      from = m.end;
      if (ws + m.end <= g.start) continue; // a match that touches none of this group's triggers
      this.#lastEnd[g.rule] = ws + m.end;
      this.#record(rule.index, text.slice(m.groupStart, m.groupEnd), ws + m.groupStart, ws + m.groupEnd);
      if (this.findingsTruncated) return;
    }
  }

  #record(ruleIndex: number, value: string, start: number, end: number): void {
    if (this.findings.length >= this.#maxFindings) {
      this.findingsTruncated = true;
      return;
    }
    const rule = this.#program.rules[ruleIndex]!;
    this.findings.push({
      ruleId: rule.def.id,
      description: rule.def.description,
      tags: rule.tags,
      start: this.#off[start - this.#bufStart]!,
      end: this.#off[end - this.#bufStart]!,
      // The one place a matched value is turned into output: only its redacted form leaves.
      redacted: redact(value),
    });
  }

  /** Drops text that no pending window and no future trigger can reach. */
  #compact(): void {
    let keepFrom = this.#prefilter.minFutureStart() - this.#program.maxReach;
    for (const g of this.#waiting) {
      const r = this.#program.rules[g.rule]!;
      keepFrom = Math.min(keepFrom, g.start - r.maxLength - r.reach);
    }
    const rules = this.#program.rules;
    for (let r = 0; r < rules.length; r++) {
      const gs = this.#groupStart[r]!;
      if (gs >= 0) keepFrom = Math.min(keepFrom, gs - rules[r]!.maxLength - rules[r]!.reach);
    }
    const drop = keepFrom - this.#bufStart;
    if (drop < kCompactSlack) return;
    this.#buf = this.#buf.slice(drop);
    this.#off = this.#off.slice(drop);
    this.#bufStart += drop;
  }
}
