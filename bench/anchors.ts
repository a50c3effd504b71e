/**
 * The anchors phase of `npm run bench` (issue 36, "The bench gets honest anchors"): the engine with the
 * default rules against references that do not move when leakscan does, on the engine cases' 1 MiB
 * bodies (four kinds, sparse and dense), CPU time beside wall time:
 *
 * - one V8 RegExp alternation of the 44 reference patterns (`../shared/bench/reference-patterns.json`),
 *   an `exec` loop over the decoded body, in this thread;
 * - Hyperscan from C (bench/hyperscan.ts) with those patterns and with leakscan's own rules (those it
 *   accepts), start of match where it supports it, in a child process that times its own scan loop;
 * - `secretlint` against `leakscan scan`, whole processes on the same bodies as files
 *   (bench/secretlint.ts).
 *
 * The in-process contenders take turns body by body in each round (the order rotated by the round), so
 * a ratio pairs figures taken within a second of each other; each turn scans the body as many times as
 * fit in about `sliceMs`. CPU time: `process.cpuUsage()` around the engine's and V8's passes (the whole
 * process: V8's helper threads collect the garbage of both), the harness's own CLOCK_PROCESS_CPUTIME_ID
 * around Hyperscan's. The figures are turned into tables and goals by bench/anchors-report.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanStream, type Program } from '../src/engine/index.js';
import type { RuleDef } from '../src/rules/types.js';
import { compileBaseline } from './baselines.js';
import { kContentKinds, kDensities, makeBody, type Body, type Density } from './bodies.js';
import { buildHarness, HsHarness, type HsDatabase } from './hyperscan.js';
import { median } from './measure.js';
import { loadReferencePatterns, referenceAlternation, referenceHsFile, rulesHsFile, type ReferencePattern } from './reference-patterns.js';
import { runProcessPhase, type ProcessPhaseResult } from './secretlint.js';
import type { AnchorBody, AnchorContender, AnchorSample, AnchorsResult } from './anchors-report.js';

export interface AnchorsOptions {
  /** The engine's program of the default rules (the primary backend), and those rules. */
  program: Program;
  rules: readonly RuleDef[];
  backend: string;
  referencePath: string;
  /** The repository, where secretlint runs, and the built command. */
  root: string;
  cliMain: string;
  cliProblem: string | null;
  rounds: number;
  processRounds: number;
  sliceMs: number;
  /** The engine's untimed warm-up on the eight bodies before anything is timed. */
  engineWarmMs: number;
  log: (msg: string) => void;
}

/** Warm-up per contender and body, in turns' time (see the warm-up in `runAnchorsPhase`). */
const kWarmSlices = 3;

/** Passes per turn: as many as fit in `sliceMs` after a probe of `probeMs`, 1 to 64. */
export function passesFor(probeMs: number, sliceMs: number): number {
  return Math.max(1, Math.min(64, Math.round(sliceMs / Math.max(probeMs, 1e-3))));
}

/** CPU and wall milliseconds of `passes` calls of `fn`, and what its last call returned. */
async function timed(fn: () => Promise<number> | number, passes: number): Promise<AnchorSample & { count: number }> {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  let count = 0;
  for (let p = 0; p < passes; p++) count = await fn();
  const wallMs = performance.now() - w0;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs, passes, count };
}

type Scan = (body: number) => Promise<AnchorSample & { count: number }>;

export async function runAnchorsPhase(o: AnchorsOptions): Promise<AnchorsResult> {
  const started = Date.now();
  const load = loadavg();
  const bodies: Body[] = kDensities.flatMap((d) => kContentKinds.map((k) => makeBody(k, d, '1MB')));
  const densityOf = (b: Body): Density => b.name.split('/')[1] as Density;

  let reference: ReferencePattern[] | null = null;
  let referenceNote: string | undefined;
  try {
    reference = loadReferencePatterns(o.referencePath);
  } catch (err) {
    referenceNote = `reference patterns not read from ${o.referencePath}: ${(err as Error).message}`;
    o.log(`anchors  ${referenceNote}`);
  }

  const dir = mkdtempSync(join(tmpdir(), 'leakscan-bench-anchors-'));
  const build = buildHarness();
  let harness: HsHarness | null = null;
  let hyperscan: Extract<AnchorsResult, { status: 'ok' }>['hyperscan'];
  try {
    const scans = new Map<AnchorContender, Scan>();
    const passes = new Map<AnchorContender, number[]>();
    scans.set('engine', (i) => {
      const b = bodies[i]!;
      return timed(async () => (await scanStream(o.program, [b.bytes], { contentType: b.contentType })).findings.length, passes.get('engine')![i]!);
    });
    if (reference !== null) {
      const v8 = compileBaseline(referenceAlternation(reference));
      scans.set('v8', (i) => timed(() => v8.run(bodies[i]!.bytes), passes.get('v8')![i]!));
    }

    if (build.status === 'skipped') {
      hyperscan = { status: 'skipped', reason: build.reason };
      o.log(`anchors  Hyperscan skipped: ${build.reason}`);
    } else {
      const files: string[] = [];
      if (reference !== null) {
        files.push(join(dir, 'reference.hs'));
        writeFileSync(files[files.length - 1]!, referenceHsFile(reference));
      }
      files.push(join(dir, 'rules.hs'));
      writeFileSync(files[files.length - 1]!, rulesHsFile(o.rules));
      const bodyFiles = bodies.map((b, i) => join(dir, `body-${i}`));
      bodies.forEach((b, i) => writeFileSync(bodyFiles[i]!, b.bytes));
      try {
        const t0 = Date.now();
        const hs = await HsHarness.start(build.binary, files, bodyFiles);
        harness = hs.harness;
        const h = harness;
        const dbRef: HsDatabase | null = reference !== null ? hs.databases[0]! : null;
        const dbRules = hs.databases[hs.databases.length - 1]!;
        const named = (db: HsDatabase, names: readonly string[]) => ({
          ...db,
          rejected: db.rejected.map((r) => ({ ...r, name: names[r.index] ?? '?' })),
          noSom: db.noSom.map((r) => ({ ...r, name: names[r.index] ?? '?' })),
        });
        hyperscan = {
          status: 'ok',
          library: build.library,
          reference: dbRef === null ? null : named(dbRef, reference!.map((p) => p.name)),
          rules: named(dbRules, o.rules.map((r) => r.id)),
        };
        o.log(
          `anchors  Hyperscan (${build.library}) compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s: ` +
            (dbRef === null ? '' : `reference ${dbRef.accepted}/${dbRef.patterns} (${dbRef.som} with start of match), `) +
            `leakscan's rules ${dbRules.accepted}/${dbRules.patterns} (${dbRules.som} with start of match)`,
        );
        const hsScan = (db: number, which: AnchorContender): Scan => async (i) => {
          const s = await h.scan(db, i, passes.get(which)![i]!);
          return { cpuMs: s.cpuMs, wallMs: s.wallMs, passes: s.passes, count: s.matches };
        };
        if (dbRef !== null && dbRef.accepted > 0) scans.set('hs-ref', hsScan(0, 'hs-ref'));
        if (dbRules.accepted > 0) scans.set('hs-rules', hsScan(files.length - 1, 'hs-rules'));
      } catch (err) {
        hyperscan = { status: 'skipped', reason: `harness failed: ${(err as Error).message}` };
        o.log(`anchors  Hyperscan skipped: ${hyperscan.reason}`);
      }
    }

    // With `--filter anchors` nothing has run the engine's code before, and V8 goes on optimising it for
    // many scans (bench/README.md, the pool phase: about 20 passes over a 10 MB corpus): the engine first
    // scans the eight bodies in turn for `engineWarmMs`, untimed.
    const warmUntil = performance.now() + o.engineWarmMs;
    for (let i = 0; performance.now() < warmUntil; i = (i + 1) % bodies.length) {
      const b = bodies[i]!;
      await scanStream(o.program, [b.bytes], { contentType: b.contentType });
    }
    // Warm-up and probe: each contender scans each body for about `kWarmSlices` turns' time; the median
    // of those scans' times sizes its turns (one scan's time swung 8× on this shared machine).
    const contenders = [...scans.keys()];
    const counts = new Map<AnchorContender, number[]>();
    for (const c of contenders) {
      passes.set(c, bodies.map(() => 1));
      const probes: number[] = [];
      const n: number[] = [];
      for (const [i] of bodies.entries()) {
        const until = performance.now() + kWarmSlices * o.sliceMs;
        const times: number[] = [];
        let count = 0;
        do {
          const p = await scans.get(c)!(i);
          times.push(p.wallMs);
          count = p.count;
        } while (performance.now() < until);
        probes.push(median(times));
        n.push(count);
      }
      passes.set(c, probes.map((ms) => passesFor(ms, o.sliceMs)));
      counts.set(c, n);
    }
    o.log(`anchors  warm-up done in ${((Date.now() - started) / 1000).toFixed(1)} s; passes per turn: ${contenders.map((c) => `${c} ${passes.get(c)!.join('/')}`).join(', ')}`);

    const samples = bodies.map(() => new Map<AnchorContender, AnchorSample[]>(contenders.map((c) => [c, []])));
    for (let r = 0; r < o.rounds; r++) {
      for (const [i] of bodies.entries()) {
        for (let k = 0; k < contenders.length; k++) {
          const c = contenders[(k + r) % contenders.length]!;
          const { count: _count, ...s } = await scans.get(c)!(i);
          samples[i]!.get(c)!.push(s);
        }
      }
      o.log(`anchors  round ${r + 1}/${o.rounds} done`);
    }

    const out: AnchorBody[] = bodies.map((b, i) => ({
      body: b.name,
      density: densityOf(b),
      bytes: b.bytes.length,
      counts: Object.fromEntries(contenders.map((c) => [c, counts.get(c)![i]!])),
      samples: Object.fromEntries(contenders.map((c) => [c, samples[i]!.get(c)!])),
    }));

    harness?.close();
    harness = null;
    const processes: ProcessPhaseResult = await runProcessPhase({
      root: o.root,
      cliMain: o.cliMain,
      cliProblem: o.cliProblem,
      corpora: kDensities.map((d) => ({ name: d, bodies: bodies.filter((b) => densityOf(b) === d) })),
      rounds: o.processRounds,
      log: o.log,
    });
    if (processes.status !== 'ok') o.log(`anchors  secretlint / leakscan scan: ${processes.status}: ${processes.message}`);

    return {
      status: 'ok',
      backend: o.backend,
      rules: o.rules.length,
      reference: reference === null ? { status: 'skipped', reason: referenceNote ?? 'not read' } : { status: 'ok', path: o.referencePath, patterns: reference.length },
      hyperscan,
      rounds: o.rounds,
      sliceMs: o.sliceMs,
      bodies: out,
      processes,
      loadavg: { start: load, end: loadavg() },
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    harness?.close();
    rmSync(dir, { recursive: true, force: true });
    if (build.status === 'ok') rmSync(build.dir, { recursive: true, force: true });
  }
}
