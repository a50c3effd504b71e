/**
 * `npm run bench`: the scanning engine in-thread (`compileProgram` + `scanStream`, re2-wasm backend)
 * over generated text, HTML, JSON and XML bodies (16 KB, 128 KB, 1 MB; sparse and dense) and 1 MB
 * adversarial bodies, for the default and the full rule set, against two naive baselines measured in
 * the same run on the same bodies. Prints a table and the goal verdicts; `--json` also writes
 * bench/results/latest.json and appends one line to bench/results/history.jsonl.
 *
 *   npm run bench                          full run (≈ 3-5 min on 2 cores)
 *   npm run bench -- --quick               smoke run: 128 KB and 1 MB, default rules, fewer samples
 *   npm run bench -- --filter json/sparse  only cases whose name contains the text (repeatable)
 *   npm run bench -- --rules default,fixture --baselines a
 *
 * See bench/README.md for what each case means and how the baselines are built.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compileProgram, resolveBackend, scanStream, type BackendName, type Program } from '../src/engine/index.js';
import { selectRules } from '../src/rules/index.js';
import type { RuleDef } from '../src/rules/types.js';
import { re2Alternation, v8Alternation, type BaselineSpec } from './baselines.js';
import { BenchWorker, type RuleSetName } from './worker.js';
import {
  kAdversarialKinds,
  kAdversarialWhy,
  kContentKinds,
  kDensities,
  makeAdversarial,
  makeBody,
  type Body,
  type SizeLabel,
} from './bodies.js';
import { kFixtureRules } from './fixture-rules.js';
import { measure, type MeasureOptions } from './measure.js';
import { evaluateGoals, formatCases, formatGoals, mbps, type BaselineResult, type CaseResult } from './report.js';

const kHere = dirname(fileURLToPath(import.meta.url));
const kResultsDir = join(kHere, 'results');

const kUsage = `usage: npm run bench -- [--quick] [--filter <text>]... [--rules default,all,fixture] [--baselines a,b|none] [--max-seconds <n>] [--backend auto|re2|re2-wasm] [--json]`;

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    filter: { type: 'string', multiple: true },
    rules: { type: 'string' },
    baselines: { type: 'string' },
    'max-seconds': { type: 'string' },
    json: { type: 'boolean', default: false },
    backend: { type: 'string', default: 'auto' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});
if (args.help) {
  console.log(kUsage);
  process.exit(0);
}
const quick = args.quick === true;
// The engine's RE2 backend (auto = native re2 when it loaded, else re2-wasm); the guard worker reads
// the same variable, so every engine figure of one run uses one backend.
process.env['LEAKSCAN_BENCH_BACKEND'] = args.backend ?? 'auto';
const engineBackend = resolveBackend(process.env['LEAKSCAN_BENCH_BACKEND'] as BackendName);
process.stderr.write(`engine backend: ${engineBackend.name}\n`);
const filters = args.filter ?? [];
const baselineKinds = new Set((args.baselines ?? 'a,b').split(',').filter((s) => s !== '' && s !== 'none'));
for (const b of baselineKinds) if (b !== 'a' && b !== 'b') throw new Error(`--baselines: unknown baseline ${JSON.stringify(b)}\n${kUsage}`);

/**
 * Samples per case. Fast cases sample for `timeMs`; slow ones get what fits in `caseBudgetMs`. Full:
 * stable medians in about 5 minutes on 2 shared cores; quick: a smoke run of a minute or two.
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
 * bench into an hour-long job: once the engine phase has used its share, the remaining cases (the
 * least important first, see `priority`) are reported as skipped, and likewise for the baselines.
 * Neither a case already running nor the figures of measured cases are affected.
 */
const kMaxSeconds = Number(args['max-seconds'] ?? (quick ? 150 : 300));
if (!(kMaxSeconds > 0)) throw new Error(`--max-seconds: expected a positive number\n${kUsage}`);
/** Share of the deadline the engine phase may use before it starts skipping cases. */
const kEngineShare = 0.6;

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
  program: Program;
  keywords: string[];
}

function ruleSet(name: RuleSetName, rules: readonly RuleDef[]): RuleSet {
  const keywords = [...new Set(rules.flatMap((r) => ('keywords' in r.trigger ? r.trigger.keywords : [])))];
  return { name, rules, program: compileProgram(rules, engineBackend), keywords };
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
      cases.push({ name, set, body, bodyKind: `${kind}/${density}`, size: size ?? '' });
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
      cases.push({ name, set, body, bodyKind: 'adv', size: '1MB' });
    }
  }
  return cases;
}

// ---- Measurement ---------------------------------------------------------------------------------------

/**
 * The engine on one body: first a guarded scan in the worker (bounded; an engine under construction
 * can take minutes on a hostile body), then, if that scan fits the case budget, tinybench in this
 * thread. A body too slow for more than one call keeps the guarded scan as its only sample.
 */
async function measureEngine(c: Case, guard: BenchWorker): Promise<CaseResult> {
  const base = {
    name: c.name,
    ruleSet: c.set.name,
    body: c.body.name,
    bodyKind: c.bodyKind,
    size: c.size,
    bytes: c.body.bytes.length,
    planted: c.body.planted,
  };
  const g = await guard.guardEngine(c.set.name, c.body.contentType, c.body.bytes, kEngineGuardMs);
  if (g.status === 'timeout') {
    const t = g.budgetMs;
    return { ...base, findings: 0, engine: { p50: t, p99: t, mean: t, samples: 0, mbps: mbps(base.bytes, t), timedOut: true } };
  }
  if (g.status === 'error') return { ...base, findings: 0, engine: null, skipped: `engine error: ${g.message}` };
  if (g.ms >= kEngineOptions.caseBudgetMs) {
    return { ...base, findings: g.findings, engine: { p50: g.ms, p99: g.ms, mean: g.ms, samples: 1, mbps: mbps(base.bytes, g.ms), inThread: false } };
  }
  const meta = { contentType: c.body.contentType };
  const m = await measure(c.name, () => scanStream(c.set.program, [c.body.bytes], meta), g.ms, kEngineOptions);
  return { ...base, findings: g.findings, engine: { ...m, mbps: mbps(base.bytes, m.p50), inThread: true } };
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
  if (cases.length === 0) {
    log(`no case matches ${filters.map((f) => JSON.stringify(f)).join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const rssBodies = rssMB();
  log(`${cases.length} cases; bodies generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const order = cases.map((c, i) => ({ c, i })).sort((x, y) => priority(x.c, sets) - priority(y.c, sets) || x.i - y.i);
  const engineDeadline = started + kMaxSeconds * 1000 * kEngineShare;
  const deadline = started + kMaxSeconds * 1000;
  const timeLeft = (until: number): boolean => Date.now() < until;

  // Phase 1: the engine alone, so the peak RSS it reaches is its own.
  const results: CaseResult[] = cases.map((c) => ({
    name: c.name,
    ruleSet: c.set.name,
    body: c.body.name,
    bodyKind: c.bodyKind,
    size: c.size,
    bytes: c.body.bytes.length,
    planted: c.body.planted,
    findings: 0,
    engine: null,
    skipped: `time budget (--max-seconds ${kMaxSeconds})`,
  }));
  // The guard and the baselines get separate workers: re2-wasm's heap is per thread and small, and the
  // engine's compiled rules plus a rule-set alternation in one thread exhaust it (abort: OOM).
  const guard = new BenchWorker();
  for (const { c, i } of order) {
    if (!timeLeft(engineDeadline)) break;
    const r = await measureEngine(c, guard);
    results[i] = r;
    const e = r.engine;
    if (e === null) log(`engine   ${c.name.padEnd(34)} ${r.skipped ?? ''}`);
    else if (e.timedOut === true) log(`engine   ${c.name.padEnd(34)} > ${e.p50 / 1000} s: guarded scan terminated`);
    else log(`engine   ${c.name.padEnd(34)} ${e.mbps.toFixed(2).padStart(9)} MB/s  p50 ${e.p50.toFixed(2)} ms  (${e.samples} samples${e.inThread === true ? '' : ', guarded scan only'})`);
  }
  await guard.close();
  const skippedEngine = results.filter((r) => r.skipped?.startsWith('time budget') === true).length;
  if (skippedEngine > 0) log(`engine: ${skippedEngine} cases skipped, time budget spent`);
  const rssEngine = rssMB();

  // Phase 2: the baselines, in a worker that is terminated when a case exceeds its budget.
  if (baselineKinds.size > 0) {
    const host = new BenchWorker();
    const specs = new Map(sets.map((s) => [s.name, { a: v8Alternation(s.rules), b: re2Alternation(s.rules) }]));
    try {
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
          const br = await measureBaseline(host, c, spec[which]);
          r[which] = br;
          const est = br.status === 'ok' && br.extrapolated !== undefined ? ` (extrapolated from ${br.extrapolated.windowsTimed}/${br.extrapolated.windows} windows)` : '';
          const shown = br.status === 'ok' ? `${br.mbps.toFixed(3).padStart(9)} MB/s${est}` : br.status === 'timeout' ? `> ${br.budgetMs / 1000} s budget` : br.status;
          log(`baseline ${which} ${c.name.padEnd(32)} ${shown}`);
        }
      }
    } finally {
      await host.close();
    }
  }
  const rssEnd = rssMB();

  const goals = evaluateGoals(results, sets.map((s) => s.name));
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown';

  console.log('');
  console.log(formatCases(results));
  console.log('');
  console.log('MB/s = 10^6 bytes per second at the median (p50) time per body; ×(a), ×(b) = engine speed / baseline speed (> 1: engine faster).');
  console.log('~: baseline (b) time extrapolated from its first 64 KiB windows (it is a sum of independent windows, so linear).');
  console.log('found/planted: engine findings / synthetic values planted (decoys not counted; one value can give two findings).');
  console.log('');
  console.log(formatGoals(goals));
  for (const set of sets) {
    const skipped = results.filter((r) => r.ruleSet === set.name && r.engine === null).length;
    if (skipped > 0) console.log(`note: [${set.name}] ${skipped} cases not measured (see the table): its goals cover the measured cases only`);
  }
  console.log('');
  console.log(
    `peak RSS: ${rssEngine.toFixed(0)} MB after the engine cases (before any scan, bodies and programs ready: ${rssBodies.toFixed(0)} MB, so scanning +${(rssEngine - rssBodies).toFixed(0)} MB); ` +
      `${rssEnd.toFixed(0)} MB at the end (baselines included)`,
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
      elapsedSeconds: Math.round(elapsed),
      ruleSets: sets.map((s) => ({ name: s.name, rules: s.rules.length, ids: s.rules.map((r) => r.id) })),
      rssMB: { bodies: Math.round(rssBodies), engine: Math.round(rssEngine), end: Math.round(rssEnd) },
      adversarial: kAdversarialWhy,
      notes,
      cases: results,
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
