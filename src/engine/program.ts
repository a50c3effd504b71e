import type { RuleDef } from '../rules/types.js';
import { ruleTags } from '../rules/index.js';
import { compileChecks, contextReach, type MatchChecks } from './checks.js';
import { Prefilter, PrefilterTables, type PrefilterSpec } from './prefilter.js';
import type { CompiledPattern, RegexBackend } from './backend/index.js';

/** One rule, ready to confirm candidates. */
export interface CompiledRule {
  readonly def: RuleDef;
  readonly index: number;
  readonly tags: string[];
  readonly pattern: CompiledPattern;
  readonly checks: MatchChecks;
  readonly maxLength: number;
  /** Characters of context each side beyond maxLength (context words, boundary character). */
  readonly reach: number;
}

/**
 * The selected rules compiled once into one program: the prefilter's shared tables plus each rule's
 * pattern and checks. A program is immutable; every scan makes its own `Prefilter` state from `spec`.
 */
export interface Program {
  readonly rules: readonly CompiledRule[];
  readonly spec: PrefilterSpec;
  readonly backend: RegexBackend;
  /** Largest window margin of any rule: how far back text must be kept. */
  readonly maxReach: number;
  newPrefilter(): Prefilter;
}

export function compileProgram(defs: readonly RuleDef[], backend: RegexBackend): Program {
  const rules: CompiledRule[] = defs.map((def, index) => ({
    def,
    index,
    tags: ruleTags(def),
    pattern: backend.compile(def.pattern, def.ignoreCase === true, def.group ?? 0),
    checks: compileChecks(def),
    maxLength: def.maxLength,
    reach: contextReach(def),
  }));
  const spec: { keywords: PrefilterSpec['keywords'][number][]; digits: PrefilterSpec['digits'][number][]; tokens: PrefilterSpec['tokens'][number][] } = {
    keywords: [],
    digits: [],
    tokens: [],
  };
  for (const r of rules) {
    const t = r.def.trigger;
    if ('keywords' in t) for (const k of t.keywords) spec.keywords.push({ text: k, rule: r.index });
    else if ('digits' in t) {
      spec.digits.push({ rule: r.index, min: t.digits.min, separators: t.digits.separators ?? ' -.', ...(t.digits.max !== undefined ? { max: t.digits.max } : {}) });
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
  const tables = new PrefilterTables(spec);
  const maxReach = rules.reduce((m, r) => Math.max(m, r.maxLength + r.reach), 0);
  return { rules, spec, backend, maxReach, newPrefilter: () => new Prefilter(tables) };
}
