import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passesFor } from '../../bench/anchors.js';
import { anchorFigures, evaluateAnchorGoals, processRatio, roundSpeed, type AnchorBody, type AnchorsResult } from '../../bench/anchors-report.js';
import { compileBaseline } from '../../bench/baselines.js';
import { buildHarness, HsHarness, parseHsLine } from '../../bench/hyperscan.js';
import { parseReferencePatterns, referenceAlternation, referenceHsFile, rulesHsFile } from '../../bench/reference-patterns.js';
import { parseGnuTime, type ToolRuns } from '../../bench/secretlint.js';
import type { RuleDef } from '../../src/rules/types.js';

const kPatterns = JSON.stringify({
  about: 'test',
  patterns: [
    { name: 'ssn', re: '\\b[0-9]{3}-[0-9]{2}-[0-9]{4}\\b' },
    { name: 'akia', re: '\\bAKIA[0-9A-Z]{16}\\b' },
  ],
});

function tool(t: 'leakscan' | 'secretlint', corpus: string, cpu: number | null, wall: number): ToolRuns {
  return { tool: t, corpus, runs: [], findings: 0, medianCpuMs: cpu, medianWallMs: wall };
}

describe('bench anchors: reference patterns', () => {
  it('read the shared file shape and refuse any other', () => {
    expect(parseReferencePatterns(kPatterns)).toEqual([
      { name: 'ssn', re: '\\b[0-9]{3}-[0-9]{2}-[0-9]{4}\\b' },
      { name: 'akia', re: '\\bAKIA[0-9A-Z]{16}\\b' },
    ]);
    expect(() => parseReferencePatterns('{}')).toThrow(/no "patterns"/);
    expect(() => parseReferencePatterns('{"patterns":[{"name":"x"}]}')).toThrow(/entry 0/);
  });

  it('make one global Unicode V8 alternation that counts every pattern\'s matches', () => {
    const spec = referenceAlternation(parseReferencePatterns(kPatterns));
    expect(spec.source).toBe('(?:\\b[0-9]{3}-[0-9]{2}-[0-9]{4}\\b)|(?:\\bAKIA[0-9A-Z]{16}\\b)');
    expect(spec.flags).toBe('gu');
    const body = Buffer.from('id 123-45-6789 key AKIAABCDEFGHIJKLMNOP and 1234-56-7890 é 987-65-4321');
    expect(compileBaseline(spec).run(body)).toBe(3);
    expect(() => referenceAlternation([])).toThrow();
  });

  it('write Hyperscan pattern files: no flags for the reference, i and u for rules that need them', () => {
    expect(referenceHsFile(parseReferencePatterns(kPatterns))).toBe('-\t\\b[0-9]{3}-[0-9]{2}-[0-9]{4}\\b\n-\t\\bAKIA[0-9A-Z]{16}\\b\n');
    const rules = [
      { pattern: 'ghp_[A-Za-z0-9]{36}' },
      { pattern: 'password[ :=]+\\S+', ignoreCase: true },
      { pattern: 'é{2}', ignoreCase: false },
      { pattern: '\\p{L}+', ignoreCase: true },
    ] as unknown as RuleDef[];
    expect(rulesHsFile(rules)).toBe('-\tghp_[A-Za-z0-9]{36}\n' + 'i\tpassword[ :=]+\\S+\n' + 'u\té{2}\n' + 'iu\t\\p{L}+\n');
    expect(() => rulesHsFile([{ pattern: 'a\nb' }] as unknown as RuleDef[])).toThrow(/line break/);
  });
});

describe('bench anchors: the Hyperscan harness', () => {
  it('parse every line it prints', () => {
    expect(parseHsLine('db 1 113 112 103 15242.3')).toEqual({ kind: 'db', db: 1, patterns: 113, accepted: 112, som: 103, compileMs: 15242.3 });
    expect(parseHsLine('reject 1 97 Pattern is too large.')).toEqual({ kind: 'reject', db: 1, index: 97, message: 'Pattern is too large.' });
    expect(parseHsLine('nosom 0 3 Pattern is too large.')).toMatchObject({ kind: 'nosom', db: 0, index: 3 });
    expect(parseHsLine('body 2 1048576')).toEqual({ kind: 'body', body: 2, bytes: 1048576 });
    expect(parseHsLine('ready')).toEqual({ kind: 'ready' });
    expect(parseHsLine('scan 0 1 5 1048576 8290 63355935 63361908\n')).toEqual({ kind: 'scan', db: 0, body: 1, passes: 5, bytes: 1048576, matches: 8290, cpuNs: 63355935, wallNs: 63361908 });
    expect(() => parseHsLine('scan 0 1 five')).toThrow(/unexpected line/);
    expect(() => parseHsLine('hs-bench: oops')).toThrow(/unexpected line/);
  });

  const build = buildHarness();
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (build.status === 'ok') rmSync(build.dir, { recursive: true, force: true });
  });

  // Runs where libhyperscan-dev is installed; elsewhere building says why (the bench prints it).
  it.skipIf(build.status !== 'ok')('compile pattern files, name what it refuses, and count matches with start of match', async () => {
    if (build.status !== 'ok') return;
    const dir = mkdtempSync(join(tmpdir(), 'leakscan-test-hs-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.hs'), referenceHsFile(parseReferencePatterns(kPatterns)));
    writeFileSync(join(dir, 'b.hs'), 'i\takia[0-9A-Z]{16}\n-\t(unclosed\n');
    writeFileSync(join(dir, 'body'), 'id 123-45-6789 key AKIAABCDEFGHIJKLMNOP and 987-65-4321');
    const { harness, databases } = await HsHarness.start(build.binary, [join(dir, 'a.hs'), join(dir, 'b.hs')], [join(dir, 'body')]);
    try {
      expect(databases[0]).toMatchObject({ patterns: 2, accepted: 2, som: 2, rejected: [] });
      expect(databases[1]).toMatchObject({ patterns: 2, accepted: 1, som: 1 });
      expect(databases[1]!.rejected.map((r) => r.index)).toEqual([1]);
      const a = await harness.scan(0, 0, 3);
      expect(a).toMatchObject({ passes: 3, bytes: 55, matches: 3 });
      expect(a.cpuMs).toBeGreaterThanOrEqual(0);
      expect((await harness.scan(1, 0, 1)).matches).toBe(1);
    } finally {
      harness.close();
    }
  }, 60_000);

  it('say why when Hyperscan is not there', () => {
    if (build.status === 'skipped') expect(build.reason).toMatch(/libhyperscan-dev|failed/);
    else expect(build.library).toMatch(/^libhs/);
  });
});

describe('bench anchors: whole processes', () => {
  it('read GNU time\'s CPU time and peak memory, after its exit-status line', () => {
    expect(parseGnuTime('Command exited with non-zero status 1\n2.46 1.45 0.21 124780\n')).toEqual({ cpuMs: 1660, maxRssMB: 124780 / 1024 });
    expect(parseGnuTime('0.64 0.54 0.09 103772')).toMatchObject({ maxRssMB: 103772 / 1024 });
    expect(() => parseGnuTime('Command terminated by signal 9')).toThrow(/GNU time/);
  });

  it('give secretlint\'s time over leakscan\'s, on CPU when both have it', () => {
    const tools = [tool('leakscan', 'sparse', 500, 600), tool('secretlint', 'sparse', 1500, 1200), tool('leakscan', 'dense', null, 800), tool('secretlint', 'dense', 400, 400)];
    expect(processRatio(tools, 'sparse')).toEqual({ cpu: 3, wall: 2 });
    expect(processRatio(tools, 'dense')).toEqual({ cpu: null, wall: 0.5 });
    expect(processRatio(tools, 'start-up')).toBeNull();
  });
});

describe('bench anchors: figures and goals', () => {
  it('size turns to the slice, one to 64 passes', () => {
    expect(passesFor(10, 100)).toBe(10);
    expect(passesFor(300, 100)).toBe(1);
    expect(passesFor(0, 100)).toBe(64);
  });

  // Two bodies per density, two rounds; MiB-sized bodies so MB/s reads easily: 1.048576 MB per pass.
  const mib = 1024 * 1024;
  const s = (ms: number, passes = 1, cpuMs = ms) => ({ cpuMs, wallMs: ms, passes });
  const bodies: AnchorBody[] = [
    { body: 'json/sparse/1MB', density: 'sparse', bytes: mib, counts: { engine: 1, 'hs-ref': 2 }, samples: { engine: [s(10), s(20)], 'hs-ref': [s(10, 2), s(10, 1)] } },
    { body: 'xml/sparse/1MB', density: 'sparse', bytes: mib, counts: { engine: 3, 'hs-ref': 4 }, samples: { engine: [s(10), s(20)], 'hs-ref': [s(10, 2), s(10, 1)] } },
    { body: 'json/dense/1MB', density: 'dense', bytes: mib, counts: { engine: 5, v8: 6 }, samples: { engine: [s(50, 1, 40), s(50, 1, 40)], v8: [s(25), s(25)] } },
    { body: 'xml/dense/1MB', density: 'dense', bytes: mib, counts: { engine: 7, v8: 8 }, samples: { engine: [s(50, 1, 40), s(50, 1, 40)], v8: [s(25), s(25)] } },
  ];

  it('take a density\'s MB/s over its bodies, passes included, on either clock', () => {
    expect(roundSpeed(bodies, 'sparse', 'hs-ref', 0, 'wall')).toBeCloseTo((4 * mib) / 1e6 / 0.02, 6);
    expect(roundSpeed(bodies, 'dense', 'engine', 0, 'cpu')).toBeCloseTo((2 * mib) / 1e6 / 0.08, 6);
    expect(roundSpeed(bodies, 'dense', 'hs-ref', 0, 'cpu')).toBeNull();
  });

  it('pair the engine with each contender round by round and take the median', () => {
    const f = anchorFigures(bodies);
    expect(f.map((x) => `${x.density}/${x.who}`)).toEqual(['sparse/engine', 'sparse/hs-ref', 'dense/engine', 'dense/v8']);
    const hs = f.find((x) => x.who === 'hs-ref')!;
    // Round 1: engine 1 pass in 10 ms, Hyperscan 2 in 10 ms: 0.5×; round 2: 20 ms and 1 in 10 ms: 0.5×.
    expect(hs.engineCpu).toBeCloseTo(0.5, 9);
    const v8 = f.find((x) => x.who === 'v8')!;
    expect(v8.engineCpu).toBeCloseTo(25 / 40, 9);
    expect(v8.engineWall).toBeCloseTo(0.5, 9);
  });

  it('hold issue 36\'s goals to the CPU ratios and report what was not measured', () => {
    const result: AnchorsResult = {
      status: 'ok',
      backend: 're2',
      rules: 2,
      reference: { status: 'ok', path: 'x', patterns: 2 },
      hyperscan: { status: 'skipped', reason: 'test' },
      rounds: 2,
      sliceMs: 10,
      bodies,
      processes: { status: 'ok', corpora: [], rounds: 3, secretlint: 'secretlint', tools: [tool('leakscan', 'sparse', 500, 600), tool('secretlint', 'sparse', 1500, 1200), tool('leakscan', 'dense', 400, 400), tool('secretlint', 'dense', 400, 400)] },
      loadavg: { start: [1], end: [1] },
      seconds: 1,
    };
    const goals = evaluateAnchorGoals(result);
    expect(goals.map((g) => [g.goal, g.pass])).toEqual([
      ['dense ≥ 1× the V8 alternation of the reference patterns', false],
      ['dense ≥ 0.5× Hyperscan on the reference patterns', undefined],
      ['sparse ≥ 1× Hyperscan on the reference patterns', false],
      ['leakscan scan ≥ 2× faster than secretlint (whole processes)', false],
    ]);
    expect(goals[3]!.items.map((i) => [i.label, i.value, i.pass])).toEqual([
      ['sparse, CPU', 3, true],
      ['dense, CPU', 1, false],
    ]);
    expect(evaluateAnchorGoals({ status: 'skipped', message: 'x' }).every((g) => g.pass === undefined)).toBe(true);
  });
});
