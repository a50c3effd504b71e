import { describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';

// Every rule's plain-text examples, through the reference matcher (the engine runs all of them, with
// their content types, in test/engine).
describe.each(allRuleDefs.map((r) => [r.id, r] as const))('rule %s', (_id, rule) => {
  it('has examples of both kinds', () => {
    expect(rule.examples.positive.length).toBeGreaterThan(0);
    expect(rule.examples.negative.length).toBeGreaterThan(0);
  });
  it.each(rule.examples.positive.map((e, i) => [i, e] as const).filter(([, e]) => e.contentType === undefined))('finds positive %i', (_i, ex) => {
    const matches = referenceMatches(rule, ex.text);
    const found = matches.map((m) => m.value);
    expect(found.length).toBeGreaterThan(0);
    if (ex.match !== undefined) expect(found).toContain(ex.match);
    // The engine only looks where the trigger fires: every match must touch a trigger span.
    const spans = referenceTriggerSpans(rule, ex.text);
    for (const m of matches) {
      expect(spans.some(([s, e]) => s < m.end + rule.maxLength && e > m.start - rule.maxLength)).toBe(true);
      expect(m.end - m.start).toBeLessThanOrEqual(rule.maxLength);
    }
  });
  it.each(rule.examples.negative.map((e, i) => [i, e] as const).filter(([, e]) => e.contentType === undefined))('ignores negative %i', (_i, ex) => {
    expect(referenceMatches(rule, ex.text)).toEqual([]);
  });
});
