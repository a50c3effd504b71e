import type { Finding } from '../types.js';
import { kConfidenceByRank } from '../rules/types.js';
import { redact } from '../redact/index.js';
import { afterCodePoint, listContinues } from './checks.js';
import { joinGapOf, kGroupCap } from './groups.js';
import { columnByte, type EmitCandidate, type PrefilterSpec, type TriggerPass } from './prefilter.js';
import type { CompiledRule, Program } from './program.js';
import { columnsSpecial, type CompiledPattern, type PatternMatch } from './backend/index.js';
import { copyOffsets, type Segment } from './text/segment.js';
import { spareBytes, spareOffsets, spareStateBlocks } from './scratch.js';
import { decodeBase64Json, mayHoldCandidate, type DecodedCandidate } from './decoded.js';

/**
 * Rejected pattern matches tolerated in one window before the rest of the window is given up: bounds
 * the pattern calls per window on bodies built to match everywhere and fail every check. Counted in
 * the report (`SDD_CONFIRM_BUDGET`), never reached by the rule examples or the corpus.
 */
const kMaxRejectsPerWindow = 256;
/**
 * A screen's alternation runs over this much text at once (or less, if less has arrived): one call
 * answers for every group of its rules in the region.
 */
const kScreenSpan = 16 * 1024;
/**
 * Regions overlap by this much, so that a window starting in a block usually ends inside its region:
 * a window is at most a group (kGroupCap) plus a screened rule's margin each side (about 100). A
 * longer window still gets a region that covers it, only not a shared one.
 */
const kScreenPad = 2304;
/**
 * A screen runs over a region when it is expected to spare at least this many window calls there:
 * the region's groups of its rules (in one batch of ready groups) times the share of groups the screen
 * has rejected so far in this body. One screen call over a region cost about 28 µs on the bench's log,
 * one rule's window call 2-4 µs. On a dense body nearly every group holds a value, the screen rejects
 * none, and running it only added its cost (text/dense/1MB took 72 ms with screens, 51 without); on
 * a body built to defeat the rules it rejects nearly all (adv/repeat-0: 27 ms with, 40 without).
 */
const kScreenMinSaved = 10;
/** Every this many regions a screen is not worth running in, it runs anyway, so its share stays current. */
const kScreenProbe = 16;
/** Match starts listed per screen region; past this the rest of the region counts as matching. */
const kScreenStarts = 64;
/** After a region's first start, each search for the next reads this many characters (and a match's length). */
const kScreenView = 2048;

/** Where a screen's alternation matches in one region of the text. */
interface ScreenRegion {
  block: number;
  start: number;
  end: number;
  /** Every position in [start, end) where some alternative matches, in order (up to kScreenStarts). */
  starts: number[];
  /** More starts than listed: everything from the last listed one on counts as matching. */
  full: boolean;
}

/**
 * Per rule, what the trigger callback needs, in flat arrays (it runs about once every ten characters
 * of a log): the run gate's index and the distance within which triggers join. Built once per program
 * (programs are immutable), not once per scan.
 */
interface RuleArrays {
  gateOf: Int32Array;
  joinGap: Float64Array;
}
const kRuleArrays = new WeakMap<Program, RuleArrays>();

function ruleArraysOf(program: Program): RuleArrays {
  let per = kRuleArrays.get(program);
  if (per === undefined) {
    per = {
      gateOf: Int32Array.from(program.rules, (r) => r.gate),
      joinGap: Float64Array.from(program.rules, joinGapOf),
    };
    kRuleArrays.set(program, per);
  }
  return per;
}

/** One non-ASCII code unit (see `#append`). */
const kNonAscii = /[^\x00-\x7f]/g;

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
  readonly #prefilter: TriggerPass;
  readonly #maxFindings: number;
  readonly #compactSlack: number;
  readonly #groupStart: Float64Array;
  readonly #groupEnd: Float64Array;
  readonly #lastEnd: Float64Array;
  /** Per rule, what the trigger callback reads (see `ruleArraysOf`). */
  readonly #gateOf: Int32Array;
  readonly #joinGap: Float64Array;
  /** Per run gate: the run it was last asked about (start, end) and its answer (1 pass, 0 drop). */
  readonly #gateRun: Float64Array;
  /** Per screen, the region its alternation was last run over. */
  readonly #screens: ScreenRegion[][];
  /**
   * Per screen: groups it was asked about and rejected (decayed: halved past 256, so the share follows
   * the body), and regions it was skipped in since it last ran (see kScreenProbe).
   */
  readonly #screenAsked: Float64Array;
  readonly #screenRejected: Float64Array;
  readonly #screenSkipped: Float64Array;
  /** The block the arrays above are views of; null once released. */
  #block: Float64Array | null;
  #waiting: Group[] = [];
  /** Scratch of `#confirmReady`: ready groups per screen region. */
  readonly #screenDemand = new Map<number, number>();
  /** `#byRule`'s counts: one slot per rule and one more. */
  readonly #ruleSlots: Int32Array;
  #buf = '';
  /**
   * `#buf` as the prefilter's column bytes, one per character (see `columnsOf` in the prefilter):
   * the text itself where it is ASCII, which is where `execBytes` is handed a view of it.
   */
  #bytes: Buffer = Buffer.alloc(1);
  /** Positions (global, ascending) of the non-ASCII characters still in `#buf`. */
  #nonAscii: number[] = [];
  /** Those of them that column bytes do not stand for (`columnsSpecial`): rare. */
  #special: number[] = [];
  /** The searches of the window being confirmed and of the screen region being run (reused). */
  readonly #windowSearch = new WindowSearch();
  readonly #screenSearch = new WindowSearch();
  readonly #viewSearch = new WindowSearch();
  readonly #listSearch = new WindowSearch();
  #bufStart = 0;
  #off: Int32Array = new Int32Array(1);
  /**
   * While every character kept is linear (one byte each, contiguous), the byte offset of `#bufStart`
   * and `#off` unused; -1 once some text needed per-character offsets (kept from then on).
   */
  #linear = -1;
  readonly findings: Finding[] = [];
  findingsTruncated = false;
  /**
   * Base64 candidates that decoded to JSON, for the body scanner to scan once the body ends. Their
   * bytes are at most three quarters of the text scanned, so the scan cap bounds them too.
   */
  readonly decoded: DecodedCandidate[] = [];
  readonly #decode: boolean;
  /** Windows given up after too many rejected matches. */
  windowsCut = 0;
  /** Regions a screen's alternation ran over (diagnostics: how often screens paid their cost). */
  screenRuns = 0;

  /**
   * `compactSlack`: dead text kept before the buffer is compacted (avoids a copy per push). The body
   * scanner passes its slice size (kSliceBytes in body.ts): every character kept is copied again when
   * the next slice's string is joined to the buffer and first read (V8 flattens the joined string).
   */
  constructor(program: Program, maxFindings: number, compactSlack: number, decode = true) {
    this.#program = program;
    this.#decode = decode;
    this.#compactSlack = compactSlack;
    this.#prefilter = program.newPrefilter();
    this.#maxFindings = maxFindings;
    // The per-rule, per-screen and per-gate state of a scan, views of one block that an ended scan
    // hands on (see `release`; it may be longer than this program needs).
    const n = program.rules.length;
    const screens = program.screens.length;
    const size = 3 * n + 3 * screens + 3 * program.gates.length;
    const block = spareStateBlocks.take(size);
    block.fill(-1, 0, 3 * n).fill(0, 3 * n, 3 * n + 3 * screens).fill(-1, 3 * n + 3 * screens, size);
    this.#block = block;
    this.#groupStart = block.subarray(0, n);
    this.#groupEnd = block.subarray(n, 2 * n);
    this.#lastEnd = block.subarray(2 * n, 3 * n);
    const per = ruleArraysOf(program);
    this.#gateOf = per.gateOf;
    this.#joinGap = per.joinGap;
    this.#screens = program.screens.map(() => []);
    this.#screenAsked = block.subarray(3 * n, 3 * n + screens);
    this.#screenRejected = block.subarray(3 * n + screens, 3 * n + 2 * screens);
    this.#screenSkipped = block.subarray(3 * n + 2 * screens, 3 * n + 3 * screens);
    this.#gateRun = block.subarray(3 * n + 3 * screens, size);
    this.#ruleSlots = new Int32Array(n + 1);
  }

  /** Global position just past the text received so far. */
  get #end(): number {
    return this.#bufStart + this.#buf.length;
  }

  push(seg: Segment): void {
    if (seg.text.length === 0 || this.findingsTruncated) return;
    const at = this.#append(seg);
    this.#prefilter.scan(this.#bytes, at, at + seg.text.length, this.#onCandidate);
    this.#closeSettledGroups(this.#prefilter.minFutureStart());
    this.#confirmReady(false);
    this.#compact();
  }

  /** After `finish` (findings read): the offsets, column bytes, state block and native pass state go to the thread's next scans. */
  release(): void {
    if (this.#block === null) return;
    spareStateBlocks.give(this.#block);
    this.#block = null;
    this.#prefilter.release?.();
    spareOffsets.give(this.#off);
    this.#off = new Int32Array(1);
    spareBytes.give(this.#bytes);
    this.#bytes = Buffer.alloc(1);
  }

  finish(): void {
    if (this.findingsTruncated) return;
    this.#prefilter.finish(this.#onCandidate);
    this.#closeSettledGroups(Number.POSITIVE_INFINITY);
    this.#confirmReady(true);
  }

  /** Adds the segment's text to the buffer; returns the buffer index where it begins. */
  #append(seg: Segment): number {
    const keep = this.#buf.length;
    const t = seg.text;
    const need = keep + t.length + 1;
    // The offsets and bytes live in buffers reused across pushes (compaction moves the kept tail to
    // the front): a fresh pair per push allocated megabytes per body, and the garbage collector's
    // pauses made large bodies cost more than their share.
    // Both come from the thread's spares (scratch.ts), so either may be longer than asked for: the
    // capacity is the shorter one's.
    const room = Math.min(this.#off.length, this.#bytes.length);
    if (need > room) {
      const cap = Math.max(need, room * 2);
      if (this.#off.length < cap) {
        const off = spareOffsets.take(cap);
        off.set(this.#off.subarray(0, keep));
        spareOffsets.give(this.#off);
        this.#off = off;
      }
      if (this.#bytes.length < cap) {
        const bytes = spareBytes.take(cap);
        this.#bytes.copy(bytes, 0, 0, keep);
        spareBytes.give(this.#bytes);
        this.#bytes = bytes;
      }
    }
    if (seg.offsets === null && (keep === 0 || (this.#linear >= 0 && this.#linear + keep === seg.base))) {
      // Linear text (ASCII, single-byte charsets) stays implied: offset = #linear + index.
      if (keep === 0) this.#linear = seg.base;
    } else {
      if (this.#linear >= 0) {
        for (let i = 0; i <= keep; i++) this.#off[i] = this.#linear + i;
        this.#linear = -1;
      }
      copyOffsets(seg, 0, t.length + 1, this.#off, keep);
    }
    this.#bytes.write(t, keep, 'latin1');
    this.#buf = keep === 0 ? t : this.#buf + t;
    const wide = seg.nonAscii;
    if (wide !== undefined) {
      for (let k = 0; k < wide.length; k++) {
        const j = wide[k]!;
        this.#markNonAscii(keep + j, t.charCodeAt(j));
      }
      return keep;
    }
    const extra = Buffer.byteLength(t, 'utf8') - t.length;
    if (extra !== 0) {
      if (extra * 64 < t.length) {
        // A few non-ASCII characters (names in a JSON or HTML page): the regex engine finds them
        // faster than a loop over every character.
        const re = kNonAscii;
        re.lastIndex = 0;
        for (let m = re.exec(t); m !== null; m = re.exec(t)) this.#markNonAscii(keep + m.index, t.charCodeAt(m.index));
      } else {
        for (let j = 0; j < t.length; j++) {
          const c = t.charCodeAt(j);
          if (c >= 0x80) this.#markNonAscii(keep + j, c);
        }
      }
    }
    return keep;
  }

  /** The non-ASCII code unit `c` at buffer index `i`: its column byte, and its place in `#nonAscii`. */
  #markNonAscii(i: number, c: number): void {
    this.#bytes[i] = columnByte(c);
    this.#nonAscii.push(this.#bufStart + i);
    if (columnsSpecial(c)) this.#special.push(this.#bufStart + i);
  }

  /**
   * Triggers the prefilter reported, as (rule, start, end) triples: the native pass hands over a batch
   * at once, the TypeScript one a trigger at a time through `#onCandidate` (candidates screened by
   * context, and keyword hits their rule's `next` class refuses, never come here). A run or token its
   * rule's gate rejects is dropped; the rest join their rule's group of nearby triggers or start a new one.
   */
  #onCandidates(events: Float64Array, count: number): void {
    const gateOf = this.#gateOf;
    const groupStart = this.#groupStart;
    const groupEnd = this.#groupEnd;
    const joinGap = this.#joinGap;
    for (let k = 0; k < 3 * count; k += 3) {
      // Rule indices and text positions (a body is scanned up to 1 MiB) as int32: V8 keeps them small
      // integers, where a Float64Array's values come out as heap numbers, and objects holding one
      // change shape later, deoptimizing the code that reads them (a cold process paid for each).
      const rule = events[k]! | 0;
      const start = events[k + 1]! | 0;
      const end = events[k + 2]! | 0;
      const gate = gateOf[rule]!;
      if (gate >= 0 && !this.#gatePasses(gate, start, end)) continue;
      const gs = groupStart[rule]!;
      if (gs >= 0) {
        const ge = groupEnd[rule]!;
        if (start <= ge + joinGap[rule]! && Math.max(end, ge) - Math.min(gs, start) <= kGroupCap) {
          if (end > ge) groupEnd[rule] = end;
          if (start < gs) groupStart[rule] = start;
          continue;
        }
        this.#waiting.push({ rule, start: gs | 0, end: ge | 0 });
      }
      groupStart[rule] = start;
      groupEnd[rule] = end;
    }
  }

  /** One trigger at a time (the TypeScript pass), or a batch (the native one). */
  readonly #onCandidate: EmitCandidate = Object.assign(
    (rule: number, start: number, end: number): void => {
      const one = this.#one;
      one[0] = rule;
      one[1] = start;
      one[2] = end;
      this.#onCandidates(one, 1);
    },
    { batch: (events: Float64Array, count: number): void => this.#onCandidates(events, count) },
  );
  readonly #one = new Float64Array(3);

  /** The run gate's answer for the run [start, end), asked once for all the rules sharing the gate. */
  #gatePasses(gate: number, start: number, end: number): boolean {
    const memo = this.#gateRun;
    const k = 3 * gate;
    if (memo[k] === start && memo[k + 1] === end) return memo[k + 2] === 1;
    // The run is still kept (compaction keeps every run the prefilter has not finished); if not, pass.
    const pass = start < this.#bufStart || this.#program.gates[gate]!(this.#buf, start - this.#bufStart, end - this.#bufStart);
    memo[k] = start;
    memo[k + 1] = end;
    memo[k + 2] = pass ? 1 : 0;
    return pass;
  }

  /** Groups that no future trigger can join are moved to the waiting list. */
  #closeSettledGroups(minFuture: number): void {
    const n = this.#groupStart.length;
    for (let r = 0; r < n; r++) {
      const gs = this.#groupStart[r]!;
      if (gs < 0) continue;
      const ge = this.#groupEnd[r]!;
      if (ge + this.#joinGap[r]! < minFuture) {
        this.#waiting.push({ rule: r, start: gs, end: ge });
        this.#groupStart[r] = -1;
      }
    }
  }

  #confirmReady(final: boolean): void {
    if (this.#waiting.length === 0) return;
    const end = this.#end;
    const rules = this.#program.rules;
    const ready: Group[] = [];
    const still: Group[] = [];
    for (const g of this.#waiting) {
      const r = rules[g.rule]!;
      if (final || g.end + r.maxLength + r.reach < end) ready.push(g);
      else still.push(g);
    }
    // Rule by rule, each rule's groups in position order: a pattern searched again right away finds
    // its automaton's states and its checks' code still in the processor's caches, where other rules'
    // work in between had evicted them. (At the findings cap, those confirmed first are kept.)
    this.#waiting = this.#confirmAll(ready.length > 2 ? this.#byRule(ready) : ready) ? still : [];
  }

  /**
   * `groups` ordered by rule, each rule's in their order: a counting sort over rule indices, stable
   * and without the comparator calls of `Array.prototype.sort` (a batch holds about 160 groups).
   */
  #byRule(groups: readonly Group[]): Group[] {
    const at = this.#ruleSlots;
    at.fill(0);
    for (const g of groups) at[g.rule + 1]!++;
    for (let r = 1; r < at.length; r++) at[r]! += at[r - 1]!;
    const out = new Array<Group>(groups.length);
    for (const g of groups) out[at[g.rule]!++] = g;
    return out;
  }

  /** Confirms `groups` in their order; false once the findings cap is reached. */
  #confirmAll(groups: readonly Group[]): boolean {
    // A screen reads a whole region (about 18 KB) per call: it pays off for many groups of its rules
    // in one region that it mostly rejects, not for a few, or for groups that hold values, which their
    // own small windows answer more cheaply.
    const perRegion = this.#screenDemand;
    perRegion.clear();
    const keys = groups.map((g) => this.#regionKey(g));
    for (const key of keys) if (key >= 0) perRegion.set(key, (perRegion.get(key) ?? 0) + 1);
    for (const [key, n] of perRegion) perRegion.set(key, this.#screenWorthIt(key % 64, n) ? 1 : 0);
    for (let i = 0; i < groups.length; i++) {
      const key = keys[i]!;
      this.#confirm(groups[i]!, key >= 0 && perRegion.get(key) === 1);
      if (this.findingsTruncated) return false;
    }
    return true;
  }

  /** Whether screen `s` should run over a region where `groups` groups of its rules wait. */
  #screenWorthIt(s: number, groups: number): boolean {
    // The share it rejects, starting from one half (one rejection and one pass up front).
    const share = (this.#screenRejected[s]! + 1) / (this.#screenAsked[s]! + 2);
    if (groups * share >= kScreenMinSaved) return true;
    if (groups < kScreenMinSaved) return false;
    return ++this.#screenSkipped[s]! % kScreenProbe === 0;
  }

  /** Which screen region a group's window falls in (see `#screenPasses`), as one number; -1 unscreened. */
  #regionKey(g: Group): number {
    const r = this.#program.rules[g.rule]!;
    if (r.screen < 0) return -1;
    return Math.floor(this.#windowStart(g, r) / kScreenSpan) * 64 + r.screen;
  }

  /**
   * Where a group's window starts: a match overlapping the group starts at most `lead` before it, or
   * what `leadAt` works out from the text before its first trigger (a later trigger's match starts no
   * earlier: the stretch before it runs back through the first).
   */
  #windowStart(g: Group, rule: CompiledRule): number {
    const lead = rule.leadAt === null ? rule.lead : Math.min(rule.lead, rule.leadAt(this.#buf, g.start - this.#bufStart));
    return Math.max(this.#bufStart, g.start - lead - rule.reach);
  }

  /** Confirms a group in its window; `screened`: ask the rule's screen first (regions are cached). */
  #confirm(g: Group, screened: boolean): void {
    const rule = this.#program.rules[g.rule]!;
    // The base64 decoder's candidates matter only where decoded texts are scanned (not inside one).
    if (rule.def.decodes !== undefined) {
      if (!this.#decode) return;
      // Keywords only inside dotted or longer tokens (a JWT's segments): no candidate, no search.
      if (!mayHoldCandidate(this.#buf, g.start - this.#bufStart, g.end - this.#bufStart)) return;
    }
    // A match overlapping the group ends at most maxLength after it.
    const ws = this.#windowStart(g, rule);
    const we = Math.min(this.#end, g.end + rule.maxLength + rule.reach);
    const text = this.#buf.slice(ws - this.#bufStart, we - this.#bufStart);
    if (rule.hitGate !== null && g.start >= ws && !rule.hitGate(text, g.start - ws, g.end - ws)) return;
    if (screened) {
      const s = rule.screen;
      const pass = this.#screenPasses(s, g.start - rule.maxLength, g.end, ws, we);
      if (++this.#screenAsked[s]! > 256) {
        this.#screenAsked[s]! /= 2;
        this.#screenRejected[s]! /= 2;
      }
      if (!pass) {
        this.#screenRejected[s]!++;
        return;
      }
    }
    const ascii = this.#isAscii(ws, we);
    // Rules screened by context at the candidate already had a context word close by.
    if (rule.contextScreen === 0 && !rule.checks.mayMatch(text, ascii)) return;
    // Resume where this rule's last finding ended, as one left-to-right pass over the body would.
    let from = Math.max(0, (this.#lastEnd[g.rule]! - ws) | 0);
    if (rule.runMatch !== null && this.#confirmRun(g, rule, ws, we, text, from)) return;
    const search = this.#searcher(this.#windowSearch, rule.pattern, ws, we, text, ascii);
    let rejects = 0;
    // A match that matters starts before the group's end: once `from` is past it, no search can find one.
    const stop = g.end - ws;
    while (from <= text.length && from < stop) {
      if (rejects > kMaxRejectsPerWindow) {
        this.windowsCut++;
        return;
      }
      const m = search.exec(from);
      if (m === null) break;
      const ms = ws + m.start;
      if (ms >= g.end) break;
      const rank = m.end === m.start || m.end - m.start > rule.maxLength ? 0 : rule.checks.accept(text, m.start, m.end, m.groupStart, m.groupEnd);
      if (rank === 0) {
        // Rejected (too long for the rule: cut by the window edge; or a check failed): resume at
        // the next start that could pass the left boundary.
        rejects++;
        from = rule.checks.nextStart(text, afterCodePoint(text, m.start));
        continue;
      }
      from = m.end;
      if (ws + m.end <= g.start) continue; // a match that touches none of this group's triggers
      this.#lastEnd[g.rule] = ws + m.end;
      if (rule.def.decodes !== undefined) {
        this.#queueDecoded(text.slice(m.groupStart, m.groupEnd), ws + m.groupStart);
        continue;
      }
      this.#record(rule.index, text.slice(m.groupStart, m.groupEnd), ws + m.groupStart, ws + m.groupEnd, rank);
      if (this.findingsTruncated) return;
      if (rule.def.inLists === true) {
        from = this.#continueList(rule, ws, we, text, from);
        if (this.findingsTruncated) return;
      }
    }
  }

  /**
   * The group confirmed without a pattern call, when the rule works out its match from the run or hit
   * (`RuleDef.runMatch`); false to leave it to the pattern. The search loop of `#confirm` would meet
   * that match alone among those it reports: earlier ones end before the group, and none starts after
   * it before the group's end, at or past which the match itself ends (so the loop stops after it).
   * It meets it after at most one rejected match per position from `from`: fewer than the window's
   * budget.
   */
  #confirmRun(g: Group, rule: CompiledRule, ws: number, we: number, text: string, from: number): boolean {
    const at = this.#runAt;
    // (A group's text is kept while it waits; a window cut inside it is left to the search.)
    if (g.start < ws || !rule.runMatch!(text, g.start - ws, g.end - ws, at)) return false;
    const ms = at[0]!;
    const end = at[2]!;
    if (ms < from || ms - from >= kMaxRejectsPerWindow) return false;
    const rank = end === ms || end - ms > rule.maxLength ? 0 : rule.checks.accept(text, ms, end, at[1]!, end);
    if (rank === 0) return true;
    this.#lastEnd[g.rule] = ws + end;
    this.#record(rule.index, text.slice(at[1]!, end), ws + at[1]!, ws + end, rank);
    if (!this.findingsTruncated && rule.def.inLists === true) this.#continueList(rule, ws, we, text, end);
    return true;
  }
  readonly #runAt = new Int32Array(3);

  /**
   * The later values of a list (`RuleDef.inLists`) after an accepted one that ended at `end` (window
   * text position): the pattern tried on the text after each space as if it began there. Returns
   * where the window's search goes on.
   */
  #continueList(rule: CompiledRule, ws: number, we: number, text: string, end: number): number {
    while (listContinues(text, end)) {
      const at = end + 1;
      const sub = text.slice(at);
      const m = this.#searcher(this.#listSearch, rule.pattern, ws + at, we, sub, this.#isAscii(ws + at, we)).exec(0);
      if (m === null || m.groupStart !== 0 || m.end - m.start > rule.maxLength) break;
      const rank = rule.checks.accept(sub, m.start, m.end, m.groupStart, m.groupEnd);
      if (rank === 0) break;
      end = at + m.end;
      this.#lastEnd[rule.index] = ws + end;
      this.#record(rule.index, sub.slice(m.groupStart, m.groupEnd), ws + at + m.groupStart, ws + at + m.groupEnd, rank);
      if (this.findingsTruncated) break;
    }
    return end;
  }

  /**
   * False when no alternative of the screen matches starting in [from, to): then the rule, one of
   * the alternatives, has no match there either. Its matches that overlap the group start in that
   * range and end before `need`, so the region searched must hold [from, need) with the rule's
   * margin around it (`ws`/`we`, its own window) for a match to look the same in both. Regions are
   * reused across the groups and rules they cover and only ever answer "may match" when unsure.
   */
  #screenPasses(screen: number, from: number, to: number, ws: number, we: number): boolean {
    // Regions sit on a grid (block k covers [k·span, (k+1)·span + pad)), so groups of different
    // rules in one stretch of text share one region instead of each starting its own.
    const k = Math.floor(ws / kScreenSpan);
    const cache = this.#screens[screen]!;
    let i = cache.length - 1;
    while (i >= 0 && cache[i]!.block !== k) i--;
    let region = cache[i];
    if (region === undefined || region.start > ws || region.end < we) {
      const rs = Math.max(this.#bufStart, k * kScreenSpan);
      region = this.#runScreen(screen, k, rs, Math.max(we, Math.min(this.#end, (k + 1) * kScreenSpan + kScreenPad)));
      if (i >= 0) cache[i] = region;
      else {
        if (cache.length >= 4) cache.shift();
        cache.push(region);
      }
    }
    for (const p of region.starts) {
      if (p >= to) return false;
      if (p >= from) return true;
    }
    return region.full;
  }

  #runScreen(screen: number, block: number, rs: number, re: number): ScreenRegion {
    this.screenRuns++;
    const { pattern, maxLength } = this.#program.screens[screen]!;
    const text = this.#buf.slice(rs - this.#bufStart, re - this.#bufStart);
    const starts: number[] = [];
    // The first search reads the region; after a start, each reads a view of kScreenView characters
    // and maxLength more. A start before the view's last maxLength characters is found there as in the
    // region: a match a member accepts starting there ends inside the view (where the view cuts a
    // match short, `$` or `\b` may add a start, never drop one). Without the views, an automaton that
    // cannot tell where a match ends (`aws-secret-access-key`'s key ID, then anything up to `secret`)
    // read to the region's end on every call: adv/kw-all's regions took 15 calls of 9 KB each.
    // (Views only where the search reads the buffer's bytes in place: text encoded to UTF-8 for the
    // search would be encoded again for every view.)
    const region = this.#searcher(this.#screenSearch, pattern, rs, re, text, this.#isAscii(rs, re));
    const inPlace = region.inPlace;
    let end = text.length;
    for (let from = 0; from <= text.length; ) {
      if (starts.length >= kScreenStarts) return { block, start: rs, end: re, starts, full: true };
      const whole = end === text.length;
      // (A view is searched in place: `true` stands for "its bytes are what the pattern reads".)
      const search = whole ? region : this.#searcher(this.#viewSearch, pattern, rs, rs + end, text.slice(0, end), true);
      const m = search.exec(from);
      const exactBelow = whole ? end + 1 : end - maxLength;
      if (m === null || m.start >= exactBelow) {
        if (whole) break;
        // No start in [from, exactBelow): the next view begins there.
        from = exactBelow;
      } else {
        // Every start is listed (not only non-overlapping matches): resume one character past this one.
        starts.push(rs + m.start);
        from = afterCodePoint(text, m.start);
      }
      if (inPlace) end = Math.min(text.length, from + kScreenView + maxLength);
    }
    return { block, start: rs, end: re, starts, full: false };
  }

  /**
   * `search` set up for `exec` of `pattern` over `text` (= the buffer's [start, end), `ascii` when it
   * holds no non-ASCII character), in text positions. As bytes when the backend takes them: a view of
   * `#bytes` where the pattern reads column bytes (unless the text holds a character they do not stand
   * for) or the text is ASCII; other text is encoded once for every call on it (a string would be
   * encoded again on each).
   */
  #searcher(search: WindowSearch, pattern: CompiledPattern, start: number, end: number, text: string, ascii: boolean): WindowSearch {
    if (pattern.execColumns !== undefined && (ascii || !this.#holds(this.#special, start, end))) {
      return search.overColumns(pattern, text, this.#bytes.subarray(start - this.#bufStart, end - this.#bufStart));
    }
    if (pattern.execBytes === undefined) return search.overString(pattern, text);
    if (!ascii) return search.overUtf8(pattern, text);
    return search.overBytes(pattern, text, this.#bytes.subarray(start - this.#bufStart, end - this.#bufStart));
  }

  /** Byte offset in the body of the text position `pos` (still in the buffer). */
  #offsetOf(pos: number): number {
    return this.#linear >= 0 ? (this.#linear + (pos - this.#bufStart)) | 0 : this.#off[pos - this.#bufStart]!;
  }

  /** True when [start, end) holds no non-ASCII character (so `#bytes` there is the text). */
  #isAscii(start: number, end: number): boolean {
    return !this.#holds(this.#nonAscii, start, end);
  }

  /** True when one of the ascending positions `na` lies in [start, end). */
  #holds(na: readonly number[], start: number, end: number): boolean {
    if (na.length === 0) return false;
    let lo = 0;
    let hi = na.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (na[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    return lo < na.length && na[lo]! < end;
  }

  #record(ruleIndex: number, value: string, start: number, end: number, rank: number): void {
    if (this.findings.length >= this.#maxFindings) {
      this.findingsTruncated = true;
      return;
    }
    const rule = this.#program.rules[ruleIndex]!;
    this.findings.push({
      ruleId: rule.def.id,
      description: rule.def.description,
      tags: rule.tags,
      start: this.#offsetOf(start),
      end: this.#offsetOf(end),
      // The one place a matched value is turned into output: only its redacted form leaves.
      redacted: redact(value),
      confidence: kConfidenceByRank[rank]!,
    });
  }

  /**
   * A base64 candidate (see src/engine/decoded.ts) that decodes to JSON, kept with the body offsets of
   * its four-character groups for the scan of its text when the body ends.
   */
  #queueDecoded(value: string, start: number): void {
    const bytes = decodeBase64Json(value);
    if (bytes === null) return;
    const groups = Math.ceil(value.length / 4);
    const quanta = new Int32Array(groups + 1);
    for (let k = 0; k <= groups; k++) quanta[k] = this.#offsetOf(start + Math.min(4 * k, value.length));
    this.decoded.push({ bytes, quanta });
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
    const drop = (keepFrom - this.#bufStart) | 0;
    if (drop < this.#compactSlack) return;
    this.#buf = this.#buf.slice(drop);
    const keep = this.#buf.length;
    this.#bytes.copyWithin(0, drop, drop + keep);
    if (this.#linear >= 0) this.#linear += drop;
    else this.#off.copyWithin(0, drop, drop + keep + 1);
    this.#nonAscii = dropBefore(this.#nonAscii, this.#bufStart + drop);
    this.#special = dropBefore(this.#special, this.#bufStart + drop);
    this.#bufStart += drop;
  }
}

/** The ascending positions `na` from `start` on (`na` itself when none is before it). */
function dropBefore(na: number[], start: number): number[] {
  if (na.length === 0 || na[0]! >= start) return na;
  let k = 0;
  while (k < na.length && na[k]! < start) k++;
  return na.slice(k);
}

/** UTF-8 length of the UTF-16 code unit `code` (a pair's high half counts the pair's 4, its low half 0). */
function unitBytes(text: string, i: number, code: number): number {
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const prev = text.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/**
 * `exec` over one window at a time, in the window's text positions, through the pattern's string
 * entry, its byte entry on a view of ASCII text, or its byte entry on the window encoded to UTF-8. One
 * instance is reused window after window (a closure per window cost a fresh function each time, and
 * under tsx a `__name` call too: 9% of a scan with every rule on).
 *
 * On UTF-8: the window is encoded once (into a scratch buffer, grown as needed and reused by the next
 * window), and positions are converted between characters and bytes by a cursor that walks either way
 * from where the last conversion left it, counting code units and lead bytes without decoding
 * anything. Calls on one window mostly go left to right, and a step back (to just past a match's
 * start) is as long as the match, so the conversions of a window cost time linear in its length.
 * (Restarting from the window's start on each step back made a screen region of 18 KB with 64 match
 * starts decode a megabyte.) A start inside a surrogate pair has no byte position: that call goes
 * through the string entry.
 */
class WindowSearch {
  #pattern: CompiledPattern | null = null;
  #text = '';
  /** 0: string entry; 1: bytes are the text (ASCII); 2: bytes are the text's UTF-8; 3: its column bytes. */
  #mode = 0;
  #bytes: Uint8Array = new Uint8Array(0);
  #scratch: Buffer = Buffer.alloc(0);
  /** The UTF-8 cursor: code unit `#c` of the text starts at byte `#b`. */
  #c = 0;
  #b = 0;

  overString(pattern: CompiledPattern, text: string): this {
    this.#pattern = pattern;
    this.#text = text;
    this.#mode = 0;
    return this;
  }

  overBytes(pattern: CompiledPattern, text: string, bytes: Uint8Array): this {
    return this.#over(pattern, text, bytes, 1);
  }

  overColumns(pattern: CompiledPattern, text: string, cols: Uint8Array): this {
    return this.#over(pattern, text, cols, 3);
  }

  #over(pattern: CompiledPattern, text: string, bytes: Uint8Array, mode: 1 | 3): this {
    this.#pattern = pattern;
    this.#text = text;
    this.#mode = mode;
    this.#bytes = bytes;
    return this;
  }

  overUtf8(pattern: CompiledPattern, text: string): this {
    if (this.#scratch.length < 3 * text.length) this.#scratch = Buffer.allocUnsafe(Math.max(3 * text.length, 2 * this.#scratch.length));
    this.#pattern = pattern;
    this.#text = text;
    this.#mode = 2;
    this.#bytes = this.#scratch.subarray(0, this.#scratch.write(text, 0, 'utf8'));
    this.#c = 0;
    this.#b = 0;
    return this;
  }

  /** Whether the search reads the buffer's bytes as they are (not the text encoded for it). */
  get inPlace(): boolean {
    return this.#mode === 1 || this.#mode === 3;
  }

  exec(from: number): PatternMatch | null {
    const pattern = this.#pattern!;
    if (this.#mode === 0) return pattern.exec(this.#text, from);
    if (this.#mode === 1) return pattern.execBytes!(this.#bytes, from);
    if (this.#mode === 3) return pattern.execColumns!(this.#bytes, from);
    const text = this.#text;
    const lead = text.charCodeAt(from - 1);
    if (from > 0 && from < text.length && lead >= 0xd800 && lead <= 0xdbff) return pattern.exec(text, from);
    const m = pattern.execBytes!(this.#bytes, this.#byteOf(from));
    if (m === null) return null;
    const start = this.#charOf(m.start);
    const groupStart = this.#charOf(m.groupStart);
    const groupEnd = this.#charOf(m.groupEnd);
    return { start, groupStart, groupEnd, end: this.#charOf(m.end) };
  }

  #byteOf(char: number): number {
    const text = this.#text;
    let c = this.#c;
    let b = this.#b;
    for (; c < char; c++) b += unitBytes(text, c, text.charCodeAt(c));
    for (; c > char; ) {
      c--;
      b -= unitBytes(text, c, text.charCodeAt(c));
    }
    this.#c = c;
    this.#b = b;
    return b;
  }

  /** A lead byte starts one code unit, or two for a 4-byte sequence; continuation bytes none. */
  #charOf(byte: number): number {
    const bytes = this.#bytes;
    let c = this.#c;
    let b = this.#b;
    for (; b < byte; b++) {
      const x = bytes[b]!;
      if ((x & 0xc0) !== 0x80) c += x >= 0xf0 ? 2 : 1;
    }
    for (; b > byte; ) {
      const x = bytes[--b]!;
      if ((x & 0xc0) !== 0x80) c -= x >= 0xf0 ? 2 : 1;
    }
    this.#c = c;
    this.#b = b;
    return c;
  }
}
