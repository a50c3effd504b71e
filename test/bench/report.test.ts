import { describe, expect, it } from 'vitest';
import { evaluateGoals, type CaseResult, type GrowthPair } from '../../bench/report.js';

/** A measured case with only what the goals read. */
function measured(ruleSet: string, bodyKind: string, size: string, p50: number): CaseResult {
  return {
    name: `${ruleSet}/${bodyKind}/${size}`,
    backend: 're2',
    ruleSet,
    body: `${bodyKind}/${size}`,
    bodyKind,
    size,
    bytes: size === '1MB' ? 1 << 20 : 1 << 17,
    planted: 0,
    findings: 0,
    engine: { p50, p99: p50, mean: p50, samples: 10, mbps: 1, inThread: true },
  };
}

describe('bench goals: growth', () => {
  const cases = [
    measured('default', 'json/sparse', '128KB', 1),
    measured('default', 'json/sparse', '1MB', 12), // medians minutes apart: 12×
    measured('default', 'xml/sparse', '128KB', 1),
    measured('default', 'xml/sparse', '1MB', 8.5),
  ];
  const growth = (pairs: GrowthPair[]) => evaluateGoals(cases, ['default'], pairs).find((g) => g.goal.startsWith('growth'))!;

  it('takes a pair measured in alternation over the two medians', () => {
    const g = growth([{ ruleSet: 'default', bodyKind: 'json/sparse', ratio: 8.2, rounds: [8.1, 8.2, 8.4] }]);
    expect(g.items).toEqual([
      { label: 'json/sparse', value: 8.2, bound: 'exact', pass: true },
      { label: 'xml/sparse', value: 8.5, bound: 'exact', pass: true },
    ]);
    expect(g.pass).toBe(true);
  });

  it('falls back to the medians, and fails past 9, where no pair was measured', () => {
    const g = growth([{ ruleSet: 'all', bodyKind: 'json/sparse', ratio: 8.2, rounds: [8.2] }]);
    expect(g.items.find((i) => i.label === 'json/sparse')).toEqual({ label: 'json/sparse', value: 12, bound: 'exact', pass: false });
    expect(g.pass).toBe(false);
  });
});
