import { describe, expect, it } from 'vitest';
import { allRuleDefs, kConfidenceRank } from '../../src/rules/index.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';
import { re2WasmBackend, v8Backend, type RegexBackend } from '../../src/engine/index.js';

/** Every whole match of `pattern` in `text`, through one backend. */
function allMatches(backend: RegexBackend, pattern: string, ignoreCase: boolean, text: string): string[] {
  const p = backend.compile(pattern, ignoreCase, 0);
  const out: string[] = [];
  for (let m = p.exec(text, 0); m !== null; m = p.exec(text, m.end > m.start ? m.end : m.start + 1)) out.push(text.slice(m.start, m.end));
  return out;
}

// Every rule's plain-text examples, through the reference matcher (the engine runs all of them, with
// their content types, in test/engine).
describe.each(allRuleDefs.map((r) => [r.id, r] as const))('rule %s', (_id, rule) => {
  it('pattern compiles in RE2 and matches what V8 matches on the examples', () => {
    for (const ex of [...rule.examples.positive, ...rule.examples.negative]) {
      const ic = rule.ignoreCase === true;
      expect(allMatches(re2WasmBackend, rule.pattern, ic, ex.text), ex.text).toEqual(allMatches(v8Backend, rule.pattern, ic, ex.text));
    }
  });
  it('has examples of both kinds', () => {
    expect(rule.examples.positive.length).toBeGreaterThan(0);
    expect(rule.examples.negative.length).toBeGreaterThan(0);
  });
  it.each(rule.examples.positive.map((e, i) => [i, e] as const).filter(([, e]) => e.contentType === undefined))('finds positive %i', (_i, ex) => {
    const matches = referenceMatches(rule, ex.text, 'low');
    const found = matches.map((m) => m.value);
    expect(found.length).toBeGreaterThan(0);
    if (ex.match !== undefined) expect(found).toContain(ex.match);
    // At the level the example states (default: the rule's own).
    const level = kConfidenceRank[ex.confidence ?? rule.confidence ?? 'high'];
    const graded = ex.match === undefined ? matches : matches.filter((m) => m.value === ex.match);
    expect(graded.map((m) => m.rank)).toContain(level);
    // The engine only looks where the trigger fires: every match must touch a trigger span.
    const spans = referenceTriggerSpans(rule, ex.text);
    for (const m of matches) {
      expect(spans.some(([s, e]) => s < m.end + rule.maxLength && e > m.start - rule.maxLength)).toBe(true);
      expect(m.end - m.start).toBeLessThanOrEqual(rule.maxLength);
    }
  });
  it.each(rule.examples.negative.map((e, i) => [i, e] as const).filter(([, e]) => e.contentType === undefined))('ignores negative %i', (_i, ex) => {
    expect(referenceMatches(rule, ex.text, 'low')).toEqual([]);
  });
});
