import { reaches, type Confidence, type RuleDef, type RunMatch } from '../rules/types.js';
import { ruleTags } from '../rules/index.js';
import { compileChecks, contextReach, withoutContextRank, type MatchChecks } from './checks.js';
import { screenOf } from './screens.js';
import { kBase64JsonDecoder } from './decoded.js';
import { keywordJoins } from './groups.js';
import { newTriggerPass, PrefilterTables, type PrefilterChoice, type PrefilterSpec, type TriggerPass } from './prefilter.js';
import type { CompiledPattern, RegexBackend } from './backend/index.js';
import { compileForValue } from './value-tail.js';

/** One rule, ready to confirm candidates. */
export interface CompiledRule {
  readonly def: RuleDef;
  readonly index: number;
  readonly tags: string[];
  readonly pattern: CompiledPattern;
  readonly checks: MatchChecks;
  readonly maxLength: number;
  /** How far before its first trigger a match can start (`RuleDef.lead`, default maxLength). */
  readonly lead: number;
  /** How far before the trigger at `start` a match can start, from the text (`RuleDef.leadAt`); null: `lead`. */
  readonly leadAt: ((text: string, start: number) => number) | null;
  /** Characters of context each side beyond maxLength (context words, boundary character). */
  readonly reach: number;
  /**
   * For a digit or token rule whose context words all come before the match and are ASCII: how far
   * before a candidate's start the last context word must end for the candidate to be worth a
   * pattern call (`maxLength + context.before`); 0 when candidates are not screened this way. The
   * prefilter applies it (`PrefilterSpec.context`): screened candidates never reach the matcher.
   */
  readonly contextScreen: number;
  /** Index into `Program.screens` of the rule's screen (see src/engine/screens.ts), or -1. */
  readonly screen: number;
  /** Index into `Program.gates` of the rule's run gate (`RuleDef.runGate`), or -1. */
  readonly gate: number;
  /** The rule's match worked out from its run (`RuleDef.runMatch`), tried before a pattern call; null: none. */
  readonly runMatch: RunMatch | null;
  /** A keyword rule's gate on a group of its hits (`RuleDef.hitGate`); null: none. */
  readonly hitGate: NonNullable<RuleDef['hitGate']> | null;
}

/** One alternation of the patterns of the rules that share a screen (see src/engine/screens.ts). */
export interface Screen {
  readonly name: string;
  readonly pattern: CompiledPattern;
  /** The longest match its members accept (their largest `maxLength`). */
  readonly maxLength: number;
}

/**
 * The selected rules compiled once into one program: the prefilter's shared tables plus each rule's
 * pattern and checks. A program is immutable; every scan makes its own `Prefilter` state from `spec`.
 */
export interface Program {
  readonly rules: readonly CompiledRule[];
  /** The lowest confidence this program reports (rules and context levels below it were left out). */
  readonly minConfidence: Confidence;
  readonly spec: PrefilterSpec;
  readonly backend: RegexBackend;
  /**
   * How far before the first trigger of a group its window can start, for any rule (`lead + reach`,
   * with a floor for the run gates' look back): text that far before the next trigger must be kept.
   */
  readonly maxReach: number;
  readonly screens: readonly Screen[];
  /** The distinct run gates of the rules (a gate shared by several rules is asked once per run). */
  readonly gates: ReadonlyArray<NonNullable<RuleDef['runGate']>>;
  /**
   * A prefilter state for one scan: the native pass where it is built, else the TypeScript one
   * (`impl` forces one; they report the same events).
   */
  newPrefilter(impl?: PrefilterChoice): TriggerPass;
}

/**
 * `backend.compile` put off until the pattern is first searched: a scan compiles only the rules its
 * triggers woke, and a command starts without compiling a hundred patterns in each thread. Programs
 * are compiled from the managed rules only, whose patterns the conformance suite compiles on every
 * backend; patterns a user writes (ruleset expressions) are compiled at once, where errors belong.
 */
function compileOnUse(backend: RegexBackend, source: string, ignoreCase: boolean, group: number): CompiledPattern {
  // The first call compiles and puts the compiled pattern's own methods in place: later calls go
  // straight to them. (A backend's methods never use `this`.)
  const compile = (): CompiledPattern => {
    const compiled = compileForValue(backend, source, ignoreCase, group);
    lazy.exec = compiled.exec;
    if (lazy.execBytes !== undefined) lazy.execBytes = compiled.execBytes!;
    if (lazy.execColumns !== undefined) lazy.execColumns = compiled.execColumns!;
    return compiled;
  };
  const lazy: CompiledPattern = { exec: (text, from) => compile().exec(text, from) };
  if (backend.bytes === true) lazy.execBytes = (bytes, from) => compile().execBytes!(bytes, from);
  if (backend.columns?.(source) === true) lazy.execColumns = (cols, from) => compile().execColumns!(cols, from);
  return lazy;
}

/** Characters before a digit run or token that a run gate may read (they read a handful). */
const kGateLookBack = 64;

/**
 * Compiles `selected` for `backend`, reporting findings of confidence `minConfidence` and above
 * (default `high`): a rule whose own level is lower is left out, and context that is optional at a
 * lower level stays required.
 */
export function compileProgram(selected: readonly RuleDef[], backend: RegexBackend, minConfidence: Confidence = 'high', options: { decodeBase64?: boolean } = {}): Program {
  const chosen = selected.filter((d) => reaches(d.confidence ?? 'high', minConfidence));
  // A program with rules decodes base64 JSON once (src/engine/decoded.ts) unless told not to.
  const defs = chosen.length > 0 && options.decodeBase64 !== false ? [...chosen, kBase64JsonDecoder] : chosen;
  // A screen of one rule would only add a call. Screens run on native RE2 only: re2-wasm's automaton
  // budget is fixed at 8 MB, so an alternation crawls there (its text/sparse/1MB fell from 3.0 to
  // 0.7 MB/s with them), and V8, the conformance reference, lacks RE2's `(?i:…)` used below for
  // case-insensitive members. Without screens the results are the same, only slower.
  const screenMembers = new Map<string, RuleDef[]>();
  if (backend.name === 're2') {
    for (const def of defs) {
      const name = screenOf(def.id);
      if (name !== undefined) screenMembers.set(name, [...(screenMembers.get(name) ?? []), def]);
    }
  }
  const screens: Screen[] = [];
  const screenIndex = new Map<string, number>();
  for (const [name, members] of screenMembers) {
    if (members.length < 2) continue;
    screenIndex.set(name, screens.length);
    const source = members.map((d) => (d.ignoreCase === true ? `(?i:${d.pattern})` : `(?:${d.pattern})`)).join('|');
    screens.push({ name, pattern: compileOnUse(backend, source, false, 0), maxLength: Math.max(...members.map((d) => d.maxLength)) });
  }
  const gates: Array<NonNullable<RuleDef['runGate']>> = [];
  const gateOf = (def: RuleDef): number => {
    if ('keywords' in def.trigger) return -1;
    const validate = def.validate;
    // A rule whose value is its run or token: its validator is its gate (one per rule). For a token,
    // a non-ASCII neighbour passes: a case-insensitive pattern takes the Kelvin sign for K, which
    // splits a token. A digit run has no such neighbour to lose (its patterns are digits and
    // separators), so its validator decides alone, and its run shape may follow from it.
    if (def.valueIsRun === true && validate !== undefined) {
      if ('digits' in def.trigger) return gates.push((text, start, end) => validate(text.slice(start, end))) - 1;
      return gates.push((text, start, end) => validate(text.slice(start, end)) || text.charCodeAt(start - 1) > 0x7f || text.charCodeAt(end) > 0x7f) - 1;
    }
    if (def.runGate === undefined) return -1;
    const i = gates.indexOf(def.runGate);
    return i >= 0 ? i : gates.push(def.runGate) - 1;
  };
  for (const def of defs) {
    // `next` is one ASCII class: a case-insensitive pattern would also take the other case (and the
    // Kelvin sign for K) after its keyword.
    if ('keywords' in def.trigger && def.trigger.next !== undefined && def.ignoreCase === true) {
      throw new Error(`rule ${def.id}: trigger.next is for case-sensitive rules`);
    }
  }
  const rules: CompiledRule[] = defs.map((def, index) => ({
    def,
    index,
    tags: ruleTags(def),
    pattern: compileOnUse(backend, def.pattern, def.ignoreCase === true, def.group ?? 0),
    checks: compileChecks(def, minConfidence),
    maxLength: def.maxLength,
    lead: Math.min(def.lead ?? def.maxLength, def.maxLength),
    leadAt: 'keywords' in def.trigger ? (def.leadAt ?? null) : null,
    reach: contextReach(def),
    contextScreen: screensByContext(def) && withoutContextRank(def, minConfidence) === 0 ? def.maxLength + def.context!.before : 0,
    screen: screenIndex.get(screenOf(def.id) ?? '') ?? -1,
    gate: gateOf(def),
    // A decoder's match is decoded, never reported: it keeps the search loop's handling.
    runMatch: def.decodes === undefined ? (def.runMatch ?? null) : null,
    hitGate: 'keywords' in def.trigger ? (def.hitGate ?? null) : null,
  }));
  const spec: { [K in keyof PrefilterSpec]-?: Array<NonNullable<PrefilterSpec[K]>[number]> } = { keywords: [], digits: [], tokens: [], context: [], joins: [] };
  for (const r of rules) {
    const t = r.def.trigger;
    if ('keywords' in t) for (const k of t.keywords) spec.keywords.push({ text: k, rule: r.index });
    else if ('digits' in t) {
      spec.digits.push({
        rule: r.index,
        min: t.digits.min,
        separators: t.digits.separators ?? ' -.',
        ...(t.digits.max !== undefined ? { max: t.digits.max } : {}),
        ...(t.digits.shape !== undefined ? { shape: t.digits.shape } : {}),
      });
    }
    else
      spec.tokens.push({
        rule: r.index,
        min: t.token.min,
        max: t.token.max,
        needsDigit: t.token.needsDigit ?? true,
        needsLetter: t.token.needsLetter ?? false,
      });
  }
  for (const r of rules) if (r.contextScreen > 0) spec.context.push({ rule: r.index, within: r.contextScreen, words: r.def.context!.words });
  spec.joins.push(...keywordJoins(rules));
  const tables = new PrefilterTables(spec);
  // A future trigger starts at the prefilter's `minFutureStart` or later, and a window starts at most
  // `lead + reach` before its group's first trigger (`Matcher.#windowStart`); run gates read a few
  // characters before their run. Rules with long values and a short lead (keys, JWTs) no longer make
  // every compaction keep their whole length.
  const maxReach = rules.reduce((m, r) => Math.max(m, r.lead + r.reach), kGateLookBack);
  return { rules, minConfidence, spec, backend, maxReach, screens, gates, newPrefilter: (impl?: PrefilterChoice) => newTriggerPass(tables, impl) };
}

/** `program` with every scan on the given prefilter (the bench's and the conformance suite's A/B). */
export function withPrefilter(program: Program, impl: PrefilterChoice): Program {
  return { ...program, newPrefilter: () => program.newPrefilter(impl) };
}

/**
 * `program` with every group confirmed by its rule's pattern, none by `RuleDef.runMatch`: the
 * reference of the differential tests and the bench's A/B (the findings are the same).
 */
export function withoutRunMatch(program: Program): Program {
  return { ...program, rules: program.rules.map((r) => ({ ...r, runMatch: null })) };
}

/**
 * Digit and token rules fire on most numbers of a page; those that also need a context word before
 * the match (Presidio-style) are screened at the candidate: no context word ended recently, no
 * window. Keyword rules are few per body and keep the window-level check, as do rules with context
 * after the match (not yet seen when the candidate comes) or with non-ASCII words (the shared pass
 * folds ASCII case only; see `foldColumn` in the prefilter for the one non-ASCII fold it knows).
 */
function screensByContext(def: RuleDef): boolean {
  const ctx = def.context;
  if (ctx === undefined || 'keywords' in def.trigger) return false;
  if ((ctx.after ?? 0) > 0) return false;
  return ctx.words.every((w) => w.length > 0 && /^[\x01-\x7f]+$/.test(w));
}
