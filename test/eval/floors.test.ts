/**
 * Accuracy floors on the small slice of the labelled corpus, generated into a temp dir: every rule
 * (all rules on) finds every value planted for it, and the default rules raise nothing on the clean
 * slice. No rule is excused: a placement a rule cannot handle fails here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { generateCorpus } from '../../scripts/corpus/generate.js';
import { runEval, type EvalResult } from '../../scripts/eval.js';

let dir = '';
let result: EvalResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'leakscan-eval-'));
  const manifests = generateCorpus({ out: dir, small: true });
  // The slice must plant every rule, or a rule would pass the floors below vacuously.
  expect(new Set(manifests.labelled.plants.map((p) => p.rule))).toEqual(new Set(allRuleDefs.map((r) => r.id)));
  result = await runEval(dir);
}, 60_000);

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe('labelled slice, all rules', () => {
  for (const rule of allRuleDefs) {
    it(`${rule.id} finds every planted value`, () => {
      const score = result.allRules.rules.find((r) => r.rule === rule.id);
      expect(score?.planted).toBeGreaterThan(0);
      expect(result.allRules.misses.filter((m) => m.rule === rule.id)).toEqual([]);
    });
  }
});

describe('clean slice, default rules', () => {
  it('raises nothing', () => {
    expect(result.clean.byRule).toEqual({});
    expect(result.clean.findings).toBe(0);
  });
});
