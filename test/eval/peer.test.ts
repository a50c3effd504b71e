/**
 * Scoring of the peer cases (scripts/eval/peer.ts) on hand-written cases with synthetic values; the
 * shared peer file is not read here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScanner } from '../../src/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { kRuleClass, kUnmappedRules } from '../../scripts/eval/peer-classes.js';
import { formatPeerFailures, formatPeerScore, loadPeerCases, scanPeerCases, scorePeerCase, scorePeerCases, type PeerCase, type SpanFinding } from '../../scripts/eval/peer.js';

const map = { 'rule-a': 'class_a', 'rule-a2': 'class_a', 'rule-b': 'class_b' };

const pos = (id: string, cls: string, text: string, values: string[], extra: Partial<PeerCase> = {}): PeerCase => ({ id, class: cls, text, expect: 'positive', values, peer: 'p', kind: 'test', ...extra });
const neg = (id: string, cls: string, text: string): PeerCase => ({ id, class: cls, text, expect: 'negative', values: [], peer: 'p', kind: 'test' });
const f = (ruleId: string, start: number, end: number): SpanFinding => ({ ruleId, start, end });

/** Appends the Luhn check digit to `body`. */
function luhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

describe('scorePeerCase', () => {
  // "id: " is 4 bytes, so the value 0123456789 spans [4, 14).
  const c = pos('x/1', 'class_a', 'id: 0123456789 end', ['0123456789']);

  it('passes a positive when findings of the class cover at least half of the value', () => {
    expect(scorePeerCase(c, [f('rule-a', 4, 9)], map)).toMatchObject({ pass: true, full: false, coverage: 0.5 });
    expect(scorePeerCase(c, [f('rule-a', 4, 8)], map)).toMatchObject({ pass: false, coverage: 0.4 });
    // Two rules of one class add up; a finding of another class does not count.
    expect(scorePeerCase(c, [f('rule-a', 4, 7), f('rule-a2', 9, 11)], map)).toMatchObject({ pass: true, coverage: 0.5 });
    expect(scorePeerCase(c, [f('rule-b', 0, 18)], map)).toMatchObject({ pass: false, coverage: 0 });
  });

  it('reports full containment only when one finding holds the whole value', () => {
    expect(scorePeerCase(c, [f('rule-a', 0, 18)], map)).toMatchObject({ pass: true, full: true, coverage: 1 });
    expect(scorePeerCase(c, [f('rule-a', 4, 9), f('rule-a2', 9, 14)], map)).toMatchObject({ pass: true, full: false, coverage: 1 });
  });

  it('needs every value, and takes the best occurrence of each', () => {
    const two = pos('x/2', 'class_a', 'AAAA BBBB AAAA', ['AAAA', 'BBBB']);
    expect(scorePeerCase(two, [f('rule-a', 10, 14)], map).pass).toBe(false);
    expect(scorePeerCase(two, [f('rule-a', 10, 14), f('rule-a', 5, 9)], map)).toMatchObject({ pass: true, full: true });
  });

  it('measures in UTF-8 bytes', () => {
    // "여권 " is 7 bytes: the value starts at byte 7, not at character 3.
    const k = pos('x/3', 'class_a', '여권 AB1234567', ['AB1234567']);
    expect(scorePeerCase(k, [f('rule-a', 7, 16)], map)).toMatchObject({ pass: true, full: true });
    expect(scorePeerCase(k, [f('rule-a', 3, 8)], map).pass).toBe(false);
  });

  it('passes a positive with empty values on any finding of the class', () => {
    const e = pos('x/4', 'class_a', 'anything', []);
    expect(scorePeerCase(e, [f('rule-a', 0, 3)], map)).toMatchObject({ pass: true, full: true });
    expect(scorePeerCase(e, [], map).pass).toBe(false);
    expect(scorePeerCase(e, [f('rule-b', 0, 3)], map).pass).toBe(false);
  });

  it('passes a negative only without a finding of its class', () => {
    const n = neg('x/5', 'class_a', 'id: 0123456789');
    expect(scorePeerCase(n, [], map).pass).toBe(true);
    expect(scorePeerCase(n, [f('rule-b', 0, 5), f('unmapped', 0, 5)], map)).toMatchObject({ pass: true, seen: [{ rule: 'rule-b', class: 'class_b' }, { rule: 'unmapped', class: null }] });
    expect(scorePeerCase(n, [f('rule-a2', 4, 14)], map).pass).toBe(false);
  });
});

describe('scorePeerCases', () => {
  const hit = (text: string) => [f('rule-a', 0, text.length)];
  const cases: PeerCase[] = [
    pos('a/1', 'class_a', 'AAAA', ['AAAA']),
    pos('a/weak', 'class_a', 'WWWW', ['WWWW'], { weak: true }),
    pos('a/policy', 'class_a', 'PPPP', ['PPPP'], { policy: true }),
    neg('a/n1', 'class_a', 'nnnn'),
    neg('a/n2', 'class_a', 'NNNN'),
    pos('b/1', 'class_b', 'B1B1', ['B1B1']),
    pos('b/2', 'class_b', 'B2B2', ['B2B2']),
    pos('b/3', 'class_b', 'B3B3', ['B3B3']),
    neg('b/n1', 'class_b', 'bbbb'),
    pos('c/1', 'class_c', 'CCCC', ['CCCC']),
  ];
  const findings = new Map<string, SpanFinding[]>([
    ['a/1', hit('AAAA')],
    ['a/n2', hit('NNNN')],
    ['b/1', [f('rule-b', 0, 4)]],
  ]);
  const score = scorePeerCases(cases, findings, map, 'cases.jsonl');

  it('averages recall and negative pass rate over classes, not cases', () => {
    // class_a 1/1, class_b 1/3: macro 2/3 where the micro average would be 2/4.
    expect(score.headline.macroRecall).toBeCloseTo((1 + 1 / 3) / 2, 10);
    // class_a 1/2, class_b 1/1.
    expect(score.headline.macroNegativePassRate).toBeCloseTo(0.75, 10);
  });

  it('keeps weak and policy positives out of the headline and reports them apart', () => {
    const a = score.classes.find((c) => c.class === 'class_a');
    expect(a).toMatchObject({ positives: { passed: 1, full: 1, total: 1 }, recall: 1, weak: { found: 0, total: 1 }, policy: { found: 0, total: 1 } });
    expect(score.headline.weak).toEqual({ found: 0, total: 1 });
    expect(score.headline.policy).toEqual({ found: 0, total: 1 });
  });

  it('reports classes without a rule as not covered, outside the headline', () => {
    expect(score.headline).toMatchObject({ classes: 3, classesCovered: 2 });
    expect(score.notCovered).toEqual(['class_c']);
    expect(score.classes.find((c) => c.class === 'class_b')?.rules).toEqual(['rule-b']);
    expect(score.failures.map((r) => r.id)).toEqual(['a/n2', 'a/policy', 'a/weak', 'b/2', 'b/3']);
  });

  it('prints ids, classes and rules but never a case text or value', () => {
    const out = formatPeerScore(score) + formatPeerFailures(score);
    expect(out).toContain('b/3');
    expect(out).toContain('not covered');
    for (const c of cases) for (const v of [c.text, ...c.values]) expect(out).not.toContain(v);
  });
});

describe('peer cases end to end', () => {
  it('scans a constructed Luhn-valid card as text/plain and passes it under credit_card', async () => {
    const card = luhn('455601234567890');
    const grouped = card.replace(/(\d{4})(?=\d)/g, '$1 ');
    // The same digits with the check digit off by one fail Luhn.
    const bad = grouped.slice(0, -1) + String((Number(grouped.slice(-1)) + 1) % 10);
    const cases = [pos('own/credit_card/1', 'credit_card', `card number: ${grouped}`, [grouped]), neg('own/credit_card/2', 'credit_card', `card number: ${bad}`)];
    const scanner = await createScanner({ workers: 0, allRules: true });
    try {
      const score = scorePeerCases(cases, await scanPeerCases(cases, scanner), kRuleClass);
      expect(score.classes[0]).toMatchObject({ class: 'credit_card', positives: { passed: 1, full: 1, total: 1 }, negatives: { passed: 1, total: 1 } });
    } finally {
      await scanner.close();
    }
  });

  it('loads JSONL and names the line of a malformed record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leakscan-peer-'));
    try {
      const file = join(dir, 'cases.jsonl');
      writeFileSync(file, JSON.stringify(pos('x/1', 'class_a', 't', ['t'])) + '\n\n' + JSON.stringify({ id: 'x/2', class: 'class_a' }) + '\n');
      expect(() => loadPeerCases(file)).toThrow(/cases\.jsonl:3:/);
      writeFileSync(file, JSON.stringify(pos('x/1', 'class_a', 't', ['t'])) + '\n');
      expect(loadPeerCases(file)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rule → class map', () => {
  const ids = new Set(allRuleDefs.map((r) => r.id));

  it('places every rule in the map or in the unmapped list, not both', () => {
    for (const id of ids) expect(id in kRuleClass !== id in kUnmappedRules, id).toBe(true);
    for (const id of [...Object.keys(kRuleClass), ...Object.keys(kUnmappedRules)]) expect(ids.has(id), id).toBe(true);
  });
});
