/**
 * `npm run bench`: the scanning engine in-thread (`compileProgram` + `scanStream`) over generated text,
 * HTML, JSON and XML bodies (16 KB, 128 KB, 1 MB; sparse and dense) and 1 MB adversarial bodies, for
 * the default and the full rule set, against two naive baselines measured in the same run on the same
 * bodies; the same engine on the other RE2 backend (same cases); the worker pool
 * with 1 and 2 workers (bench/pool.ts); `leakscan scan` on folders of files (bench/cli.ts); and the anchors of
 * issue 36 (bench/anchors.ts: a V8 alternation of the reference patterns, Hyperscan, secretlint). Prints tables and the goal verdicts; `--json` also writes
 * bench/results/latest.json and appends one line to bench/results/history.jsonl.
 *
 *   npm run bench                          full run (≈ 7 min on 2 cores, 1.5 more for the anchors)
 *   npm run bench -- --quick               smoke run: 128 KB and 1 MB, default rules, fewer samples
 *   npm run bench -- --filter json/sparse  only cases whose name contains the text (repeatable)
 *   npm run bench -- --rules default,fixture --baselines a
 *   npm run bench -- --backend re2-wasm    one backend only, no other-backend rows
 *   npm run bench -- --skip-ts-prefilter   no rows with the TypeScript prefilter in place of the native one
 *   npm run bench -- --filter anchors      only the anchors (V8 alternation, Hyperscan, secretlint); --skip-anchors: none
 *
 * See bench/README.md for what each case means and how the baselines are built.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  compileProgram,
  re2NativeBackend,
  re2Status,
  re2WasmBackend,
  resolveBackend,
  scanStream,
  withPrefilter,
  type BackendName,
  type Program,
  type RegexBackend,
} from '../src/engine/index.js';
import { selectRules } from '../src/rules/index.js';
import type { RuleDef } from '../src/rules/types.js';
import { re2Alternation, v8Alternation, type BaselineSpec } from './baselines.js';
import { nativeStatus } from '../src/engine/native.js';
import { BenchWorker, type BenchPrefilter, type EngineBackendName, type RuleSetName } from './worker.js';
import {
  kAdversarialKinds,
  kAdversarialWhy,
  kContentKinds,
  kDensities,
  makeAdversarial,
  makeBody,
  piecesOf,
  type Body,
  type SizeLabel,
} from './bodies.js';
import { kFixtureRules } from './fixture-rules.js';
import { measure, type MeasureOptions } from './measure.js';
import { runPoolPhase, type PoolBackend, type PoolPhaseResult } from './pool.js';
import { builtCliProblem, formatCli, kCliMain, runCliPhase, type CliPhaseResult } from './cli.js';
import { runAnchorsPhase } from './anchors.js';
import { runFleetPhase } from './fleet.js';
import { formatFleet, type FleetPhaseResult } from './fleet-report.js';
import { evaluateAnchorGoals, formatAnchorGoals, formatAnchors, type AnchorsResult } from './anchors-report.js';
import {
  evaluateGoals,
  type GrowthPair,
  evaluatePoolGoals,
  formatBackendCases,
  formatCases,
  formatGoals,
  formatPool,
  formatPoolGoals,
  mbps,
  pairedRatio,
  summarizeBackends,
  type BaselineResult,
  type CaseResult,
} from './report.js';

const kHere = dirname(fileURLToPath(import.meta.url));
const kResultsDir = join(kHere, 'results');

const kUsage =
  'usage: npm run bench -- [--quick] [--filter <text>]... [--rules default,all,fixture] [--baselines a,b|none] [--max-seconds <n>] ' +
  '[--backend auto|re2|re2-wasm] [--backend-cases all|1mb|sparse-1mb|none] [--skip-ts-prefilter] [--skip-pool] [--skip-cli] [--skip-anchors] [--fleet] [--reference-patterns <file>] [--json]';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    filter: { type: 'string', multiple: true },
    rules: { type: 'string' },
    baselines: { type: 'string' },
    'max-seconds': { type: 'string' },
    json: { type: 'boolean', default: false },
    backend: { type: 'string' },
    'backend-cases': { type: 'string' },
    'skip-pool': { type: 'boolean', default: false },
    'skip-cli': { type: 'boolean', default: false },
    'skip-anchors': { type: 'boolean', default: false },
    fleet: { type: 'boolean', default: false },
    'reference-patterns': { type: 'string' },
    'skip-ts-prefilter': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (args.help) {
  console.log(kUsage);
  process.exit(0);
}
const quick = args.quick === true;
/**
 * RE2 backends. The primary one (auto = native `re2` when it loaded, else `re2-wasm`) gets every case,
 * the goals and the baselines; every other backend that loads is measured after it, on the cases
 * `--backend-cases` selects (see `secondaryCase`), and reported relative to it. `--backend` keeps one
 * backend only.
 */
const backendArg = args.backend;
if (backendArg !== undefined && !['auto', 're2', 're2-wasm'].includes(backendArg)) {
  throw new Error(`--backend: unknown backend ${JSON.stringify(backendArg)}\n${kUsage}`);
}
const primaryBackend = resolveBackend((backendArg ?? 'auto') as BackendName);
const backends: RegexBackend[] =
  backendArg !== undefined ? [primaryBackend] : [primaryBackend, ...[re2NativeBackend, re2WasmBackend].flatMap((b) => (b === null || b === primaryBackend ? [] : [b]))];
process.stderr.write(`engine backends: ${backends.map((b, i) => (i === 0 ? `${b.name} (primary)` : b.name)).join(', ')}\n`);
process.stderr.write(`native re2: ${re2Status.unavailable ?? `system ${re2Status.library ?? 'RE2'} (native/re2 binding)`}\n`);
const prefilterStatus = nativeStatus();
process.stderr.write(`prefilter: ${prefilterStatus.prefilter === 'native' ? 'native (C)' : `TypeScript (${prefilterStatus.reason ?? 'native not built'})`}\n`);
/** Whether the primary's 1 MB cases are measured again with the TypeScript prefilter (see `onTsPrefilter`). */
const kTsPrefilterCases = args['skip-ts-prefilter'] !== true;
const filters = args.filter ?? [];
const baselineKinds = new Set((args.baselines ?? 'a,b').split(',').filter((s) => s !== '' && s !== 'none'));
for (const b of baselineKinds) if (b !== 'a' && b !== 'b') throw new Error(`--baselines: unknown baseline ${JSON.stringify(b)}\n${kUsage}`);

/**
 * Samples per case. Fast cases sample for `timeMs`; slow ones get what fits in `caseBudgetMs`. Full:
 * stable medians in the engine share of the run on 2 shared cores; quick: a smoke run.
 */
const kEngineOptions: MeasureOptions = quick
  ? { timeMs: 100, minIterations: 5, caseBudgetMs: 600, warmupMs: 30 }
  : { timeMs: 300, minIterations: 10, caseBudgetMs: 2_000, warmupMs: 100 };
const kBaselineAOptions: MeasureOptions = kEngineOptions;
const kBaselineBOptions: MeasureOptions = quick
  ? { timeMs: 50, minIterations: 3, caseBudgetMs: 400, warmupMs: 0 }
  : { timeMs: 200, minIterations: 5, caseBudgetMs: 1_500, warmupMs: 50 };
/**
 * Hard budgets for the first call of a baseline, past which its worker is terminated: V8 on an
 * adversarial body can run for minutes, and is expected to blow the (smaller) adversarial budget.
 * (b) also stops by itself after `kEstimateAfterMs` and extrapolates from the windows timed so far
 * (re2-wasm can need seconds per window); its hard budget only catches one window slower than that.
 */
const kBudgetMs = {
  a: { body: 30_000, adv: quick ? 2_000 : 5_000 },
  b: { body: 30_000, adv: 30_000 },
} as const;
const kEstimateAfterMs = quick ? 400 : 1_500;
/** Budget of the engine's guarded first scan of a body (see bench/worker.ts), compile time included. */
const kEngineGuardMs = quick ? 30_000 : 60_000;

/**
 * Soft deadline of the whole run. An engine slower than the bench was sized for must not turn the
 * bench into an hour-long job: once a phase has used its share, its remaining cases (the least
 * important first, see `priority`) are reported as skipped. Neither a case already running nor the
 * figures of measured cases are affected. Phases in order of importance: the primary backend's engine
 * cases, the baselines (the goals need both), the pool, the other backends.
 */
const kMaxSeconds = Number(args['max-seconds'] ?? (quick ? 180 : 540));
if (!(kMaxSeconds > 0)) throw new Error(`--max-seconds: expected a positive number\n${kUsage}`);
/** Shares of the deadline at which each phase stops (the pool: at which it may no longer start). */
const kShares = { engine: 0.35, baselines: 0.6, growth: 0.7, poolStart: 0.75, cliStart: 0.8, cliRounds: 0.85, secondary: 1 } as const;
/** Hard bound of each pool child process (bench/pool.ts); it sizes its rounds to fit. */
const kPoolChildMs = quick ? 90_000 : 150_000;
/** The pool phase runs unless skipped, or unless `--filter` is given and none matches "pool". */
const poolWanted = args['skip-pool'] !== true && selected('pool');
/** The command-line phase (bench/cli.ts) likewise, with "cli". */
const cliWanted = args['skip-cli'] !== true && selected('cli');
/** The anchors phase (bench/anchors.ts) likewise, with "anchors". */
const anchorsWanted = args['skip-anchors'] !== true && selected('anchors');
/**
 * The fleet phase (bench/fleet.ts) is opt-in: it needs nats-server and takes minutes, so it runs only
 * with `--fleet` or a `--filter` that matches "fleet".
 */
const fleetWanted = args.fleet === true || (filters.length > 0 && selected('fleet'));
/** The reference patterns of issue 36, shared with the peers' measurements (the team's shared folder). */
const kReferencePatterns = args['reference-patterns'] ?? join(kHere, '..', '..', 'shared', 'bench', 'reference-patterns.json');
/**
 * Anchors: rounds of the in-process contenders (issue 36 measured with five), turns of about `sliceMs`,
 * runs of each whole process (median of three), and the engine's warm-up before them.
 */
const kAnchors = quick ? { rounds: 3, sliceMs: 50, processRounds: 1, engineWarmMs: 1_000 } : { rounds: 5, sliceMs: 100, processRounds: 3, engineWarmMs: 4_000 };

const kSizeLabels: readonly SizeLabel[] = quick ? ['128KB', '1MB'] : ['16KB', '128KB', '1MB'];

function log(msg: string): void {
  process.stderr.write(`${msg}\n`);
}

function rssMB(): number {
  // maxRSS is in kilobytes (KiB) and covers the whole process, worker threads included.
  return process.resourceUsage().maxRSS / 1024;
}

function selected(name: string): boolean {
  return filters.length === 0 || filters.some((f) => name.includes(f));
}

// ---- Rule sets ------------------------------------------------------------------------------------------

interface RuleSet {
  name: RuleSetName;
  rules: readonly RuleDef[];
  /** The compiled rules per backend name. */
  programs: Map<string, Program>;
  keywords: string[];
}

function ruleSet(name: RuleSetName, rules: readonly RuleDef[]): RuleSet {
  const keywords = [...new Set(rules.flatMap((r) => ('keywords' in r.trigger ? r.trigger.keywords : [])))];
  return { name, rules, programs: new Map(backends.map((b) => [b.name, compileProgram(rules, b)])), keywords };
}

function programOf(set: RuleSet, backend: RegexBackend, prefilter: BenchPrefilter = 'auto'): Program {
  const p = set.programs.get(backend.name);
  if (p === undefined) throw new Error(`no ${backend.name} program for rule set ${set.name}`);
  return prefilter === 'js' ? withPrefilter(p, 'js') : p;
}

/** The worker's name of a backend (the bench never measures the non-linear v8 reference backend). */
function workerBackend(b: RegexBackend): EngineBackendName {
  if (b.name === 'v8') throw new Error('the bench measures the RE2 backends only');
  return b.name;
}

function buildRuleSets(): { sets: RuleSet[]; notes: string[] } {
  const notes: string[] = [];
  const wanted = (args.rules ?? (quick ? 'default' : 'default,all')).split(',').filter((s) => s !== '');
  const defaults = selectRules({});
  const all = selectRules({ allRules: true });
  const sets: RuleSet[] = [];
  for (const w of wanted) {
    if (w === 'default') sets.push(ruleSet('default', defaults));
    else if (w === 'all') {
      if (wanted.includes('default') && all.length === defaults.length) {
        notes.push(`rule set "all" equals "default" (${all.length} rules, none off by default): measured once`);
        continue;
      }
      sets.push(ruleSet('all', all));
    } else if (w === 'fixture') sets.push(ruleSet('fixture', kFixtureRules));
    else throw new Error(`--rules: unknown rule set ${JSON.stringify(w)} (default, all, fixture)\n${kUsage}`);
  }
  if (all.length === 0 && !sets.some((s) => s.name === 'fixture')) {
    notes.push('the managed catalogue is empty: the bench fixture rules (bench/fixture-rules.ts) are measured as well');
    sets.push(ruleSet('fixture', kFixtureRules));
  }
  return { sets, notes };
}

// ---- Cases ---------------------------------------------------------------------------------------------

interface Case {
  name: string;
  set: RuleSet;
  body: Body;
  bodyKind: string;
  size: string;
  backend: RegexBackend;
  /** `js`: the TypeScript prefilter even where the native one is built (a secondary case). */
  prefilter: BenchPrefilter;
}

/**
 * Which cases a backend other than the primary one measures (`--backend-cases`). Full run: all of them
 * (about 2 minutes with re2-wasm once its patterns are compiled); `1mb`: the 1 MB bodies of each kind and
 * density and the adversarial ones (also 1 MB), which carry the comparison; quick: `sparse-1mb`.
 */
const kBackendCases = args['backend-cases'] ?? (quick ? 'sparse-1mb' : 'all');
if (!['all', '1mb', 'sparse-1mb', 'none'].includes(kBackendCases)) throw new Error(`--backend-cases: unknown value ${JSON.stringify(kBackendCases)}\n${kUsage}`);

function secondaryCase(c: Case): boolean {
  switch (kBackendCases) {
    case 'all':
      return true;
    case '1mb':
      return c.size === '1MB';
    case 'sparse-1mb':
      return c.size === '1MB' && c.bodyKind.endsWith('/sparse');
    default:
      return false;
  }
}

/** A case of the primary backend measured with another one, named `<case> [<backend>]`. */
function onBackend(c: Case, backend: RegexBackend): Case {
  return { ...c, name: `${c.name} [${backend.name}]`, backend };
}

/**
 * The name a case's engine variant is reported under: the backend, plus `+ts-prefilter` when the
 * TypeScript prefilter runs in place of the native one.
 */
function variantName(c: Case): string {
  return c.prefilter === 'js' ? `${c.backend.name}+ts-prefilter` : c.backend.name;
}

/**
 * Where the native prefilter is built, the primary backend's 1 MB cases of the first rule set are
 * measured again with the TypeScript prefilter: what the native pass is worth. (The UTF-8 decoder's
 * offsets stay native in these rows; an install without a compiler also runs those in TypeScript.)
 */
function onTsPrefilter(c: Case): Case {
  return { ...c, name: `${c.name} [${c.backend.name}+ts-prefilter]`, prefilter: 'js' };
}

/** Secondary variants are measured in this order: the TypeScript prefilter (quick), then each other backend. */
function variantRank(c: Case): number {
  return c.prefilter === 'js' ? 0 : 1 + backends.indexOf(c.backend);
}

/**
 * Measuring order when time is short: what the goals need first (sparse 128 KB and 1 MB: the sparse
 * goals and growth; then adversarial; then dense), 16 KB last, the first rule set before the others.
 * Results are still printed in the natural order.
 */
function priority(c: Case, sets: readonly RuleSet[]): number {
  const set = sets.indexOf(c.set);
  let tier: number;
  if (c.size === '16KB') tier = 4;
  else if (c.bodyKind.endsWith('/sparse')) tier = 0;
  else if (c.bodyKind === 'adv') tier = 1;
  else tier = 2;
  return set * 10 + tier;
}

function buildCases(sets: readonly RuleSet[]): Case[] {
  const generated: Body[] = [];
  const wantBody = (bodyName: string) => sets.some((s) => selected(`${s.name}/${bodyName}`));
  for (const kind of kContentKinds) {
    for (const density of kDensities) {
      for (const size of kSizeLabels) {
        if (wantBody(`${kind}/${density}/${size}`)) generated.push(makeBody(kind, density, size));
      }
    }
  }
  const adversarial = new Map<string, Body>();
  const cases: Case[] = [];
  for (const set of sets) {
    for (const body of generated) {
      const name = `${set.name}/${body.name}`;
      if (!selected(name)) continue;
      const [kind, density, size] = body.name.split('/');
      cases.push({ name, set, body, bodyKind: `${kind}/${density}`, size: size ?? '', backend: primaryBackend, prefilter: 'auto' });
    }
    for (const adv of kAdversarialKinds) {
      const name = `${set.name}/adv/${adv}`;
      if (!selected(name)) continue;
      // Only `kw-all` depends on the rule set (its keywords); the others are shared.
      const key = adv === 'kw-all' ? `${adv}:${set.name}` : adv;
      let body = adversarial.get(key);
      if (body === undefined) {
        body = makeAdversarial(adv, 1024 * 1024, set.keywords);
        adversarial.set(key, body);
      }
      if (body.bytes.length === 0) continue;
      cases.push({ name, set, body, bodyKind: 'adv', size: '1MB', backend: primaryBackend, prefilter: 'auto' });
    }
  }
  return cases;
}

// ---- Measurement ---------------------------------------------------------------------------------------

/** What names a case in its result (the measured fields come on top). */
function caseIdentity(c: Case) {
  return {
    name: c.name,
    backend: variantName(c),
    ruleSet: c.set.name,
    body: c.body.name,
    bodyKind: c.bodyKind,
    size: c.size,
    bytes: c.body.bytes.length,
    planted: c.body.planted,
  };
}

/**
 * The engine on one body: first a guarded scan in the worker (bounded; an engine under construction
 * can take minutes on a hostile body), then, if that scan fits the case budget, tinybench in this
 * thread. A body too slow for more than one call keeps the guarded scan as its only sample.
 */
async function measureEngine(c: Case, guard: BenchWorker): Promise<CaseResult> {
  const base = caseIdentity(c);
  await warmUp(c, guard);
  const g = await guard.guardEngine(c.set.name, workerBackend(c.backend), c.prefilter, c.body.contentType, c.body.bytes, kEngineGuardMs);
  if (g.status === 'timeout') {
    const t = g.budgetMs;
    return { ...base, findings: 0, engine: { p50: t, p99: t, mean: t, samples: 0, mbps: mbps(base.bytes, t), timedOut: true } };
  }
  if (g.status === 'error') return { ...base, findings: 0, engine: null, skipped: `engine error: ${g.message}` };
  if (g.ms >= kEngineOptions.caseBudgetMs) {
    return { ...base, findings: g.findings, engine: { p50: g.ms, p99: g.ms, mean: g.ms, samples: 1, mbps: mbps(base.bytes, g.ms), inThread: false } };
  }
  const m = await timeInThread(c, g.ms);
  return { ...base, findings: g.findings, engine: { ...m, mbps: mbps(base.bytes, m.p50), inThread: true } };
}

/** tinybench of the engine on case `c` in this thread (`probeMs`: one scan's time, to plan the samples). */
function timeInThread(c: Case, probeMs: number): ReturnType<typeof measure> {
  const meta = { contentType: c.body.contentType };
  const program = programOf(c.set, c.backend, c.prefilter);
  return measure(c.name, () => scanStream(program, [c.body.bytes], meta), probeMs, kEngineOptions);
}

/** The engine measured again on case `c` (in this thread), combined with its first measurement. */
async function bracketEngine(c: Case, first: NonNullable<CaseResult['engine']>): Promise<NonNullable<CaseResult['engine']>> {
  const second = await timeInThread(c, first.p50);
  const p50 = (first.p50 + second.p50) / 2;
  return {
    p50,
    p99: Math.max(first.p99, second.p99),
    mean: (first.mean + second.mean) / 2,
    samples: first.samples + second.samples,
    mbps: mbps(c.body.bytes.length, p50),
    inThread: true,
    runs: [first.p50, second.p50],
  };
}

/**
 * The growth goal compares a kind's 1 MiB body with 128 KiB bodies of the same kind. Two choices:
 *
 * - Which 128 KiB bodies: the 1 MiB body's own eight 128 KiB pieces (cut back to a UTF-8 character
 *   boundary), each scanned as a body of its own. Both sides then scan the same bytes, and only the
 *   body size differs: what the goal is about. The kind's separately generated 128 KB body has
 *   different content, whose cost per byte differs by itself: the eight pieces of the xml/sparse 1 MiB
 *   body, each scanned alone, cost 8.6 to 11.7 ms per MiB, and the generated 128 KB body 10.5 (the
 *   ratio against it was 8.0-9.2 across runs, against the pieces 7.6). The pieces also give the
 *   adversarial bodies, generated only at 1 MiB, their growth figure.
 * - When: in alternation. Cases measured minutes apart swing with the machine by a third (one bench
 *   run's two passes over default/html/dense/1MB took 62 and 107 ms), so each round scans the eight
 *   pieces and the 1 MiB body, as many times over as fit in about `kGrowthRoundMs`, and gives the
 *   ratio of the two times; the figure is the median over the rounds, taken within seconds of each
 *   other.
 */
async function measureGrowth(big: Case): Promise<GrowthPair> {
  const program = programOf(big.set, big.backend, big.prefilter);
  const meta = { contentType: big.body.contentType };
  const pieces = piecesOf(big.body.bytes, kGrowthPieces);
  const timePieces = async (): Promise<number> => {
    const t0 = performance.now();
    for (const p of pieces) await scanStream(program, [p], meta);
    return performance.now() - t0;
  };
  const timeWhole = async (): Promise<number> => {
    const t0 = performance.now();
    await scanStream(program, [big.body.bytes], meta);
    return performance.now() - t0;
  };
  await timePieces();
  const probe = await timeWhole();
  // Each round lasts about kGrowthRoundMs: a 20 ms round of a sparse kind swung from 5.8 to 11.8 within
  // one run (a collection or a hiccup of the machine is a large share of it); a dense 1 MB body alone
  // takes about 80 ms, so it keeps one pair a round.
  const reps = Math.max(1, Math.min(8, Math.round(kGrowthRoundMs / (2 * probe))));
  const rounds: number[] = [];
  for (let r = 0; r < kGrowthRounds; r++) {
    let m = 0;
    let b = 0;
    for (let k = 0; k < reps; k++) {
      m += await timePieces();
      b += await timeWhole();
    }
    // time(1 MiB) / mean time(one 128 KiB piece).
    rounds.push((b / m) * pieces.length);
  }
  const sorted = [...rounds].sort((x, y) => x - y);
  return { ruleSet: big.set.name, bodyKind: growthKind(big), ratio: sorted[sorted.length >> 1]!, rounds };
}

/** The kind a growth pair is reported under: `json/sparse`, …, `adv/a-dot`, …. */
function growthKind(c: Case): string {
  return c.bodyKind === 'adv' ? c.body.name : c.bodyKind;
}

/** 128 KiB pieces per 1 MiB body in the growth pairs. */
const kGrowthPieces = 8;

/** Alternating rounds per growth pair, and the time a round aims at (see `measureGrowth`). */
const kGrowthRounds = quick ? 3 : 15;
const kGrowthRoundMs = quick ? 40 : 80;

/** (rule set, backend) pairs whose patterns both threads have already compiled. */
const warmed = new Set<string>();

/**
 * Before the first case of a rule set and backend, both threads (the guard and this one) scan the
 * dense 16 KB bodies of the four kinds once, untimed: re2-wasm compiles each pattern the first time a
 * window needs it (seconds for the whole rule set), and a slow body's only sample is its guarded scan,
 * which would otherwise carry that one-off cost. Native re2 compiles at `compileProgram`; for it this
 * only warms the code.
 */
async function warmUp(c: Case, guard: BenchWorker): Promise<void> {
  const key = `${c.set.name}\0${variantName(c)}`;
  if (warmed.has(key)) return;
  warmed.add(key);
  const t0 = Date.now();
  const program = programOf(c.set, c.backend, c.prefilter);
  for (const kind of kContentKinds) {
    const body = makeBody(kind, 'dense', '16KB');
    await guard.guardEngine(c.set.name, workerBackend(c.backend), c.prefilter, body.contentType, body.bytes, kEngineGuardMs);
    await scanStream(program, [body.bytes], { contentType: body.contentType });
  }
  log(`warm-up  ${c.set.name} [${variantName(c)}]: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Rounds of a paired (b) measurement (see `measurePairedB`), and the engine's time per burst. */
const kPairedRounds = quick ? 3 : 6;
const kBurstMs = quick ? 40 : 100;
/**
 * The baselines' thread optimizes the engine's code only on the bodies it scans there: before the
 * first case, it scans every paired case's body for `kPairedWarmEachMs` (with 100 ms on one body, a
 * dense JSON body's bursts took 67-90 ms against 72-76 ms after 600 ms), and each case's body again for
 * `kPairedWarmMs` before its first burst.
 */
const kPairedWarmEachMs = quick ? 60 : 200;
const kPairedWarmMs = quick ? 100 : 200;

/**
 * Cases whose (b) is measured paired: the sparse 1 MB bodies, where the goal asks for 100× and (b) is
 * one sample (the others keep the probe and tinybench of `measureBaseline`). Not with the re2-wasm
 * backend: the guard thread would hold the engine's patterns and (b)'s alternation in one re2-wasm
 * heap, which two sets of patterns can exhaust.
 */
function pairedCase(c: Case): boolean {
  return c.size === '1MB' && c.bodyKind.endsWith('/sparse') && c.backend.name !== 're2-wasm';
}

function withoutPairing(b: BaselineResult & { status: 'ok' }): BaselineResult {
  const { paired: _paired, ...rest } = b;
  return rest;
}

/**
 * Baseline (b) on a sparse 1 MB body, measured in alternation with the engine. (b) takes 0.5-2 s on such a
 * body, so it is one sample, and the engine's figure a median of samples taken a second away; the
 * machine's speed swings by a third within seconds (the same body scanned in 6.6 and then 9.5 ms, 160 ms
 * apart), so the ratio of the two followed the machine as much as the code. Here the baselines' worker times
 * the body's windows in up to `kPairedRounds` runs of consecutive windows, with the engine (the median
 * of a burst of scans of the whole body) before the first round and after each one; each round is
 * paired with the mean of the bursts around it, and the ratio is (b)'s time over the engine's time for
 * the same share of the body (`pairedRatio`). Rounds stop once (b) has been timed for
 * `kEstimateAfterMs`, as its probe does, and the remaining windows are extrapolated (the body's time is a
 * sum of its windows').
 */
async function measurePairedB(host: BenchWorker, c: Case, spec: BaselineSpec): Promise<BaselineResult> {
  const engine = { ruleSet: c.set.name, backend: workerBackend(c.backend), prefilter: c.prefilter, contentType: c.body.contentType };
  const out = await host.paired(engine, spec, c.body.bytes, { rounds: kPairedRounds, burstMs: kBurstMs, settleScans: 2, warmMs: kPairedWarmMs, stopAfterMs: kEstimateAfterMs }, kBudgetMs.b.body);
  if (out.status !== 'ok') return out;
  const covered = out.rounds.reduce((a, r) => a + r.share, 0);
  const ms = out.rounds.reduce((a, r) => a + r.bMs, 0) / covered;
  const partial = out.windowsTimed < out.windows;
  const r: BaselineResult = { status: 'ok', p50: ms, p99: ms, mbps: mbps(c.body.bytes.length, ms), count: out.count, samples: partial ? 0 : 1, paired: { ratio: pairedRatio(out.rounds), rounds: out.rounds } };
  if (partial) r.extrapolated = { windowsTimed: out.windowsTimed, windows: out.windows };
  return r;
}

async function measureBaseline(host: BenchWorker, c: Case, spec: BaselineSpec | null): Promise<BaselineResult> {
  if (spec === null) return { status: 'skipped', reason: 'no rules' };
  const options = spec.kind === 'a' ? kBaselineAOptions : kBaselineBOptions;
  const budget = kBudgetMs[spec.kind][c.bodyKind === 'adv' ? 'adv' : 'body'];
  const out = await host.baseline(`${c.name} (${spec.kind})`, spec, c.body.bytes, options, budget, kEstimateAfterMs);
  if (out.status !== 'ok') return out;
  const m = out.measured;
  const r: BaselineResult = { status: 'ok', p50: m.p50, p99: m.p99, mbps: mbps(c.body.bytes.length, m.p50), count: out.count, samples: m.samples };
  if (out.extrapolated !== undefined) r.extrapolated = out.extrapolated;
  return r;
}

function gitInfo(): { commit: string; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: kHere, encoding: 'utf8' }).trim();
    // --no-optional-locks: never touch the index (others work in this tree at the same time).
    const status = execFileSync('git', ['--no-optional-locks', 'status', '--porcelain', '--', 'src', 'bench'], { cwd: join(kHere, '..'), encoding: 'utf8' });
    return { commit, dirty: status.trim() !== '' };
  } catch {
    return { commit: 'unknown', dirty: null };
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const { sets, notes } = buildRuleSets();
  for (const n of notes) log(`note: ${n}`);
  for (const s of sets) log(`rule set ${s.name}: ${s.rules.length} rules, ${s.keywords.length} keywords`);
  const cases = buildCases(sets);
  if (cases.length === 0 && !poolWanted && !cliWanted && !anchorsWanted && !fleetWanted) {
    log(`no case matches ${filters.map((f) => JSON.stringify(f)).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const rssBodies = rssMB();
  log(`${cases.length} cases; bodies generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const order = cases.map((c, i) => ({ c, i })).sort((x, y) => priority(x.c, sets) - priority(y.c, sets) || x.i - y.i);
  // The anchors phase is bounded by its rounds, and its time is left out of the deadline: every other
  // phase keeps the budget it had before it came.
  let anchorsMs = 0;
  const deadlineOf = (share: number): number => started + anchorsMs + kMaxSeconds * 1000 * share;
  const timeLeft = (until: number): boolean => Date.now() < until;
  const notMeasured = (c: Case): CaseResult => ({
    ...caseIdentity(c),
    findings: 0,
    engine: null,
    skipped: `time budget (--max-seconds ${kMaxSeconds})`,
  });

  /** One backend's cases in priority order, in a guard worker of their own, until `until`. */
  const runEngine = async (list: ReadonlyArray<{ c: Case; i: number }>, out: CaseResult[], until: number): Promise<void> => {
    // The guard and the baselines get separate workers (and so does each backend): re2-wasm's heap is
    // per thread and small, and two sets of compiled patterns in one thread can exhaust it (abort: OOM).
    const guard = new BenchWorker();
    try {
      for (const { c, i } of list) {
        if (!timeLeft(until)) break;
        const r = await measureEngine(c, guard);
        out[i] = r;
        const e = r.engine;
        const name = c.name.padEnd(34);
        if (e === null) log(`engine   ${name} ${r.skipped ?? ''}`);
        else if (e.timedOut === true) log(`engine   ${name} > ${e.p50 / 1000} s: guarded scan terminated`);
        else log(`engine   ${name} ${e.mbps.toFixed(2).padStart(9)} MB/s  p50 ${e.p50.toFixed(2)} ms  (${e.samples} samples${e.inThread === true ? '' : ', guarded scan only'})`);
      }
    } finally {
      await guard.close();
    }
  };

  // Phase 1: the primary backend's engine cases alone, so the peak RSS they reach is their own.
  const results: CaseResult[] = cases.map(notMeasured);
  await runEngine(order, results, deadlineOf(kShares.engine));
  const skippedEngine = results.filter((r) => r.skipped?.startsWith('time budget') === true).length;
  if (skippedEngine > 0) log(`engine: ${skippedEngine} cases skipped, time budget spent`);
  const rssEngine = rssMB();

  // Phase 2: the baselines, in a worker that is terminated when a case exceeds its budget. Right after
  // a case's baselines the engine is measured once more in this thread, and its figure becomes the
  // mean of its two runs, which bracket the baselines in time: the machine is shared and its speed
  // drifts over minutes, so a ratio of two figures taken minutes apart swung by up to 1.5× between
  // runs (html/sparse/16KB: 5.3× then 3.4× baseline (a); measured back to back, 5.7×).
  if (baselineKinds.size > 0) {
    const host = new BenchWorker();
    const specs = new Map(sets.map((s) => [s.name, { a: v8Alternation(s.rules), b: re2Alternation(s.rules) }]));
    const deadline = deadlineOf(kShares.baselines);
    try {
      if (baselineKinds.has('b')) {
        // The paired cases time the engine in this worker: its code is first warmed on their bodies.
        const t0 = Date.now();
        for (const set of sets) {
          const paired = order.filter(({ c, i }) => c.set === set && pairedCase(c) && results[i]?.engine?.inThread === true).map(({ c }) => c);
          const first = paired[0];
          if (first === undefined) continue;
          const engine = { ruleSet: set.name, backend: workerBackend(first.backend), prefilter: first.prefilter };
          await host.warmEngine(engine, paired.map((c) => ({ contentType: c.body.contentType, body: c.body.bytes })), kPairedWarmEachMs, 120_000);
        }
        log(`warm-up  engine in the baselines' worker, for the paired (b) cases: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      }
      for (const { c, i } of order) {
        const r = results[i];
        const spec = specs.get(c.set.name);
        if (r === undefined || r.engine === null || r.engine.timedOut === true || spec === undefined) continue;
        for (const which of ['a', 'b'] as const) {
          if (!baselineKinds.has(which)) continue;
          if (!timeLeft(deadline)) {
            r[which] = { status: 'skipped', reason: 'time budget' };
            continue;
          }
          const bSpec = spec.b;
          const br = which === 'b' && bSpec !== null && pairedCase(c) ? await measurePairedB(host, c, bSpec) : await measureBaseline(host, c, spec[which]);
          r[which] = br;
          const est = br.status === 'ok' && br.extrapolated !== undefined ? ` (extrapolated from ${br.extrapolated.windowsTimed}/${br.extrapolated.windows} windows)` : '';
          const shown = br.status === 'ok' ? `${br.mbps.toFixed(3).padStart(9)} MB/s${est}` : br.status === 'timeout' ? `> ${br.budgetMs / 1000} s budget` : br.status;
          const pairs = br.status === 'ok' && br.paired !== undefined ? `  paired ×${br.paired.ratio.toFixed(1)} (unpaired ${(br.p50 / r.engine.p50).toFixed(1)}), rounds (b)/engine ms: ${br.paired.rounds.map((x) => `${x.bMs.toFixed(0)}/${x.engineMs.toFixed(2)}`).join(' ')}` : '';
          log(`baseline ${which} ${c.name.padEnd(32)} ${shown}${pairs}`);
        }
        if (r.engine.inThread === true && timeLeft(deadline)) {
          r.engine = await bracketEngine(c, r.engine);
          log(`engine   ${c.name.padEnd(34)} ${r.engine.mbps.toFixed(2).padStart(9)} MB/s  p50 ${r.engine.p50.toFixed(2)} ms  (mean of runs ${r.engine.runs!.map((x) => x.toFixed(2)).join(' and ')} ms)`);
        }
      }
    } finally {
      await host.close();
    }
  }

  // Phase 2b: growth, each 1 MiB body (adversarial ones included) against its own eight 128 KiB
  // pieces, measured in alternation (see measureGrowth).
  const growth: GrowthPair[] = [];
  {
    // A share of its own: a baselines phase that ran to its end must not leave growth to the medians.
    const deadline = deadlineOf(kShares.growth);
    for (const set of sets) {
      for (const [i, big] of cases.entries()) {
        if (big.set !== set || big.size !== '1MB' || big.backend !== primaryBackend || big.prefilter !== 'auto') continue;
        const r = results[i]?.engine;
        if (r?.inThread !== true || r.timedOut === true || !timeLeft(deadline)) continue;
        const pair = await measureGrowth(big);
        growth.push(pair);
        log(`growth   ${`${set.name}/${pair.bodyKind}`.padEnd(34)} ${pair.ratio.toFixed(2)}  (median of ${pair.rounds.length} alternating rounds: ${pair.rounds.map((r) => r.toFixed(2)).join(' ')})`);
      }
    }
  }

  // Phase 2c: the anchors of issue 36 (bench/anchors.ts), the engine with the default rules against a
  // V8 alternation of the reference patterns, Hyperscan and secretlint, on the 1 MiB bodies.
  let anchors: AnchorsResult | null = null;
  if (anchorsWanted) {
    const t0 = Date.now();
    const rules = sets.find((s) => s.name === 'default')?.rules ?? selectRules({});
    const program = sets.find((s) => s.name === 'default')?.programs.get(primaryBackend.name) ?? compileProgram(rules, primaryBackend);
    try {
      anchors = await runAnchorsPhase({
        program,
        rules,
        backend: primaryBackend.name,
        referencePath: kReferencePatterns,
        root: join(kHere, '..'),
        cliMain: kCliMain,
        cliProblem: builtCliProblem(),
        ...kAnchors,
        log,
      });
    } catch (err) {
      anchors = { status: 'skipped', message: `failed: ${(err as Error)?.message ?? String(err)}` };
      log(`anchors  ${anchors.message}`);
    }
    anchorsMs = Date.now() - t0;
  }

  // Phase 3: the pool, in child processes of its own (bench/pool.ts), with the primary backend.
  let pool: PoolPhaseResult | null = null;
  if (poolWanted) {
    if (timeLeft(deadlineOf(kShares.poolStart))) {
      const backend: PoolBackend = backendArg === undefined ? 'auto' : (backendArg as PoolBackend);
      pool = await runPoolPhase({ quick, backend, childTimeoutMs: kPoolChildMs });
    } else {
      const now = loadavg();
      pool = { status: 'error', message: `not run: time budget (--max-seconds ${kMaxSeconds}) spent`, loadavg: { start: now, end: now } };
    }
  }

  // Phase 3b: the command line, `leakscan scan DIR` in child processes (bench/cli.ts).
  let cli: CliPhaseResult | null = null;
  if (cliWanted) {
    if (timeLeft(deadlineOf(kShares.cliStart))) {
      cli = await runCliPhase({ quick, timeLeft: () => timeLeft(deadlineOf(kShares.cliRounds)), log });
    } else {
      cli = { status: 'skipped', message: `not run: time budget (--max-seconds ${kMaxSeconds}) spent` };
    }
  }

  // Phase 3c: the fleet on NATS JetStream (bench/fleet.ts), opt-in, outside the deadline.
  let fleet: FleetPhaseResult | null = null;
  if (fleetWanted) {
    fleet = await runFleetPhase({ quick, cliMain: kCliMain, cliProblem: builtCliProblem(), log });
    if (fleet.status !== 'ok') log(`fleet    ${fleet.status}: ${fleet.message}`);
  }

  // Phase 4: the other backends, on the cases `secondaryCase` picks, in the same priority order.
  // Printed in the natural order of the cases, measured in priority order, one backend after another.
  const tsPrefilterCases = prefilterStatus.prefilter === 'native' && kTsPrefilterCases ? cases.filter((c) => c.set === sets[0] && c.size === '1MB' && (!quick || c.bodyKind.endsWith('/sparse'))).map(onTsPrefilter) : [];
  const secondaryCases = [...tsPrefilterCases, ...backends.slice(1).flatMap((b) => cases.filter(secondaryCase).map((c) => onBackend(c, b)))];
  const secondary: CaseResult[] = secondaryCases.map(notMeasured);
  const secondaryOrder = secondaryCases
    .map((c, i) => ({ c, i }))
    .sort((x, y) => variantRank(x.c) - variantRank(y.c) || priority(x.c, sets) - priority(y.c, sets) || x.i - y.i);
  await runEngine(secondaryOrder, secondary, deadlineOf(kShares.secondary));
  // Their ratios to the baselines come from the primary's measurements of the same bodies.
  for (const r of secondary) {
    const p = results.find((x) => x.ruleSet === r.ruleSet && x.body === r.body);
    if (p?.a !== undefined) r.a = p.a;
    // Not (b)'s pairing: it paired (b) with the primary's engine, so another variant's ratio is the
    // unpaired one, (b)'s time over this variant's p50.
    if (p?.b !== undefined) r.b = p.b.status === 'ok' && p.b.paired !== undefined ? withoutPairing(p.b) : p.b;
  }
  const rssEnd = rssMB();

  const ruleGoals = evaluateGoals(results, sets.map((s) => s.name), growth);
  const poolGoals = poolWanted ? evaluatePoolGoals(pool) : [];
  const anchorGoals = anchors !== null ? evaluateAnchorGoals(anchors) : [];
  const goals = [...ruleGoals, ...poolGoals, ...anchorGoals];
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown';
  const primaryName = primaryBackend.name;

  console.log('');
  if (cases.length > 0) {
    console.log(`Engine in-thread, backend ${primaryName}, ${prefilterStatus.prefilter === 'native' ? 'native prefilter' : 'TypeScript prefilter'}${primaryName === 're2' ? `, system ${re2Status.library ?? 'RE2'}` : ''} (primary: the goals are evaluated on it):`);
    console.log(formatCases(results));
    console.log('');
    console.log('MB/s = 10^6 bytes per second at the median (p50) time per body; ×(a), ×(b) = engine speed / baseline speed (> 1: engine faster).');
    console.log('~: baseline (b) time extrapolated from its first 64 KiB windows (it is a sum of independent windows, so linear).');
    console.log('(b) paired (sparse 1 MB bodies): (b) timed in rounds of a few windows, the engine timed before and after each round; ×(b) = (b) time / the engine\'s time for the same share of the body at its round (bench/README.md).');
    console.log('found/planted: engine findings / synthetic values planted (decoys not counted; one value can give two findings).');
  }
  if (secondary.length > 0) {
    console.log('');
    console.log(`Other backends and the TypeScript prefilter (informational): ×${primaryName} = this variant's speed / ${primaryName}'s on the same case (< 1: slower).`);
    console.log(formatBackendCases(secondary, results, primaryName));
    for (const line of summarizeBackends(secondary, results, primaryName)) console.log(line);
  } else if (backends.length > 1 && cases.length > 0) {
    console.log('');
    console.log(`Other backends: ${backends.slice(1).map((b) => b.name).join(', ')} not measured (no selected case is one of --backend-cases ${kBackendCases})`);
  }
  if (pool !== null) {
    console.log('');
    console.log(formatPool(pool, cpus().length));
  }
  if (cli !== null) {
    console.log('');
    console.log(formatCli(cli, cpus().length));
  }
  if (anchors !== null) {
    console.log('');
    console.log(formatAnchors(anchors));
  }
  if (fleet !== null) {
    console.log('');
    console.log(formatFleet(fleet));
  }
  console.log('');
  if (cases.length > 0) console.log(formatGoals(ruleGoals));
  if (poolGoals.length > 0) console.log(formatPoolGoals(poolGoals, pool));
  if (anchorGoals.length > 0) console.log(formatAnchorGoals(anchorGoals));
  for (const set of sets) {
    const skipped = results.filter((r) => r.ruleSet === set.name && r.engine === null).length;
    if (skipped > 0) console.log(`note: [${set.name}] ${skipped} cases not measured (see the table): its goals cover the measured cases only`);
  }
  console.log('');
  if (cases.length > 0) console.log(
    `peak RSS: ${rssEngine.toFixed(0)} MB after the ${primaryName} engine cases (before any scan, bodies and programs ready: ${rssBodies.toFixed(0)} MB, so scanning +${(rssEngine - rssBodies).toFixed(0)} MB); ` +
      `${rssEnd.toFixed(0)} MB at the end (baselines and other backends included; the pool runs in child processes)`,
  );
  console.log(`rules: ${sets.map((s) => `${s.name} ${s.rules.length}`).join(', ')}; ${process.version}; ${cpu} ×${cpus().length}; ${elapsed.toFixed(0)} s`);
  for (const n of notes) console.log(`note: ${n}`);

  if (args.json === true) {
    const git = gitInfo();
    const record = {
      date: new Date().toISOString(),
      commit: git.commit,
      dirty: git.dirty,
      node: process.version,
      cpu,
      cores: cpus().length,
      platform: `${platform()} ${release()}`,
      memoryMB: Math.round(totalmem() / 2 ** 20),
      quick,
      filters,
      maxSeconds: kMaxSeconds,
      baselines: [...baselineKinds],
      backends: { primary: primaryName, others: backends.slice(1).map((b) => b.name), otherCases: kBackendCases },
      prefilter: prefilterStatus,
      re2: re2Status,
      elapsedSeconds: Math.round(elapsed),
      ruleSets: sets.map((s) => ({ name: s.name, rules: s.rules.length, ids: s.rules.map((r) => r.id) })),
      rssMB: { bodies: Math.round(rssBodies), engine: Math.round(rssEngine), end: Math.round(rssEnd) },
      adversarial: kAdversarialWhy,
      notes,
      cases: results,
      growth,
      // The baseline figures are the primary cases'; not repeated here.
      backendCases: secondary.map(({ a: _a, b: _b, ...rest }) => rest),
      pool,
      cli,
      anchors,
      fleet,
      goals: goals.map((g) => ({ ruleSet: g.ruleSet, goal: g.goal, pass: g.pass ?? null, items: g.items })),
    };
    mkdirSync(kResultsDir, { recursive: true });
    writeFileSync(join(kResultsDir, 'latest.json'), JSON.stringify(record, null, 2) + '\n');
    // History keeps the figures, not the per-run constants (rule ids, adversarial descriptions).
    const { adversarial: _why, ...slim } = record;
    const line = { ...slim, ruleSets: sets.map((s) => ({ name: s.name, rules: s.rules.length })) };
    appendFileSync(join(kResultsDir, 'history.jsonl'), JSON.stringify(line) + '\n');
    console.log(`results: ${join('bench', 'results', 'latest.json')}, appended to ${join('bench', 'results', 'history.jsonl')}`);
  }
}

await main();
