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
import { buildHarness, HsHarness, type HsBuild, type HsDatabase } from './hyperscan.js';
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

/** One turn of a contender: `passes` scans of body number `body`. */
type Scan = (body: number, passes: number) => Promise<AnchorSample & { count: number }>;
type HyperscanStatus = Extract<AnchorsResult, { status: 'ok' }>['hyperscan'];

/**
 * Starts the Hyperscan harness on the reference patterns (when read) and leakscan's rules, with the
 * bodies as files in `dir`; adds a contender for each database Hyperscan accepted patterns of.
 */
async function startHyperscan(
  build: HsBuild,
  dir: string,
  bodies: readonly Body[],
  reference: readonly ReferencePattern[] | null,
  o: AnchorsOptions,
  scans: Map<AnchorContender, Scan>,
): Promise<{ hyperscan: HyperscanStatus; harness: HsHarness | null }> {
  if (build.status === 'skipped') {
    o.log(`anchors  Hyperscan skipped: ${build.reason}`);
    return { hyperscan: { status: 'skipped', reason: build.reason }, harness: null };
  }
  const files = [...(reference === null ? [] : [join(dir, 'reference.hs')]), join(dir, 'rules.hs')];
  if (reference !== null) writeFileSync(files[0]!, referenceHsFile(reference));
  writeFileSync(files[files.length - 1]!, rulesHsFile(o.rules));
  const bodyFiles = bodies.map((b, i) => {
    const f = join(dir, `body-${i}`);
    writeFileSync(f, b.bytes);
    return f;
  });
  const t0 = Date.now();
  let hs: Awaited<ReturnType<typeof HsHarness.start>>;
  try {
    hs = await HsHarness.start(build.binary, files, bodyFiles);
  } catch (err) {
    const reason = `harness failed: ${(err as Error).message}`;
    o.log(`anchors  Hyperscan skipped: ${reason}`);
    return { hyperscan: { status: 'skipped', reason }, harness: null };
  }
  const dbRef: HsDatabase | null = reference !== null ? hs.databases[0]! : null;
  const dbRules = hs.databases[hs.databases.length - 1]!;
  const named = (db: HsDatabase, names: readonly string[]) => ({
    ...db,
    rejected: db.rejected.map((r) => ({ ...r, name: names[r.index] ?? '?' })),
    noSom: db.noSom.map((r) => ({ ...r, name: names[r.index] ?? '?' })),
  });
  o.log(
    `anchors  Hyperscan (${build.library}) compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s: ` +
      (dbRef === null ? '' : `reference ${dbRef.accepted}/${dbRef.patterns} (${dbRef.som} with start of match), `) +
      `leakscan's rules ${dbRules.accepted}/${dbRules.patterns} (${dbRules.som} with start of match)`,
  );
  const h = hs.harness;
  const hsScan =
    (db: number): Scan =>
    async (i, passes) => {
      const r = await h.scan(db, i, passes);
      return { cpuMs: r.cpuMs, wallMs: r.wallMs, passes: r.passes, count: r.matches };
    };
  if (dbRef !== null && dbRef.accepted > 0) scans.set('hs-ref', hsScan(0));
  if (dbRules.accepted > 0) scans.set('hs-rules', hsScan(files.length - 1));
  return {
    hyperscan: { status: 'ok', library: build.library, reference: dbRef === null ? null : named(dbRef, reference!.map((p) => p.name)), rules: named(dbRules, o.rules.map((r) => r.id)) },
    harness: h,
  };
}

/**
 * With `--filter anchors` nothing has run the engine's code before, and V8 goes on optimising it for
 * many scans (bench/README.md, the pool phase: about 20 passes over a 10 MB corpus): the engine scans
 * the bodies in turn for `ms`, untimed.
 */
async function warmEngine(program: Program, bodies: readonly Body[], ms: number): Promise<void> {
  const until = performance.now() + ms;
  for (let i = 0; performance.now() < until; i = (i + 1) % bodies.length) {
    const b = bodies[i]!;
    await scanStream(program, [b.bytes], { contentType: b.contentType });
  }
}

/**
 * Warm-up and probe: each contender scans each body for about `kWarmSlices` turns' time; the median of
 * those scans' times sizes its turns (one scan's time swung 8× on this shared machine). Returns the
 * passes per turn and the count of one scan, per contender and body.
 */
async function sizeTurns(scans: ReadonlyMap<AnchorContender, Scan>, bodies: number, sliceMs: number): Promise<{ passes: Map<AnchorContender, number[]>; counts: Map<AnchorContender, number[]> }> {
  const passes = new Map<AnchorContender, number[]>();
  const counts = new Map<AnchorContender, number[]>();
  for (const [c, scan] of scans) {
    const probes: number[] = [];
    const n: number[] = [];
    for (let i = 0; i < bodies; i++) {
      const until = performance.now() + kWarmSlices * sliceMs;
      const times: number[] = [];
      let count = 0;
      do {
        const p = await scan(i, 1);
        times.push(p.wallMs);
        count = p.count;
      } while (performance.now() < until);
      probes.push(median(times));
      n.push(count);
    }
    passes.set(c, probes.map((ms) => passesFor(ms, sliceMs)));
    counts.set(c, n);
  }
  return { passes, counts };
}

/** The rounds: body by body, every contender takes one turn, in an order rotated by the round. */
async function runRounds(scans: ReadonlyMap<AnchorContender, Scan>, passes: ReadonlyMap<AnchorContender, number[]>, bodies: number, rounds: number, log: (msg: string) => void): Promise<Array<Map<AnchorContender, AnchorSample[]>>> {
  const contenders = [...scans.keys()];
  const samples = Array.from({ length: bodies }, () => new Map<AnchorContender, AnchorSample[]>(contenders.map((c) => [c, []])));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < bodies; i++) {
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(k + r) % contenders.length]!;
        const { count: _count, ...s } = await scans.get(c)!(i, passes.get(c)![i]!);
        samples[i]!.get(c)!.push(s);
      }
    }
    log(`anchors  round ${r + 1}/${rounds} done`);
  }
  return samples;
}

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
  try {
    const scans = new Map<AnchorContender, Scan>();
    scans.set('engine', (i, passes) => {
      const b = bodies[i]!;
      return timed(async () => (await scanStream(o.program, [b.bytes], { contentType: b.contentType })).findings.length, passes);
    });
    if (reference !== null) {
      const v8 = compileBaseline(referenceAlternation(reference));
      scans.set('v8', (i, passes) => timed(() => v8.run(bodies[i]!.bytes), passes));
    }
    const hs = await startHyperscan(build, dir, bodies, reference, o, scans);
    harness = hs.harness;

    await warmEngine(o.program, bodies, o.engineWarmMs);
    const { passes, counts } = await sizeTurns(scans, bodies.length, o.sliceMs);
    const contenders = [...scans.keys()];
    o.log(`anchors  warm-up done in ${((Date.now() - started) / 1000).toFixed(1)} s; passes per turn: ${contenders.map((c) => `${c} ${passes.get(c)!.join('/')}`).join(', ')}`);
    const samples = await runRounds(scans, passes, bodies.length, o.rounds, o.log);
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
      hyperscan: hs.hyperscan,
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
