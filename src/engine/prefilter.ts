/**
 * The shared linear pass. One loop over the decoded text drives three small state machines at once:
 * an Aho-Corasick DFA over every rule's keywords (case-insensitive, ASCII), a digit-run tracker for
 * the numeric classes (cards, IBANs, national ids: no keywords, as the engine-performance notes say),
 * and an alphanumeric-token tracker. Each reports trigger spans to the rules that asked for them.
 * State carries across calls, so the spans do not depend on how the text was cut into chunks.
 *
 * The loop reads the text as column bytes, one per UTF-16 code unit (see `columnsOf`): an ASCII
 * character is its own code, anything else `kOther` (or `kKelvin`, the one non-ASCII character that
 * folds to an ASCII letter). Reading a byte array costs half what `charCodeAt` does here (2.5 against
 * 4.6 ms/MB for the Aho-Corasick walk alone), and the matcher keeps its text as such bytes anyway.
 */

import type { RunShape } from '../rules/types.js';
import { asciiClass } from './checks.js';
import { nativeBinding, type NativeBinding, type NativeTablesSpec } from './native.js';

/** Called for every trigger occurrence: rule index and the span [start, end) in global text positions. */
export type EmitCandidate = ((rule: number, start: number, end: number) => void) & {
  /**
   * Optional: the same for `count` triggers at once, as (rule, start, end) triples in `events`. The
   * native pass hands its batches over this way when the receiver has it (one call per batch instead
   * of one per trigger: adv/at-signs has a keyword hit every two bytes).
   */
  batch?: (events: Float64Array, count: number) => void;
};

/**
 * One scan's prefilter state, whichever implementation runs it: `Prefilter` (TypeScript, the
 * specification) or `NativePrefilter` (the same pass in C). Both report the same events in the same
 * order for the same text, however it is cut into pieces.
 */
export interface TriggerPass {
  /**
   * Scans the next piece of text, its column bytes `cols[from, to)`, reporting every trigger. A keyword
   * of a rule with a `next` class that ends at `to` is reported untested (see `PrefilterSpec.joins`).
   * Every trigger found in the piece is reported before the call returns.
   */
  scan(cols: Uint8Array, from: number, to: number, emit: EmitCandidate): void;
  /** End of text: report the run and token in progress. */
  finish(emit: EmitCandidate): void;
  /** No trigger reported in the future can start before this position. */
  minFutureStart(): number;
  /** The scan has ended: what it holds may serve a later scan (the pass is not used again). */
  release?(): void;
}

export interface PrefilterSpec {
  keywords: ReadonlyArray<{ text: string; rule: number }>;
  digits: ReadonlyArray<{ rule: number; min: number; max?: number; separators: string; shape?: RunShape }>;
  tokens: ReadonlyArray<{ rule: number; min: number; max: number; needsDigit: boolean; needsLetter: boolean }>;
  /**
   * Rules screened by context: a trigger of `rule` starting at `s` is reported only if one of its
   * context `words` (ASCII, case-insensitive, matched like keywords) ended after `s - within`. The
   * words themselves are not reported. (Presidio-style context for digit and token rules: most
   * numbers of a page have no label in front of them, and they never leave the pass.)
   */
  context?: ReadonlyArray<{ rule: number; within: number; words: readonly string[] }>;
  /**
   * Keyword rules whose hits the pass joins before reporting them, as the matcher joins a rule's
   * triggers into groups: a hit starting at most `gap` after the end of the rule's open span, with
   * the joined span at most `span` long, extends it (the matcher's rule, applied to the same hits in
   * the same order: the groups come out the same); otherwise the open span is reported and the hit
   * opens the next. Open spans are reported when they cannot take the hit at hand and at the end of
   * each `scan` call, in rule order. With `next` (128 ASCII columns, 1: may follow the keyword; the
   * rule's `trigger.next`), a hit whose next character is in the piece and not in the class is
   * dropped: no match of the rule begins with that occurrence (test/engine/lead.test.ts holds each class to its
   * pattern), so this only spares windows. One ending at the end of the piece is joined untested.
   * On `a@a@a@…` a hit every two bytes became one event per `span`: the per-event work in the
   * matcher had been about a third of that body's time.
   */
  joins?: ReadonlyArray<{ rule: number; gap: number; span: number; next?: Uint8Array }>;
}

const kDigit = 1;
const kLetter = 2;
const kSep = 4;
const kCols = 128;
/** Column byte of a non-ASCII code unit. */
export const kOther = 0x80;
/**
 * Column byte of the Kelvin sign (U+212A). Keyword matching folds case as `String#toLowerCase` does
 * where that yields ASCII, and only the Kelvin sign lower-cases to an ASCII letter (`k`), so context
 * words seen here are exactly those the checks see in lower-cased text. For the run and token
 * trackers it is, like every other non-ASCII character, neither letter, digit nor separator.
 */
export const kKelvin = 0x81;

/** The column byte of UTF-16 code unit `c`. */
export function columnByte(c: number): number {
  return c < 0x80 ? c : c === 0x212a ? kKelvin : kOther;
}

/** `text` as column bytes (for callers holding a string; the matcher writes its own). */
export function columnsOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = columnByte(text.charCodeAt(i));
  return out;
}

/** A digit run longer than this is reported in pieces, so no window grows with a hostile body. */
export const kMaxRunSpan = 256;

function digitOf(ch: string): number {
  const d = ch.charCodeAt(0) - 48;
  if (ch.length !== 1 || d < 0 || d > 9) throw new Error(`run shape: first must list digits, not ${JSON.stringify(ch)}`);
  return d;
}

function skipChar(skip: string | undefined): number {
  if (skip === undefined) return 0;
  const c = skip.charCodeAt(0);
  if (skip.length !== 1 || c === 0 || c > 0x7f) throw new Error(`run shape: skip must be one ASCII character, not ${JSON.stringify(skip)}`);
  return c;
}

/**
 * A shape's `chars`, a character-class body of ASCII read as the rules' other class bodies are (`'A-Z'`,
 * `'=^'`), as 128 columns (1: in the set). NUL, which stands for "before the text", is never in it.
 */
function shapeChars(body: string): Uint8Array {
  if (/[^\x01-\x7f]/.test(body)) throw new Error(`run shape: chars must be an ASCII class body, not ${JSON.stringify(body)}`);
  const { ascii } = asciiClass(body);
  ascii[0] = 0;
  if (!ascii.includes(1)) throw new Error('run shape: empty chars');
  return ascii;
}

/**
 * The immutable tables of a prefilter, built once per program and shared by every scan: the
 * TypeScript pass reads them, and the native pass gets a copy of the same fields (`NativeTablesSpec`).
 */
export class PrefilterTables implements NativeTablesSpec {
  /** Transition table, one row of 128 columns per state (16-bit while the states fit: half the cache). */
  readonly delta: Uint16Array | Int32Array;
  readonly depth: Int32Array;
  readonly outStart: Int32Array;
  readonly outRule: Int32Array;
  readonly outLen: Int32Array;
  /** States from this number on end at least one keyword (states are numbered that way). */
  readonly firstOut: number;
  readonly cls = new Uint8Array(kCols);
  /** Per digit rule (in ascending minimum order): its rule index, and the digit counts it takes. */
  readonly digitRule: Int32Array;
  readonly digitMin: Int32Array;
  readonly digitMax: Float64Array;
  /** Per separator set j, its digit rules (indices into the arrays above) are `setIdx[setFrom[j] .. setFrom[j + 1])`. */
  readonly setFrom: Int32Array;
  readonly setIdx: Int32Array;
  /** Per separator character, its bit; per distinct separator set of the digit rules, the set's bits. */
  readonly sepBit = new Uint8Array(kCols);
  readonly setMasks: Uint8Array;
  /** The separator set without separators (rules of contiguous digits), -1 if no digit rule has it. */
  readonly pureSet: number;
  readonly maxTokenLen: number;
  /**
   * Per token length `len`, the token rules whose length range holds it are entries
   * `tokFrom[len] .. tokFrom[len + 1]` (most lengths have none) of `tokRule` (rule index) and
   * `tokFlags` (bit 0: needs a digit, bit 1: needs a letter).
   */
  readonly tokFrom: Int32Array;
  readonly tokRule: Int32Array;
  readonly tokFlags: Uint8Array;
  /** Fewest digits any digit rule needs: shorter runs (most of them) are dropped at once. */
  readonly minDigits: number;
  /** Per separator set, the fewest digits one of its rules needs. */
  readonly setMin: Int32Array;
  /**
   * One more than the largest rule index. A keyword output `ruleCount + r` is a context word of rule
   * r: it moves `ctxEnd[r]` and is not reported.
   */
  readonly ruleCount: number;
  /** Per rule: `within` of its context screen (`PrefilterSpec.context`), 0 when it has none. */
  readonly ctxWithin: Float64Array;
  /**
   * Per digit rule i, its run shape (`RunShape`). `digitFirst[i]`: the first digits allowed (bit d for
   * digit d; all ten when it has none). Its four sides k: 0 before the run, 1 after it, 2 before the
   * sub-run that fired it (`block`), 3 after that sub-run; `digitSides[8i + 2k]` and `[8i + 2k + 1]`
   * are side k's skip character (0 none) and how many characters past it must be in its set (0: no
   * test), the set being row 4i + k (128 columns) of `digitSideSets`. `digitGroups[4i ..]`: `groups`'
   * within (0 none), first, the separator bits of its chars, and 1 when a separator is `required`.
   */
  readonly digitFirst: Uint16Array;
  readonly digitSides: Uint8Array;
  readonly digitSideSets: Uint8Array;
  readonly digitGroups: Int32Array;
  /**
   * Per rule (`PrefilterSpec.joins`): the gap within which its keyword hits join (0: reported one by
   * one), the longest joined span, and the offset of its `next` columns in `nextCols` (-1: none).
   */
  readonly joinGap: Float64Array;
  readonly joinSpan: Float64Array;
  readonly nextOf: Int32Array;
  readonly nextCols: Uint8Array;

  constructor(spec: PrefilterSpec) {
    const context = spec.context ?? [];
    const joins = spec.joins ?? [];
    const indices = [...spec.keywords, ...spec.digits, ...spec.tokens, ...context, ...joins].map((x) => x.rule);
    this.ruleCount = indices.reduce((m, r) => Math.max(m, r + 1), 0);
    this.joinGap = new Float64Array(this.ruleCount);
    this.joinSpan = new Float64Array(this.ruleCount);
    this.nextOf = new Int32Array(this.ruleCount).fill(-1);
    this.nextCols = new Uint8Array(kCols * joins.filter((j) => j.next !== undefined).length);
    let nextRows = 0;
    for (const j of joins) {
      if (!(j.gap > 0) || !(j.span > 0) || this.joinGap[j.rule] !== 0) throw new Error(`join of rule ${j.rule}: gap and span must be positive, one join per rule`);
      this.joinGap[j.rule] = j.gap;
      this.joinSpan[j.rule] = j.span;
      if (j.next === undefined) continue;
      if (j.next.length !== kCols) throw new Error(`join of rule ${j.rule}: next must have ${kCols} columns`);
      this.nextOf[j.rule] = kCols * nextRows;
      this.nextCols.set(j.next, kCols * nextRows++);
    }
    this.ctxWithin = new Float64Array(this.ruleCount);
    for (const c of context) {
      if (!(c.within > 0)) throw new Error(`context screen of rule ${c.rule}: within must be positive`);
      this.ctxWithin[c.rule] = c.within;
    }
    const keywords = [...spec.keywords, ...context.flatMap((c) => c.words.map((text) => ({ text, rule: this.ruleCount + c.rule })))];
    // Aho-Corasick automaton over lower-cased keywords (and context words). Built in every thread that
    // compiles the rules, at each command's start-up, so it works on flat arrays and copies whole rows.
    const lowered = keywords.map(({ text, rule }) => {
      const kw = text.toLowerCase();
      if (kw.length === 0 || !/^[\x01-\x7f]+$/.test(kw)) throw new Error(`keyword must be non-empty ASCII: ${JSON.stringify(text)}`);
      return { kw, rule };
    });
    // The trie: a row of kCols per state (-1: no edge), room for a state per keyword character; each
    // state's edges also listed (`edgeOf` chains them) so that a row is never read column by column.
    const maxStates = lowered.reduce((m, k) => m + k.kw.length, 1);
    const gotoRows = new Int32Array(maxStates * kCols).fill(-1);
    const firstEdge = new Int32Array(maxStates).fill(-1);
    const edgeOf = new Int32Array(maxStates).fill(-1);
    const edgeChar = new Int32Array(maxStates);
    const outputs: Array<Array<[number, number]>> = [[]];
    const depth: number[] = [0];
    let n = 1;
    for (const { kw, rule } of lowered) {
      let s = 0;
      for (let i = 0; i < kw.length; i++) {
        const c = kw.charCodeAt(i);
        let next = gotoRows[s * kCols + c]!;
        if (next < 0) {
          next = n++;
          gotoRows[s * kCols + c] = next;
          // State `next` is reached by one edge only: the edge is numbered by it.
          edgeChar[next] = c;
          edgeOf[next] = firstEdge[s]!;
          firstEdge[s] = next;
          outputs.push([]);
          depth.push(depth[s]! + 1);
        }
        s = next;
      }
      if (!outputs[s]!.some(([r]) => r === rule)) outputs[s]!.push([rule, kw.length]);
    }
    // Breadth first: failure links (the longest proper suffix that is a trie state) and outputs (a
    // state also ends every keyword its failure state ends).
    const fail = new Int32Array(n);
    const order = new Int32Array(n);
    let queued = 1;
    for (let qi = 0; qi < queued; qi++) {
      const s = order[qi]!;
      for (let g = firstEdge[s]!; g >= 0; g = edgeOf[g]!) {
        order[queued++] = g;
        if (s === 0) continue;
        const c = edgeChar[g]!;
        let f = fail[s]!;
        while (f !== 0 && gotoRows[f * kCols + c]! < 0) f = fail[f]!;
        fail[g] = Math.max(gotoRows[f * kCols + c]!, 0);
      }
      if (s !== 0) for (const o of outputs[fail[s]!]!) if (!outputs[s]!.some(([r, l]) => r === o[0] && l === o[1])) outputs[s]!.push(o);
    }
    // Renumber the states: those that end no keyword first (the root stays 0), so the hot loop tests
    // `state >= firstOut` instead of loading a flag per character.
    const perm = new Int32Array(n);
    let next = 0;
    for (let s = 0; s < n; s++) if (outputs[s]!.length === 0) perm[s] = next++;
    this.firstOut = next;
    for (let s = 0; s < n; s++) if (outputs[s]!.length > 0) perm[s] = next++;
    // The full transition table in the new numbering: a state's row is its failure state's row (done
    // earlier, breadth first) with its own edges on top; the root's other columns lead back to it.
    const table = n <= 0xffff ? new Uint16Array(n * kCols) : new Int32Array(n * kCols);
    for (let qi = 0; qi < queued; qi++) {
      const s = order[qi]!;
      const row = perm[s]! * kCols;
      if (s !== 0) table.copyWithin(row, perm[fail[s]!]! * kCols, perm[fail[s]!]! * kCols + kCols);
      for (let g = firstEdge[s]!; g >= 0; g = edgeOf[g]!) table[row + edgeChar[g]!] = perm[g]!;
    }
    // Case folding: an upper-case letter moves like its lower-case form.
    for (let s = 0; s < n; s++) table.copyWithin(s * kCols + 65, s * kCols + 97, s * kCols + 123);
    this.delta = table;
    const depthOf = new Int32Array(n);
    const outputsOf: Array<Array<[number, number]>> = new Array<Array<[number, number]>>(n);
    for (let s = 0; s < n; s++) {
      depthOf[perm[s]!] = depth[s]!;
      outputsOf[perm[s]!] = outputs[s]!;
    }
    this.depth = depthOf;
    const outStart = new Int32Array(n + 1);
    const flatRule: number[] = [];
    const flatLen: number[] = [];
    for (let s = 0; s < n; s++) {
      outStart[s] = flatRule.length;
      for (const [r, l] of outputsOf[s]!) {
        flatRule.push(r);
        flatLen.push(l);
      }
    }
    outStart[n] = flatRule.length;
    this.outStart = outStart;
    this.outRule = Int32Array.from(flatRule);
    this.outLen = Int32Array.from(flatLen);

    for (let c = 48; c <= 57; c++) this.cls[c] = kDigit;
    for (let c = 65; c <= 90; c++) this.cls[c] = kLetter;
    for (let c = 97; c <= 122; c++) this.cls[c] = kLetter;
    // Separators are the union of every digit rule's; a rule with fewer separators still sees its own
    // run inside the longer one, and its pattern decides.
    for (const d of spec.digits) {
      for (const ch of d.separators) {
        const c = ch.charCodeAt(0) & 127;
        this.cls[c] = this.cls[c]! | kSep;
      }
    }
    // Runs are tracked once with the union of separators; each distinct separator set also tracks
    // its own longest sub-run, so a rule fires only when a run of its own separators is long enough
    // (SVG path data like `12.5 13.5-14.2` must not wake the card rules, which allow no dots).
    const sets: string[] = [];
    const sepChars = [...new Set(spec.digits.flatMap((d) => [...d.separators]))];
    if (sepChars.length > 8) throw new Error('at most 8 distinct digit-run separators');
    sepChars.forEach((ch, i) => {
      this.sepBit[ch.charCodeAt(0) & 127] = 1 << i;
    });
    const setKey = (seps: string) => [...new Set(seps)].sort().join('');
    for (const d of spec.digits) if (!sets.includes(setKey(d.separators))) sets.push(setKey(d.separators));
    this.setMasks = Uint8Array.from(sets, (set) => [...set].reduce((m, ch) => m | this.sepBit[ch.charCodeAt(0) & 127]!, 0));
    this.pureSet = this.setMasks.indexOf(0);
    // A shape's `counts` become one digit rule per count, its minimum and maximum both that count: the
    // passes then take them as they take any range (a run whose sub-runs hold two of the counts reports
    // the rule once per count, the same span each time).
    const digitRules = spec.digits
      .flatMap((d) => {
        const max = d.max ?? Number.MAX_SAFE_INTEGER;
        const set = sets.indexOf(setKey(d.separators));
        const counts = d.shape?.counts;
        if (counts === undefined) return [{ rule: d.rule, min: d.min, max, set, shape: d.shape }];
        if (counts.length === 0 || counts.some((c) => !Number.isInteger(c) || c < d.min || c > max)) {
          throw new Error(`run shape: counts must be digit counts within the trigger's ${d.min}..${max}`);
        }
        return [...new Set(counts)].map((c) => ({ rule: d.rule, min: c, max: c, set, shape: d.shape }));
      })
      .sort((a, b) => a.min - b.min);
    this.digitRule = Int32Array.from(digitRules, (d) => d.rule);
    this.digitMin = Int32Array.from(digitRules, (d) => d.min);
    this.digitMax = Float64Array.from(digitRules, (d) => d.max);
    const nd = digitRules.length;
    this.digitFirst = new Uint16Array(nd).fill(0x3ff);
    this.digitSides = new Uint8Array(8 * nd);
    this.digitSideSets = new Uint8Array(512 * nd);
    this.digitGroups = new Int32Array(4 * nd);
    digitRules.forEach((d, i) => {
      const shape = d.shape;
      if (shape === undefined) return;
      const count = shape.before?.count ?? 1;
      if (count !== 1 && count !== 2) throw new Error('run shape: before.count must be 1 or 2');
      const sides = [shape.before, shape.after, shape.block?.before, shape.block?.after];
      sides.forEach((side, k) => {
        if (side === undefined) return;
        this.digitSides[8 * i + 2 * k] = skipChar(side.skip);
        this.digitSides[8 * i + 2 * k + 1] = k === 0 ? count : 1;
        this.digitSideSets.set(shapeChars(side.chars), 128 * (4 * i + k));
      });
      if (shape.groups !== undefined) {
        const { within, first, chars, required } = shape.groups;
        if (!Number.isInteger(within) || within < 1 || within > kMaxRunSpan || !Number.isInteger(first) || first < 1 || first >= within) {
          throw new Error(`run shape: groups needs 1 <= first < within <= ${kMaxRunSpan}`);
        }
        this.digitGroups[4 * i] = within;
        this.digitGroups[4 * i + 1] = first;
        // A character no digit rule takes as a separator never joins a run: it has no bit.
        this.digitGroups[4 * i + 2] = shapeChars(chars).reduce((m, inSet, c) => (inSet ? m | this.sepBit[c]! : m), 0);
        this.digitGroups[4 * i + 3] = required === true ? 1 : 0;
      }
      if (shape.first !== undefined) this.digitFirst[i] = [...shape.first].reduce((m, ch) => m | (1 << digitOf(ch)), 0);
    });
    const setRules = sets.map((_, j) => digitRules.flatMap((d, i) => (d.set === j ? [i] : [])));
    this.setIdx = Int32Array.from(setRules.flat());
    this.setFrom = new Int32Array(sets.length + 1);
    setRules.forEach((idx, j) => (this.setFrom[j + 1] = this.setFrom[j]! + idx.length));
    this.maxTokenLen = spec.tokens.reduce((m, t) => Math.max(m, t.max), 0);
    const byLen = Array.from({ length: this.maxTokenLen + 1 }, (_, len) => spec.tokens.filter((t) => len >= t.min && len <= t.max));
    this.tokFrom = new Int32Array(this.maxTokenLen + 2);
    byLen.forEach((ts, len) => (this.tokFrom[len + 1] = this.tokFrom[len]! + ts.length));
    this.tokRule = Int32Array.from(byLen.flat(), (t) => t.rule);
    this.tokFlags = Uint8Array.from(byLen.flat(), (t) => (t.needsDigit ? 1 : 0) | (t.needsLetter ? 2 : 0));
    // No run has that many digits (runs are cut at kMaxRunSpan); an int32, as the native pass takes it.
    this.minDigits = digitRules.reduce((m, d) => Math.min(m, d.min), 0x7fffffff);
    this.setMin = Int32Array.from(setRules, (idx) => idx.reduce((m, i) => Math.min(m, digitRules[i]!.min), 0x7fffffff));
  }

  #native: object | undefined;

  /** These tables copied into the native pass (once per program and thread). */
  nativeTables(binding: NativeBinding): object {
    return (this.#native ??= binding.tables(this));
  }

  /** Native states of ended scans, for the thread's next scans of these tables (see `NativePrefilter`). */
  readonly spareStates: object[] = [];
}

/** Native states kept per tables for reuse: a thread runs one scan at a time, a few overlap at most. */
const kSpareStates = 4;

/** Room for this many events per native call (the call stops early rather than overflow it). */
const kNativeEvents = 8192;
/** Shared by every native scan of the thread: each call's events are dispatched before it returns. */
const nativeOut = new Float64Array(3 * kNativeEvents);
const nativeMeta = new Float64Array(2);

/** The prefilter pass in C (`native/prefilter.c`); see `TriggerPass`. */
export class NativePrefilter implements TriggerPass {
  readonly #binding: NativeBinding;
  readonly #tables: PrefilterTables;
  #state: object | null;
  #minFuture = 0;

  /**
   * Takes an ended scan's state when the tables have one (reset as new), else makes one: a fresh native
   * state per scan (allocations, a finalizer, the collector's bookkeeping for both) was about a tenth of
   * scanning a small body.
   */
  constructor(t: PrefilterTables, binding: NativeBinding) {
    this.#binding = binding;
    this.#tables = t;
    const spare = binding.reset === undefined ? undefined : t.spareStates.pop();
    if (spare !== undefined) binding.reset!(spare);
    this.#state = spare ?? binding.state(t.nativeTables(binding));
  }

  /** The scan has ended: its state goes to the tables' next scan. This pass must not be used again. */
  release(): void {
    const s = this.#state;
    this.#state = null;
    if (s !== null && this.#binding.reset !== undefined && this.#tables.spareStates.length < kSpareStates) this.#tables.spareStates.push(s);
  }

  minFutureStart(): number {
    return this.#minFuture;
  }

  scan(cols: Uint8Array, from: number, to: number, emit: EmitCandidate): void {
    const state = this.#live();
    for (let i = from; i < to; i = nativeMeta[0]!) this.#dispatch(this.#binding.scan(state, cols, i, to, nativeOut, nativeMeta), emit);
  }

  finish(emit: EmitCandidate): void {
    this.#dispatch(this.#binding.finish(this.#live(), nativeOut, nativeMeta), emit);
  }

  #live(): object {
    if (this.#state === null) throw new Error('native prefilter used after release()');
    return this.#state;
  }

  /** Hands the `n` events the last native call wrote to `emit`, in order. */
  #dispatch(n: number, emit: EmitCandidate): void {
    this.#minFuture = nativeMeta[1]! | 0; // a position: an int32, as the matcher's (see #onCandidates)
    const out = nativeOut;
    if (emit.batch !== undefined) emit.batch(out, n);
    else for (let k = 0; k < 3 * n; k += 3) emit(out[k]!, out[k + 1]!, out[k + 2]!);
  }
}

/** Which prefilter a scan runs: `auto` is the native pass where it is built. */
export type PrefilterChoice = 'auto' | 'native' | 'js';

/** A prefilter state for one scan: the native pass where it is built, else the TypeScript one. */
export function newTriggerPass(t: PrefilterTables, impl: PrefilterChoice = 'auto'): TriggerPass {
  const binding = impl === 'js' ? null : nativeBinding();
  if (binding === null && impl === 'native') throw new Error('the native prefilter is not built');
  return binding !== null ? new NativePrefilter(t, binding) : new Prefilter(t);
}

export class Prefilter implements TriggerPass {
  readonly #t: PrefilterTables;
  /** Per digit rule: the generation (run) in which it last fired, so each run reports it once. */
  readonly #fired: Uint32Array;
  #gen = 0;
  /**
   * Per separator set: the run's digit count when the set's current sub-run began (its length is
   * then `runDigits - subStart[j]`), so a digit costs nothing per set.
   */
  readonly #subStart: Int32Array;
  /** While a run is cut into pieces: the digits of the stretch without separators that the last piece ended in (see `#flushPiece`). */
  #carry = 0;

  // Streaming state.
  #st = 0;
  #pos = 0;
  #runStart = -1;
  #runDigits = 0;
  #runEnd = 0;
  #runSep = false;
  #runPiece = false;
  /**
   * The run's first digit, and the three column bytes before it (nearest lowest; 0 before the text):
   * -1 until a shape needs them or the call the run started in ends (runs are many, shapes asked few).
   */
  #runFirst = 0;
  #runBefore = -1;
  /** The current call's column bytes and where they start (for `#runBefore`); null between calls. */
  #cols: Uint8Array | null = null;
  #from = 0;
  #off = 0;
  /** The characters after the run when it is flushed (its trailing separator, then the next), -1 unseen. */
  #after1 = -1;
  #after2 = -1;
  /** The last three column bytes scanned (as `#runBefore`). */
  #tail = 0;
  /**
   * The separators of the run in progress, as (digits before it, its column byte): sub-runs are worked
   * out from them when the run ends, and only if it has enough digits for some rule (most runs are too
   * short: times, prices, counters).
   */
  readonly #sepAt: Int32Array = new Int32Array(kMaxRunSpan);
  readonly #sepChars: Uint8Array = new Uint8Array(kMaxRunSpan);
  /** Per separator set: the separator that began its current sub-run (-1: the run's start). */
  readonly #subSep: Int32Array;
  /**
   * Around the sub-run being ended (for `block` shapes): the separator before it (-1: the run's start)
   * and the one after it (-1: the run's end, or a separator after its last digit, which is what the
   * run's end saw).
   */
  #blockFrom = -1;
  #blockTo = -1;
  #seps = 0;
  #tokStart = -1;
  #tokDigit = false;
  #tokLetter = false;
  /** Per rule screened by context: where its latest context word ended. */
  readonly #ctxEnd: Float64Array;
  /** Per joined rule, its open span of keyword hits (start -1: none), and how many are open. */
  readonly #joinStart: Float64Array;
  readonly #joinEnd: Float64Array;
  #joinsOpen = 0;

  constructor(t: PrefilterTables) {
    this.#t = t;
    this.#ctxEnd = new Float64Array(t.ruleCount).fill(Number.NEGATIVE_INFINITY);
    this.#joinStart = new Float64Array(t.ruleCount).fill(-1);
    this.#joinEnd = new Float64Array(t.ruleCount);
    this.#fired = new Uint32Array(t.digitRule.length);
    this.#subStart = new Int32Array(t.setMasks.length);
    this.#subSep = new Int32Array(t.setMasks.length);
  }

  /** No trigger reported in the future can start before this position. */
  minFutureStart(): number {
    let m = this.#pos - this.#t.depth[this.#st]!;
    if (this.#runStart >= 0 && this.#runStart < m) m = this.#runStart;
    // A token already longer than every token rule's maximum can no longer be reported: a megabyte of
    // one repeated letter or digit must not hold the matcher's whole buffer (it was copied on every push).
    if (this.#tokStart >= 0 && this.#tokStart < m && this.#pos - this.#tokStart <= this.#t.maxTokenLen) m = this.#tokStart;
    return m;
  }

  /**
   * Scans the next piece of text, its column bytes `cols[from, to)` (see `columnsOf`), reporting
   * every trigger to `emit`.
   */
  scan(cols: Uint8Array, from: number, to: number, emit: EmitCandidate): void {
    // The hot loop: all state in locals, one table lookup per tracker per character, calls only on
    // events (a keyword ends, a long enough run or token ends). Written out by hand because this loop
    // is the engine's floor on throughput.
    const t = this.#t;
    const delta = t.delta;
    const firstOut = t.firstOut;
    const cls = t.cls;
    const tokFrom = t.tokFrom;
    const maxTok = t.maxTokenLen;
    const minDigits = t.minDigits;
    const sepAt = this.#sepAt;
    const sepChars = this.#sepChars;
    // The global position of cols[i] is `off + i`.
    const off = this.#pos - from;
    this.#cols = cols;
    this.#from = from;
    this.#off = off;
    let st = this.#st;
    let runStart = this.#runStart;
    let runDigits = this.#runDigits;
    let runEnd = this.#runEnd;
    let runSep = this.#runSep;
    let tokStart = this.#tokStart;
    let tokDigit = this.#tokDigit;
    let tokLetter = this.#tokLetter;
    for (let i = from; i < to; i++) {
      const c = cols[i]!;
      const col = c < kCols ? c : c === kKelvin ? 107 : 0;
      st = delta[st * kCols + col]!;
      if (st >= firstOut) this.#emitKeywords(st, off + i + 1, i + 1 < to ? cols[i + 1]! : -1, emit);
      const k = c < kCols ? cls[c]! : 0;
      if (k === kLetter) {
        if (tokStart < 0) {
          tokStart = off + i;
          tokDigit = false;
        }
        tokLetter = true;
        if (runStart >= 0) {
          if (runDigits >= minDigits || this.#runPiece) this.#endRun(runStart, runEnd, runDigits, runSep, c, emit);
          runStart = -1;
          runSep = false;
        }
        continue;
      }
      if (k === kDigit) {
        const g = off + i;
        if (tokStart < 0) {
          tokStart = g;
          tokLetter = false;
        }
        tokDigit = true;
        if (runStart < 0) {
          runStart = g;
          runDigits = 0;
          this.#runPiece = false;
          this.#seps = 0;
          this.#runFirst = c;
          this.#runBefore = -1;
        }
        runDigits++;
        runEnd = g + 1;
        runSep = false;
        if (runEnd - runStart >= kMaxRunSpan) {
          // Report this piece now and go on with the next one: windows stay bounded. The run goes on,
          // so what follows the piece is not known yet: its shapes' after sides pass.
          this.#after1 = -1;
          this.#after2 = -1;
          this.#flushRun(runStart, runEnd, runDigits, emit);
          // The stretch without separators the piece ends in goes on in the next (see #flushPiece).
          this.#carry = this.#seps > 0 ? runDigits - sepAt[this.#seps - 1]! : (this.#runPiece ? this.#carry : 0) + runDigits;
          runStart = runEnd;
          runDigits = 0;
          this.#runPiece = true;
          this.#seps = 0;
        }
        continue;
      }
      // Neither letter nor digit: ends a token (a separator too)…
      if (tokStart >= 0) {
        const len = off + i - tokStart;
        if (len <= maxTok && tokFrom[len + 1]! > tokFrom[len]!) this.#endToken(tokStart, off + i, tokDigit, tokLetter, emit);
        tokStart = -1;
      }
      if (runStart < 0) continue;
      // …and a digit run, unless it is a separator right after a digit (once).
      if (k === kSep && !runSep && runEnd === off + i) {
        runSep = true;
        const k2 = this.#seps++;
        sepAt[k2] = runDigits;
        sepChars[k2] = c;
      } else {
        if (runDigits >= minDigits || this.#runPiece) this.#endRun(runStart, runEnd, runDigits, runSep, c, emit);
        runStart = -1;
        runSep = false;
      }
    }
    if (runStart >= 0 && this.#runBefore < 0) this.#runBefore = this.#bytesBefore(cols, from, runStart - off);
    this.#tail = this.#bytesBefore(cols, from, to);
    this.#cols = null;
    this.#st = st;
    this.#pos = off + to;
    this.#runStart = runStart;
    this.#runDigits = runDigits;
    this.#runEnd = runEnd;
    this.#runSep = runSep;
    this.#tokStart = tokStart;
    this.#tokDigit = tokDigit;
    this.#tokLetter = tokLetter;
    if (this.#joinsOpen > 0) this.#flushJoins(emit);
  }

  /** End of text: report the run and token in progress. */
  finish(emit: EmitCandidate): void {
    if (this.#runStart >= 0) this.#endRun(this.#runStart, this.#runEnd, this.#runDigits, this.#runSep, -1, emit);
    this.#runStart = -1;
    if (this.#tokStart >= 0) {
      const len = this.#pos - this.#tokStart;
      if (len <= this.#t.maxTokenLen) this.#endToken(this.#tokStart, this.#pos, this.#tokDigit, this.#tokLetter, emit);
    }
    this.#tokStart = -1;
  }

  /** The three column bytes before `cols[i]` (nearest lowest), those before `from` from `#tail`. */
  #bytesBefore(cols: Uint8Array, from: number, i: number): number {
    let b = this.#tail;
    for (let j = Math.max(from, i - 3); j < i; j++) b = ((b << 8) | cols[j]!) & 0xffffff;
    return b;
  }

  /**
   * The run [s, e) of `digits` digits ended before the character `next` (-1: the end of the text),
   * `sep` when a separator followed its last digit: the characters after it are noted for the shapes,
   * and it is reported.
   */
  #endRun(s: number, e: number, digits: number, sep: boolean, next: number, emit: EmitCandidate): void {
    // A separator after the last digit is the last one logged.
    this.#after1 = sep ? this.#sepChars[this.#seps - 1]! : next;
    this.#after2 = sep ? next : -1;
    this.#flushRun(s, e, digits, emit);
  }

  /** True when the run being flushed, starting at `s`, has digit rule i's shape (`RunShape`; see the tables). */
  #shapeOk(i: number, s: number): boolean {
    const t = this.#t;
    if (((t.digitFirst[i]! >> (this.#runFirst - 48)) & 1) === 0) return false;
    const sides = t.digitSides;
    const at = 8 * i;
    if (sides[at + 1] !== 0) {
      const b = this.#beforeBytes(s);
      if (!this.#sideOk(i, 0, b & 0xff, (b >>> 8) & 0xff, b >>> 16)) return false;
    }
    if (sides[at + 3] !== 0 && !this.#sideOk(i, 1, this.#after1, this.#after2, -1)) return false;
    // The sub-run's sides: inside the run, a separator, then a digit beyond it (48 stands for it).
    if (sides[at + 5] !== 0) {
      const b = this.#blockFrom >= 0 ? this.#sepChars[this.#blockFrom]! | (48 << 8) : this.#beforeBytes(s);
      if (!this.#sideOk(i, 2, b & 0xff, (b >>> 8) & 0xff, b >>> 16)) return false;
    }
    if (sides[at + 7] !== 0) {
      const to = this.#blockTo;
      if (!(to >= 0 ? this.#sideOk(i, 3, this.#sepChars[to]!, 48, -1) : this.#sideOk(i, 3, this.#after1, this.#after2, -1))) return false;
    }
    const within = t.digitGroups[4 * i]!;
    if (within > 0) {
      // Separators are logged with the digits before them, in order.
      if (t.digitGroups[4 * i + 3] !== 0 && (this.#seps === 0 || this.#sepAt[0]! >= within)) return false;
      let bit0 = 0;
      for (let q = 0; q < this.#seps; q++) {
        const at = this.#sepAt[q]!;
        if (at >= within) break;
        const bit = t.sepBit[this.#sepChars[q]!]!;
        if (q === 0) {
          if (at !== t.digitGroups[4 * i + 1] || (bit & t.digitGroups[4 * i + 2]!) === 0) return false;
          bit0 = bit;
        } else if (bit !== bit0) return false;
      }
    }
    return true;
  }

  /**
   * Side k of digit rule i's shape, for the characters x0, x1, x2 going away from the run (or sub-run;
   * -1 for one not seen yet, which passes): past the side's skip character, if x0 is it, its next
   * `count` characters are in its set.
   */
  #sideOk(i: number, k: number, x0: number, x1: number, x2: number): boolean {
    const t = this.#t;
    const at = 8 * i + 2 * k;
    const row = 128 * (4 * i + k);
    const skip = t.digitSides[at]!;
    let p = skip !== 0 && x0 === skip ? 1 : 0;
    for (const end = p + t.digitSides[at + 1]!; p < end; p++) {
      const ch = p === 0 ? x0 : p === 1 ? x1 : x2;
      if (ch < 0) return true;
      if (ch >= kCols || t.digitSideSets[row + ch] === 0) return false;
    }
    return true;
  }

  /** `#runBefore` of the run starting at `s`, taken now if no shape needed it yet. */
  #beforeBytes(s: number): number {
    // A run that started in an earlier call had its bytes taken when that call ended.
    if (this.#runBefore < 0) this.#runBefore = this.#cols !== null ? this.#bytesBefore(this.#cols, this.#from, s - this.#off) : this.#tail;
    return this.#runBefore;
  }

  /** The keywords ending at `end`, before the column byte `next` (-1: the end of the piece). */
  #emitKeywords(st: number, end: number, next: number, emit: EmitCandidate): void {
    const t = this.#t;
    for (let j = t.outStart[st]!; j < t.outStart[st + 1]!; j++) {
      const rule = t.outRule[j]!;
      if (rule >= t.ruleCount) this.#ctxEnd[rule - t.ruleCount] = end;
      else if (t.joinGap[rule]! > 0) this.#join(rule, end - t.outLen[j]!, end, next, emit);
      else this.#report(rule, end - t.outLen[j]!, end, emit);
    }
  }

  /** A keyword hit of a joined rule (`PrefilterSpec.joins`). */
  #join(rule: number, s: number, e: number, next: number, emit: EmitCandidate): void {
    const t = this.#t;
    if (!this.#contextPasses(rule, s)) return;
    const row = t.nextOf[rule]!;
    if (row >= 0 && next >= 0 && (next >= kCols || t.nextCols[row + next] === 0)) return;
    const js = this.#joinStart[rule]!;
    if (js >= 0) {
      const je = this.#joinEnd[rule]!;
      const lo = Math.min(s, js);
      const hi = Math.max(e, je);
      if (s <= je + t.joinGap[rule]! && hi - lo <= t.joinSpan[rule]!) {
        this.#joinStart[rule] = lo;
        this.#joinEnd[rule] = hi;
        return;
      }
      emit(rule, js, je);
    } else {
      this.#joinsOpen++;
    }
    this.#joinStart[rule] = s;
    this.#joinEnd[rule] = e;
  }

  /** Reports every open joined span, in rule order. */
  #flushJoins(emit: EmitCandidate): void {
    const starts = this.#joinStart;
    for (let r = 0; r < starts.length && this.#joinsOpen > 0; r++) {
      const js = starts[r]!;
      if (js < 0) continue;
      starts[r] = -1;
      this.#joinsOpen--;
      emit(r, js, this.#joinEnd[r]!);
    }
  }

  /**
   * Reports a trigger, unless its rule is screened by context and no context word ended within
   * `within` before its start. (A word may end past the start; that only lets the trigger through.)
   */
  #report(rule: number, s: number, e: number, emit: EmitCandidate): void {
    if (this.#contextPasses(rule, s)) emit(rule, s, e);
  }

  /** False when `rule` is screened by context and no context word ended within its reach before `s`. */
  #contextPasses(rule: number, s: number): boolean {
    const within = this.#t.ctxWithin[rule]!;
    return !(within > 0 && this.#ctxEnd[rule]! <= s - within);
  }

  #flushRun(s: number, e: number, digits: number, emit: EmitCandidate): void {
    if (e <= s) return;
    const t = this.#t;
    if (this.#runPiece) {
      this.#flushPiece(s, e, digits, emit);
      return;
    }
    // Sub-runs per separator set, replayed from the logged separators: a separator outside a set
    // ends that set's sub-run. Each sub-run long enough fires its set's rules, once per run (stamped
    // with the run's generation, so nothing needs clearing between runs).
    this.#gen++;
    const sub = this.#subStart;
    const subSep = this.#subSep;
    const sets = sub.length;
    for (let j = 0; j < sets; j++) {
      sub[j] = 0;
      subSep[j] = -1;
    }
    const masks = t.setMasks;
    const setMin = t.setMin;
    for (let k = 0; k < this.#seps; k++) {
      const at = this.#sepAt[k]!;
      const bit = t.sepBit[this.#sepChars[k]!]!;
      for (let j = 0; j < sets; j++) {
        if ((masks[j]! & bit) !== 0) continue;
        if (at - sub[j]! >= setMin[j]!) {
          this.#blockFrom = subSep[j]!;
          this.#blockTo = at === digits ? -1 : k;
          this.#endSubRun(j, at - sub[j]!, s, e, emit);
        }
        sub[j] = at;
        subSep[j] = k;
      }
    }
    for (let j = 0; j < sets; j++) {
      if (digits - sub[j]! >= setMin[j]!) {
        this.#blockFrom = subSep[j]!;
        this.#blockTo = -1;
        this.#endSubRun(j, digits - sub[j]!, s, e, emit);
      }
    }
  }

  /**
   * A piece of an overlong run (cut every kMaxRunSpan characters, so no window grows with a hostile
   * body). The rules of contiguous digits (the separator set without separators) wake only for a
   * stretch between separators whose length is in their range, the piece's first stretch counted on
   * from the pieces before (`#carry`): a megabyte of four-digit groups (adv/digit-runs) woke
   * cn-resident-id, a rule of 17-18 contiguous digits, in 585 windows, and fi-hetu's gate in every
   * piece. Every other digit rule wakes (its sub-runs through the piece are not told apart), except, in
   * a piece with no separator, the rules whose longest value is shorter than the piece's digits: every
   * sub-run through such a piece holds all of them (adv/repeat-0: a megabyte of one digit woke each
   * rule 4,096 times).
   */
  #flushPiece(s: number, e: number, digits: number, emit: EmitCandidate): void {
    const t = this.#t;
    const fired = this.#fired;
    const gen = ++this.#gen;
    const j0 = t.pureSet;
    if (j0 >= 0) {
      let prev = -this.#carry;
      for (let q = 0; q <= this.#seps; q++) {
        const at = q < this.#seps ? this.#sepAt[q]! : digits;
        if (at > Math.max(prev, 0) && at - prev >= t.setMin[j0]!) this.#endSubRun(j0, at - prev, s, e, emit, false);
        prev = at;
      }
      for (let k = t.setFrom[j0]!, to = t.setFrom[j0 + 1]!; k < to; k++) fired[t.setIdx[k]!] = gen;
    }
    const pure = this.#seps === 0;
    for (let i = 0; i < t.digitRule.length; i++) {
      if (fired[i] === gen) continue;
      if (!pure || digits <= t.digitMax[i]!) this.#report(t.digitRule[i]!, s, e, emit);
    }
  }

  /**
   * A sub-run of `c` digits of separator set j ended: its set's rules whose digit range holds c fire.
   * `shaped` false: a stretch of a piece of an overlong run, whose sides are not known (see `#flushPiece`).
   */
  #endSubRun(j: number, c: number, s: number, e: number, emit: EmitCandidate, shaped = true): void {
    const t = this.#t;
    const fired = this.#fired;
    const gen = this.#gen;
    const idx = t.setIdx;
    // A set's rules are in ascending minimum order.
    for (let k = t.setFrom[j]!, to = t.setFrom[j + 1]!; k < to; k++) {
      const i = idx[k]!;
      if (t.digitMin[i]! > c) break;
      // Stamped once it passes: with a block shape, a later sub-run of the run may pass where this one did not.
      if (c <= t.digitMax[i]! && fired[i] !== gen && (!shaped || this.#shapeOk(i, s))) {
        fired[i] = gen;
        this.#report(t.digitRule[i]!, s, e, emit);
      }
    }
  }

  #endToken(s: number, end: number, hasDigit: boolean, hasLetter: boolean, emit: EmitCandidate): void {
    const t = this.#t;
    const len = end - s;
    for (let k = t.tokFrom[len]!, to = t.tokFrom[len + 1]!; k < to; k++) {
      const f = t.tokFlags[k]!;
      if ((f & 1) !== 0 && !hasDigit) continue;
      if ((f & 2) !== 0 && !hasLetter) continue;
      this.#report(t.tokRule[k]!, s, end, emit);
    }
  }
}
