import { expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { redact } from '../../src/redact/index.js';
import type { Finding } from '../../src/types.js';

/** Scans one example body; implementations differ (backend, chunking, pool). */
export type ScanFn = (body: Uint8Array, contentType: string) => Promise<Finding[]>;

/**
 * Every managed rule's own examples, run through a scanner implementation (hono's shared-case
 * pattern) that reports every confidence level: positives must be reported by their rule with the
 * expected value at the expected level, negatives not at all.
 */
export function runExampleCases(scan: ScanFn): void {
  const cases = allRuleDefs.flatMap((rule) => [
    ...rule.examples.positive.map((ex, i) => ({ rule, ex, i, positive: true })),
    ...rule.examples.negative.map((ex, i) => ({ rule, ex, i, positive: false })),
  ]);
  it.each(cases.map((c) => [`${c.rule.id} ${c.positive ? 'positive' : 'negative'} ${c.i}`, c] as const))('%s', async (_name, c) => {
    const findings = (await scan(Buffer.from(c.ex.text, 'utf8'), c.ex.contentType ?? 'text/plain')).filter((f) => f.ruleId === c.rule.id);
    if (!c.positive) {
      expect(findings).toEqual([]);
      return;
    }
    expect(findings.length).toBeGreaterThan(0);
    if (c.ex.match !== undefined) expect(findings.map((f) => f.redacted)).toContain(redact(c.ex.match));
    const level = c.ex.confidence ?? c.rule.confidence ?? 'high';
    const graded = c.ex.match === undefined ? findings : findings.filter((f) => f.redacted === redact(c.ex.match!));
    expect(graded.map((f) => f.confidence)).toContain(level);
  });
}
