import { describe, expect, it } from 'vitest';
import { compileBaseline, kWindowChars, re2Alternation, windowsOf } from '../../bench/baselines.js';
import { piecesOf } from '../../bench/bodies.js';
import { evaluateGoals, evaluatePoolGoals, fmtAgainst, formatGoals, formatPoolGoals, formatPool, kHostFullCores, pairedRatio, poolSplit, poolThreadsLine, poolSpeedup, poolWhenHostFull, type BaselineResult, type CaseResult, type GrowthPair } from '../../bench/report.js';
import type { PoolPhaseResult, PoolThroughput } from '../../bench/pool.js';
import type { RuleDef } from '../../src/rules/types.js';

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

  it('checks the adversarial bodies too, from their pairs (they have no 128 KB case)', () => {
    const g = growth([
      { ruleSet: 'default', bodyKind: 'json/sparse', ratio: 8.2, rounds: [8.2] },
      { ruleSet: 'default', bodyKind: 'adv/a-dot', ratio: 9.4, rounds: [9.4] },
    ]);
    expect(g.items.map((i) => [i.label, i.value, i.pass])).toEqual([
      ['json/sparse', 8.2, true],
      ['adv/a-dot', 9.4, false],
      ['xml/sparse', 8.5, true],
    ]);
    expect(g.pass).toBe(false);
  });

  it('names an adversarial body the time budget left without a pair as not measured', () => {
    const adv = (name: string): CaseResult => ({ ...measured('default', 'adv', '1MB', 9), body: name });
    const goals = evaluateGoals([...cases, adv('adv/a-dot'), adv('adv/base64')], ['default'], [
      { ruleSet: 'default', bodyKind: 'adv/a-dot', ratio: 7.5, rounds: [7.5] },
    ]);
    const g = goals.find((x) => x.goal.startsWith('growth'))!;
    expect(g.items.map((i) => i.label)).toEqual(['adv/a-dot', 'json/sparse', 'xml/sparse']);
    expect(g.missing).toEqual(['adv/base64']);
    expect(formatGoals([g])).toContain('not measured (time budget): adv/base64');
  });

  it('cuts a 1 MiB body into its 128 KiB pieces at UTF-8 character starts, losing no byte', () => {
    // 'é' is two bytes: with a one-byte lead, every second cut lands on a continuation byte.
    const bytes = Buffer.from('a' + 'é'.repeat(40_000), 'utf8');
    const pieces = piecesOf(bytes, 8);
    expect(pieces).toHaveLength(8);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    for (const p of pieces) {
      expect(p[0]! & 0xc0).not.toBe(0x80);
      expect(Math.abs(p.length - bytes.length / 8)).toBeLessThanOrEqual(2);
    }
    expect(piecesOf(Buffer.alloc(1 << 20, 0x61), 8).map((p) => p.length)).toEqual(Array(8).fill(1 << 17));
  });

  it('falls back to the medians, and fails past 9, where no pair was measured', () => {
    const g = growth([{ ruleSet: 'all', bodyKind: 'json/sparse', ratio: 8.2, rounds: [8.2] }]);
    expect(g.items.find((i) => i.label === 'json/sparse')).toEqual({ label: 'json/sparse', value: 12, bound: 'exact', pass: false });
    expect(g.pass).toBe(false);
  });
});

describe('bench goals: baseline (b) measured paired', () => {
  const withB = (engineP50: number, b: BaselineResult): CaseResult => ({ ...measured('default', 'text/sparse', '1MB', engineP50), b });
  const bGoal = (c: CaseResult) => evaluateGoals([c], ['default']).find((g) => g.goal.includes('baseline (b)'))!;

  it('pairs each round of (b) with the engine time of its share of the body', () => {
    // Two halves: the machine is twice as slow during the second, for both sides.
    expect(pairedRatio([
      { bMs: 300, engineMs: 6, share: 0.5 },
      { bMs: 600, engineMs: 12, share: 0.5 },
    ])).toBeCloseTo(100, 10);
    // Unequal shares weigh the engine's time by share: (100 + 500) / (4 × 0.25 + 8 × 0.75).
    expect(pairedRatio([
      { bMs: 100, engineMs: 4, share: 0.25 },
      { bMs: 500, engineMs: 8, share: 0.75 },
    ])).toBeCloseTo(600 / 7, 10);
    expect(pairedRatio([])).toBe(Number.POSITIVE_INFINITY);
  });

  it('judges the goal on the paired ratio, not on the two medians', () => {
    // The medians alone: 600 ms / 7 ms = 85.7× (the engine measured in a slow moment).
    const rounds = [{ bMs: 600, engineMs: 5.5, share: 1 }];
    const paired = withB(7, { status: 'ok', p50: 600, p99: 600, mbps: 1.7, count: 0, samples: 1, paired: { ratio: pairedRatio(rounds), rounds } });
    const g = bGoal(paired);
    expect(g.items[0]!.value).toBeCloseTo(600 / 5.5, 10);
    expect(g.pass).toBe(true);
    const unpaired = withB(7, { status: 'ok', p50: 600, p99: 600, mbps: 1.7, count: 0, samples: 1 });
    expect(bGoal(unpaired).items[0]!.value).toBeCloseTo(600 / 7, 10);
    expect(bGoal(unpaired).pass).toBe(false);
  });
});

describe('bench goals: pool speed-up paired by round', () => {
  it('never prints a failing figure as the goal itself (nor a passing one)', () => {
    expect(fmtAgainst(1.7962, 1.8)).toBe('1.796');
    expect(fmtAgainst(1.8004, 1.8)).toBe('1.8004');
    expect(fmtAgainst(1.79999, 1.8)).toBe('1.79999');
    expect(fmtAgainst(1.8, 1.8)).toBe('1.80');
    expect(fmtAgainst(1.76, 1.8)).toBe('1.76');
  });

  const item = (workers: number, rounds: number[]): PoolThroughput => ({
    workers,
    corpus: 'batch',
    bodies: 200,
    bytes: 12e6,
    rounds: rounds.map((mbps) => ({ ms: 12e3 / mbps, mbps, cpuPerWall: workers })),
    mbps: [...rounds].sort((a, b) => a - b)[rounds.length >> 1]!,
    cpuPerWall: workers,
    findings: 10,
  });
  const phase = (one: PoolThroughput, two: PoolThroughput): PoolPhaseResult =>
    ({ status: 'ok', backend: 're2', throughput: [one, two], warmup: { batchPerWorker: 24, big: 4 }, memory: [], corpus: {}, loadavg: { start: [0, 0, 0], end: [0, 0, 0] }, cores: 2, seconds: 1, memoryMethod: '' }) as unknown as PoolPhaseResult;

  /** The pool table of a phase, with a batch corpus of 200 bodies. */
  const poolTable = (p: PoolPhaseResult): string =>
    formatPool({ ...p, corpus: { batch: { bodies: 200, bytes: 12e6, minBytes: 16384, maxBytes: 131072, dense: 50 }, big: { bodies: 2, bytes: 2e6 } } } as PoolPhaseResult, 2);

  it('takes the median of each round\'s 2-worker figure over the 1-worker one beside it', () => {
    // Pairs 1.9, 1.9, 1.29: median 1.9 passes, where the medians' ratio (40 / 30) would fail.
    const [pass] = evaluatePoolGoals(phase(item(1, [10, 30, 31]), item(2, [19, 57, 40])));
    expect(pass!.items[0]!.value).toBeCloseTo(1.9, 6);
    expect(pass!.pass).toBe(true);
    // Pairs 1.5, 3.8, 1.5: median 1.5 fails, where the medians' ratio (38 / 20) would pass.
    const one = item(1, [20, 10, 30]);
    const two = item(2, [30, 38, 45]);
    expect(two.mbps / one.mbps).toBeCloseTo(1.9, 6);
    expect(poolSpeedup(one, two)).toBeCloseTo(1.5, 6);
    const [fail] = evaluatePoolGoals(phase(one, two));
    expect(fail!.pass).toBe(false);
  });

  it('falls back to the two medians when the rounds do not pair up', () => {
    expect(poolSpeedup(item(1, [20, 22]), item(2, [30, 40, 50]))).toBeCloseTo(40 / 22, 6);
    expect(poolSplit(item(1, [20, 22]), item(2, [30, 40, 50]))).toBeNull();
  });

  it('judges the pool on its own rounds and reads it against bare engine threads measured in the same rounds', () => {
    const bare = (w: number, rounds: number[]): PoolThroughput => ({ ...item(w, rounds), kind: 'bare' });
    // Bare threads listed first, and faster: the verdict still comes from the pool's items.
    const p = { ...phase(item(1, [30, 30, 30]), item(2, [45, 45, 45])) } as PoolPhaseResult & { throughput: PoolThroughput[] };
    p.throughput = [bare(1, [40, 40, 40]), bare(2, [60, 60, 60]), ...p.throughput];
    const [speed] = evaluatePoolGoals(p);
    expect(speed!.items[0]!.value).toBeCloseTo(1.5, 6);
    const text = formatPoolGoals(evaluatePoolGoals(p), p);
    expect(text).toContain('the engine alone in two bare threads over one: 1.50× (40.0 and 60.0 MB/s)');
    expect(text).toContain("the pool's ratio is 100% of what this machine gave two scanning threads");
  });

  it('prints the pool in the rounds where the host gave two whole cores beside the verdict, which counts every round', () => {
    const kind = (k: 'bare' | 'compute', w: number, rounds: number[]): PoolThroughput => ({ ...item(w, rounds), kind: k });
    // Host (compute loop) per round: 2.0, 1.5, 1.95, 1.5, 1.9; the pool 1.85, 1.4, 1.8, 1.45, 1.5; bare 1.9, 1.5, 1.85, 1.5, 1.55.
    const p = { ...phase(item(1, [20, 20, 20, 20, 20]), item(2, [37, 28, 36, 29, 30])) } as PoolPhaseResult & { throughput: PoolThroughput[] };
    p.throughput = [
      ...p.throughput,
      kind('bare', 1, [20, 20, 20, 20, 20]),
      kind('bare', 2, [38, 30, 37, 30, 31]),
      kind('compute', 1, [100, 100, 100, 100, 100]),
      kind('compute', 2, [200, 150, 195, 150, 190]),
    ];
    const full = poolWhenHostFull(p.throughput)!;
    expect(full).toMatchObject({ rounds: 3, of: 5 });
    expect(full.pool).toBeCloseTo(1.8, 6); // rounds 1, 3, 5: 1.85, 1.8, 1.5
    expect(full.bare).toBeCloseTo(1.85, 6);
    const goals = evaluatePoolGoals(p);
    expect(goals[0]!.items[0]!.value).toBeCloseTo(1.5, 6); // every round: 1.85 1.4 1.8 1.45 1.5
    expect(goals[0]!.pass).toBe(false);
    const text = formatPoolGoals(goals, p);
    expect(text).toContain(`a compute loop with no engine and nothing allocated made 1.90× in two threads over one; in the 3 of 5 rounds where it reached ${kHostFullCores.toFixed(2)}× (two whole cores), the pool made 1.80× and the bare engine threads 1.85×`);
    const table = poolTable(p);
    expect(table).toContain('after a warm-up of 24 passes over the batch corpus per worker and 4 over the 1 MiB bodies');
    expect(table).toContain('compute loop threads 1.90×');
    expect(table).toContain('batch: compute loop threads (host)');
    // A host that never gave two whole cores says so; a run without the compute rounds prints nothing of it.
    p.throughput[5] = kind('compute', 2, [150, 150, 150, 150, 150]);
    expect(poolWhenHostFull(p.throughput)).toMatchObject({ rounds: 0, of: 5 });
    expect(formatPoolGoals(goals, p)).toContain(`in no round did it reach ${kHostFullCores.toFixed(2)}×`);
    p.throughput = p.throughput.slice(0, 4);
    expect(poolWhenHostFull(p.throughput)).toBeNull();
    expect(formatPoolGoals(goals, p)).not.toContain('compute loop');
  });

  it('splits the speed-up into cores kept busy and work per CPU-second, and prints both with the bound', () => {
    // 1 worker: 1.25 cores busy; 2 workers: 1.9. Per CPU-second: 40 / 1.25 = 32 against 57 / 1.9 = 30.
    const one = { ...item(1, [40, 40, 40]), cpuPerWall: 1.25 };
    one.rounds = one.rounds.map((r) => ({ ...r, cpuPerWall: 1.25 }));
    const two = { ...item(2, [57, 57, 57]), cpuPerWall: 1.9 };
    two.rounds = two.rounds.map((r) => ({ ...r, cpuPerWall: 1.9 }));
    const split = poolSplit(one, two)!;
    expect(split.cores).toBeCloseTo(1.52, 6);
    expect(split.perCpu).toBeCloseTo(30 / 32, 6);
    expect(split.cores * split.perCpu).toBeCloseTo(poolSpeedup(one, two), 6);
    const text = formatPoolGoals(evaluatePoolGoals(phase(one, two)), phase(one, two));
    expect(text).toContain('split: 1.52× the cores kept busy × 0.94× the work per CPU-second');
    expect(text).toContain('1.25 cores bound the first factor to 1.60× on 2 cores');
  });

  it('says what the calling and other threads took beside the workers, and the bound it leaves two workers', () => {
    const one = { ...item(1, [50, 50, 50]), threads: { scan: 0.98, calling: 0.06, other: 0.04 } };
    const two = { ...item(2, [90, 90, 90]), threads: { scan: 1.82, calling: 0.1, other: 0.06 } };
    const line = poolThreadsLine(one, two, 2)!;
    expect(line).toContain('1 worker 0.98, calling thread 0.06, other threads 0.04; 2 workers 1.82, calling thread 0.10, other threads 0.06');
    expect(line).toContain("the pool's other threads took 0.16 of the 2 cores (with one, 0.10 on the idle core)");
    // (2 - 0.16) / 0.98 = 1.88: the cores left to two workers, at the lone worker's CPU per round.
    expect(line).toContain('at most 1.88×');
    // Threads that take nothing leave two whole cores: the bound is twice one worker, not more.
    expect(poolThreadsLine({ ...one, threads: { scan: 0.9, calling: 0, other: 0 } }, { ...two, threads: { scan: 1.8, calling: 0, other: 0 } }, 2)).toContain('at most 2.00×');
    expect(poolThreadsLine(item(1, [50]), two, 2)).toBeNull();
    const p = phase(one, two);
    expect(formatPoolGoals(evaluatePoolGoals(p), p)).toContain(line);
    const table = poolTable(p);
    expect(table).toMatch(/scan\/calling\/other/);
    expect(table).toContain('1.82 0.10 0.06');
  });
});

describe('bench baseline (b) windows', () => {
  it('cover the text in overlapping windows of at most 64 KiB, never splitting a surrogate pair', () => {
    const text = 'a'.repeat(kWindowChars - 1) + '\u{1F600}' + 'b'.repeat(3 * kWindowChars);
    const spans = windowsOf(text, 100);
    expect(spans[0]).toEqual([0, kWindowChars + 1]); // the pair straddling the end stays whole
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]![0]).toBeLessThanOrEqual(spans[i - 1]![1] - 100);
      expect(spans[i]![1] - spans[i]![0]).toBeLessThanOrEqual(kWindowChars + 1);
    }
    expect(spans.at(-1)![1]).toBe(text.length);
  });

  it('times a subset of the windows and counts the ones that match', () => {
    const spec = re2Alternation([{ id: 't', pattern: 'needle[0-9]', maxLength: 7 } as RuleDef])!;
    const run = compileBaseline(spec);
    const text = 'x'.repeat(70_000) + 'needle7' + 'x'.repeat(200_000);
    const spans = windowsOf(text, spec.overlap);
    expect(spans.length).toBeGreaterThan(3);
    const first = run.timeWindows!(text, spans.slice(0, 2), true);
    expect(first.count).toBe(1); // the second window holds the needle
    expect(first.ms).toBeGreaterThanOrEqual(0);
    expect(run.timeWindows!(text, spans.slice(2), false).count).toBe(0);
    expect(run.run(Buffer.from(text))).toBe(1);
  });
});
