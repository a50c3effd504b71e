/**
 * Turns measured cases into the printed table and the goal verdicts. Pure functions over the results,
 * so the JSON written with `--json` and the table always say the same thing.
 */
import { median, type Measured } from './measure.js';
import type { PoolPhaseResult, PoolThroughput } from './pool.js';

export type BaselineResult =
  | {
      status: 'ok';
      p50: number;
      p99: number;
      mbps: number;
      count: number;
      samples: number;
      /** Set when the time was extrapolated from the first windows (baseline (b) only). */
      extrapolated?: { windowsTimed: number; windows: number };
      /**
       * Baseline (b) measured in alternation with the engine (sparse 1 MB bodies; engine.bench.ts,
       * `measurePairedB`): its ratio replaces p50 / engine p50 in `ratio`.
       */
      paired?: PairedB;
    }
  | { status: 'timeout'; budgetMs: number }
  | { status: 'error'; message: string }
  | { status: 'skipped'; reason: string };

export interface CaseResult {
  /**
   * `<rule set>/<body>`, e.g. `default/json/sparse/1MB`, `default/adv/a-dot`; a backend other than
   * the primary one adds ` [<backend>]`, e.g. `default/json/sparse/1MB [re2-wasm]`.
   */
  name: string;
  /** The engine's RE2 backend (`re2`, `re2-wasm`). */
  backend: string;
  ruleSet: string;
  body: string;
  /** `kind/density` for generated bodies, `adv` for adversarial ones. */
  bodyKind: string;
  size: string;
  bytes: number;
  planted: number;
  findings: number;
  /**
   * Null when the case was skipped (see `skipped`). `timedOut`: the guarded first scan was terminated
   * at its budget, so p50 is a lower bound. `inThread`: measured in the main thread with tinybench;
   * false when the guarded scan (worker thread) was slow enough to be the only sample. `runs`: the p50
   * of each tinybench run when the engine was measured twice, before and right after the case's
   * baselines (then p50 is their mean; see engine.bench.ts, phase 2).
   */
  engine: (Measured & { mbps: number; timedOut?: boolean; inThread?: boolean; runs?: number[] }) | null;
  skipped?: string;
  a?: BaselineResult;
  b?: BaselineResult;
}

export interface GoalCheck {
  ruleSet: string;
  goal: string;
  /** Undefined when no case of the goal was measured. */
  pass: boolean | undefined;
  items: Array<{ label: string; value: number; bound: Bound; pass: boolean }>;
  /** What the goal covers but this run did not measure (the time budget ran out first); printed. */
  missing?: string[];
}

/** 10^6 bytes per second from bytes and milliseconds. */
export function mbps(bytes: number, ms: number): number {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : Number.POSITIVE_INFINITY;
}

/**
 * Engine speed over baseline speed (>1: the engine is faster). A timed-out baseline gives a lower
 * bound: the baseline took longer than its budget.
 */
export function ratio(c: CaseResult, which: 'a' | 'b'): { value: number; bound: Bound } | undefined {
  const r = c[which];
  if (r === undefined || c.engine === null) return undefined;
  const engineBound = c.engine.timedOut === true;
  // An extrapolated (b) time is an estimate of a linear sum, not a bound: reported as exact, marked `~`.
  if (r.status === 'ok') return { value: r.paired !== undefined ? r.paired.ratio : r.p50 / c.engine.p50, bound: engineBound ? 'upper' : 'exact' };
  if (r.status === 'timeout' && !engineBound) return { value: r.budgetMs / c.engine.p50, bound: 'lower' };
  return undefined;
}

/**
 * One round of a paired (b) measurement: (b) over a run of consecutive windows (`bMs`), the engine's
 * time for the whole body measured right before and right after it (`engineMs`, their mean), and the
 * share of the body's window characters those windows hold.
 */
export interface PairedRound {
  bMs: number;
  engineMs: number;
  share: number;
}

export interface PairedB {
  ratio: number;
  rounds: PairedRound[];
}

/**
 * The paired ratio: (b)'s time over the rounds' windows / the engine's time for the same share of the
 * body, each share timed at its own round. A machine that slows down for a while slows both sides of
 * the rounds it falls on, so it cancels; with one steady speed this is (b) time / engine time.
 */
export function pairedRatio(rounds: readonly PairedRound[]): number {
  let b = 0;
  let e = 0;
  for (const r of rounds) {
    b += r.bMs;
    e += r.engineMs * r.share;
  }
  return e > 0 ? b / e : Number.POSITIVE_INFINITY;
}

/** `lower`: the true value is at least this; `upper`: at most this. */
export type Bound = 'lower' | 'upper' | 'exact';

function boundMark(b: Bound): string {
  return b === 'lower' ? '>' : b === 'upper' ? '<' : '';
}

function check(ruleSet: string, goal: string, items: GoalCheck['items']): GoalCheck {
  return { ruleSet, goal, pass: items.length === 0 ? undefined : items.every((i) => i.pass), items };
}

/**
 * time(1 MiB body) / time(one of its eight 128 KiB pieces) of one kind (`json/sparse`, `adv/a-dot`…),
 * measured in alternation (engine.bench.ts, `measureGrowth`): the median of the rounds' ratios, and
 * each round's.
 */
export interface GrowthPair {
  ruleSet: string;
  bodyKind: string;
  ratio: number;
  rounds: number[];
}

/**
 * Every goal of the bench, per rule set. Growth is taken from `growth` where the pair was measured in
 * alternation, else from the two cases' medians.
 */
export function evaluateGoals(cases: readonly CaseResult[], ruleSets: readonly string[], growthPairs: readonly GrowthPair[] = []): GoalCheck[] {
  const out: GoalCheck[] = [];
  for (const rs of ruleSets) {
    const mine = cases.filter((c): c is CaseResult & { engine: Measured } => c.ruleSet === rs && c.engine !== null);
    const sparse = mine.filter((c) => c.bodyKind.endsWith('/sparse'));
    const dense = mine.filter((c) => c.bodyKind.endsWith('/dense'));
    const vs = (list: readonly CaseResult[], which: 'a' | 'b', min: number): GoalCheck['items'] =>
      list.flatMap((c) => {
        const r = ratio(c, which);
        // A lower bound that already clears the goal passes; one that does not is unknown, so it fails.
        return r === undefined ? [] : [{ label: c.body, value: r.value, bound: r.bound, pass: r.bound !== 'upper' && r.value >= min }];
      });
    out.push(check(rs, 'sparse ≥ 4× baseline (a)', vs(sparse, 'a', 4)));
    out.push(check(rs, 'sparse ≥ 100× baseline (b)', vs(sparse, 'b', 100)));
    out.push(check(rs, 'dense ≥ 1× baseline (a)', vs(dense, 'a', 1)));

    // Every kind whose 1 MiB body was measured in alternation against its own 128 KiB pieces
    // (adversarial ones included); a generated kind the time budget left out falls back to the ratio of
    // its two cases' medians (different content at each size, see measureGrowth).
    const growth: GoalCheck['items'] = growthPairs
      .filter((p) => p.ruleSet === rs)
      .map((p) => ({ label: p.bodyKind, value: p.ratio, bound: 'exact' as const, pass: p.ratio <= 9 }));
    for (const kind of new Set(mine.map((c) => c.bodyKind))) {
      if (kind === 'adv' || growth.some((g) => g.label === kind)) continue;
      const big = mine.find((c) => c.bodyKind === kind && c.size === '1MB');
      const mid = mine.find((c) => c.bodyKind === kind && c.size === '128KB');
      if (big === undefined || mid === undefined || mid.engine.timedOut === true) continue;
      const g = big.engine.p50 / mid.engine.p50;
      growth.push({ label: kind, value: g, bound: big.engine.timedOut === true ? 'lower' : 'exact', pass: g <= 9 });
    }
    // An adversarial body has no 128 KB case to fall back on: without its pair it is named as missing.
    const unpaired = mine.filter((c) => c.bodyKind === 'adv' && !growth.some((g) => g.label === c.body)).map((c) => c.body);
    out.push({ ...check(rs, 'growth time(1 MB)/time(128 KB) ≤ 9', growth), ...(unpaired.length > 0 && { missing: unpaired }) });

    const sparse1m = sparse.filter((c) => c.size === '1MB' && c.engine.timedOut !== true).map((c) => c.engine.p50);
    const adv: GoalCheck['items'] = [];
    if (sparse1m.length > 0) {
      const ref = median(sparse1m);
      for (const c of mine.filter((x) => x.bodyKind === 'adv')) {
        const rel = c.engine.p50 / ref;
        adv.push({ label: c.body, value: rel, bound: c.engine.timedOut === true ? 'lower' : 'exact', pass: rel <= 3 });
      }
    }
    out.push(check(rs, 'adversarial 1 MB ≤ 3× sparse 1 MB (median of kinds)', adv));
  }
  return out;
}

// ---- Printing -----------------------------------------------------------------------------------------

function fmtNum(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return '∞';
  if (x >= 1000) return x.toFixed(0);
  if (x >= 100) return x.toFixed(digits === 0 ? 0 : 1);
  return x.toFixed(digits + (x < 1 ? 2 : 0));
}

/** A ratio with three significant digits (0.147, 1.62, 12.3, 123). */
function fmtX(x: number): string {
  if (!Number.isFinite(x)) return '∞';
  return x >= 1000 ? x.toFixed(0) : x.toPrecision(3);
}

/**
 * `fmtX` of a figure held against `goal`, with more digits when three would print the goal itself for
 * a figure on either side of it (1.796 against 1.8 prints 1.796, not a failing 1.80).
 */
export function fmtAgainst(x: number, goal: number): string {
  let text = fmtX(x);
  for (let digits = 4; digits <= 6 && x !== goal && Number(text) === goal; digits++) text = x.toPrecision(digits);
  return text;
}

function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function fmtBaseline(r: BaselineResult | undefined): string {
  if (r === undefined) return '';
  if (r.status === 'ok') return `${r.extrapolated !== undefined ? '~' : ''}${fmtNum(r.mbps)}`;
  if (r.status === 'timeout') return `> ${(r.budgetMs / 1000).toFixed(0)} s`;
  if (r.status === 'error') return 'error';
  return '-';
}

function fmtRatio(c: CaseResult, which: 'a' | 'b'): string {
  const r = ratio(c, which);
  if (r === undefined) return '';
  return `${boundMark(r.bound)}${fmtNum(r.value)}×`;
}

function table(rows: string[][], rightAlign: readonly boolean[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r, ri) => {
      const line = r.map((cell, i) => (rightAlign[i] === true ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ');
      return ri === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

function caseNote(c: CaseResult): string {
  const notes: string[] = [];
  if (c.engine === null) notes.push(`skipped: ${c.skipped ?? ''}`);
  else if (c.engine.timedOut === true) notes.push(`engine stopped at ${(c.engine.p50 / 1000).toFixed(0)} s`);
  else if (c.engine.inThread === false) notes.push('1 sample');
  for (const which of ['a', 'b'] as const) {
    const r = c[which];
    if (r?.status === 'error') notes.push(`(${which}) error: ${r.message.slice(0, 60)}`);
    if (r?.status === 'skipped' && r.reason !== 'no rules') notes.push(`(${which}) skipped: ${r.reason}`);
    if (r?.status === 'ok' && r.paired !== undefined) notes.push(`(${which}) paired, ${r.paired.rounds.length} rounds`);
  }
  return notes.join('; ');
}

/** The columns every case table starts with: name, speed, p50, p99, found/planted. */
function engineColumns(c: CaseResult): string[] {
  const e = c.engine;
  const lower = e?.timedOut === true;
  return [
    c.name,
    e === null ? '-' : `${lower ? '<' : ''}${fmtNum(e.mbps)}`,
    e === null ? '-' : `${lower ? '>' : ''}${fmtMs(e.p50)}`,
    e === null || e.samples <= 1 ? '-' : fmtMs(e.p99),
    e === null ? '-' : `${lower ? '?' : c.findings}/${c.planted}`,
  ];
}

export function formatCases(cases: readonly CaseResult[]): string {
  const header = ['case', 'MB/s', 'p50 ms', 'p99 ms', 'found/planted', '(a) MB/s', '×(a)', '(b) MB/s', '×(b)', 'note'];
  const rows = cases.map((c) => [
    ...engineColumns(c),
    fmtBaseline(c.a),
    fmtRatio(c, 'a'),
    fmtBaseline(c.b),
    fmtRatio(c, 'b'),
    caseNote(c),
  ]);
  return table([header, ...rows], [false, true, true, true, true, true, true, true, true, false]);
}

/**
 * The lines of `goals`: `PASS`/`FAIL`/`n/a ` and the goal, then what `detail` writes of a measured one
 * (given its verdict column); a goal with nothing measured gets one "not measured" line.
 */
export function goalLines(goals: readonly GoalCheck[], detail: (g: GoalCheck, verdict: string) => string[]): string[] {
  return goals.flatMap((g) => {
    const verdict = g.pass === undefined ? 'n/a ' : g.pass ? 'PASS' : 'FAIL';
    return g.items.length === 0 ? [`${verdict}  [${g.ruleSet}] ${g.goal}: not measured`] : detail(g, verdict);
  });
}

export function formatGoals(goals: readonly GoalCheck[]): string {
  return goalLines(goals, (g, verdict) => {
    const passed = g.items.filter((i) => i.pass).length;
    const isMax = g.goal.includes('≤');
    const worst = g.items.reduce((w, i) => (isMax ? (i.value > w.value ? i : w) : i.value < w.value ? i : w));
    const unit = g.goal.startsWith('growth') ? '' : '×';
    const lines = [`${verdict}  [${g.ruleSet}] ${g.goal}: ${passed}/${g.items.length} pass; worst ${boundMark(worst.bound)}${fmtNum(worst.value, 2)}${unit} (${worst.label})`];
    const failed = g.items.filter((x) => !x.pass);
    // Every failing case when there are a few; when most fail, the table already says it all.
    for (const i of failed.slice(0, 4)) lines.push(`        fail: ${i.label} ${boundMark(i.bound)}${fmtNum(i.value, 2)}${unit}`);
    if (failed.length > 4) lines.push(`        … and ${failed.length - 4} more`);
    if (g.missing !== undefined && g.missing.length > 0) lines.push(`        not measured (time budget): ${g.missing.join(', ')}`);
    return lines;
  }).join('\n');
}

// ---- Other backends ------------------------------------------------------------------------------------

/**
 * A secondary backend's speed over the primary's on the same rule set and body (> 1: faster than the
 * primary). A timed-out scan's time is a lower bound, so the ratio becomes a bound too.
 */
export function primaryRatio(c: CaseResult, primary: readonly CaseResult[]): { value: number; bound: Bound } | undefined {
  const p = primary.find((x) => x.ruleSet === c.ruleSet && x.body === c.body);
  if (p === undefined || p.engine === null || c.engine === null) return undefined;
  const mineOut = c.engine.timedOut === true;
  const theirsOut = p.engine.timedOut === true;
  if (mineOut && theirsOut) return undefined;
  return { value: p.engine.p50 / c.engine.p50, bound: mineOut ? 'upper' : theirsOut ? 'lower' : 'exact' };
}

/** The secondary backends' rows: their figures, their speed relative to the primary's, and the baselines' ratios. */
export function formatBackendCases(cases: readonly CaseResult[], primary: readonly CaseResult[], primaryName: string): string {
  const header = ['case', 'MB/s', 'p50 ms', 'p99 ms', 'found/planted', `×${primaryName}`, '×(a)', '×(b)', 'note'];
  const rows = cases.map((c) => {
    const e = c.engine;
    const lower = e?.timedOut === true;
    const vs = primaryRatio(c, primary);
    const p = primary.find((x) => x.ruleSet === c.ruleSet && x.body === c.body);
    let note = caseNote(c);
    // Same rules, same engine, another regex library: the findings must be the same.
    if (e !== null && !lower && p?.engine != null && p.engine.timedOut !== true && p.findings !== c.findings) {
      note = [note, `findings differ from ${primaryName} (${p.findings})`].filter((x) => x !== '').join('; ');
    }
    return [
      ...engineColumns(c),
      vs === undefined ? '' : `${boundMark(vs.bound)}${fmtX(vs.value)}×`,
      fmtRatio(c, 'a'),
      fmtRatio(c, 'b'),
      note,
    ];
  });
  return table([header, ...rows], [false, true, true, true, true, true, true, true, false]);
}

/** One line per secondary backend: the median of its speed ratios to the primary, and their range. */
export function summarizeBackends(cases: readonly CaseResult[], primary: readonly CaseResult[], primaryName: string): string[] {
  const lines: string[] = [];
  for (const backend of new Set(cases.map((c) => c.backend))) {
    const ratios = cases.filter((c) => c.backend === backend).flatMap((c) => primaryRatio(c, primary) ?? []);
    if (ratios.length === 0) {
      lines.push(`${backend}: not measured`);
      continue;
    }
    const values = ratios.map((r) => r.value);
    const bounded = ratios.some((r) => r.bound !== 'exact') ? ' (some are bounds: a scan stopped at its budget)' : '';
    lines.push(
      `${backend}: median ${fmtX(median(values))}× the speed of ${primaryName} over ${values.length} cases ` +
        `(${fmtX(Math.min(...values))}× to ${fmtX(Math.max(...values))}×)${bounded}`,
    );
  }
  return lines;
}

// ---- Pool ----------------------------------------------------------------------------------------------

/** The pool's goals (issue 3): 2 workers ≥ 1.8× one on the batch corpus; < 64 MB per worker above idle. */
export const kPoolSpeedupGoal = 1.8;
export const kPoolMemoryGoalMB = 64;

/**
 * 2 workers over 1 on one corpus: the median over rounds of the 2-worker round's MB/s over the 1-worker
 * round's just before it. The two take turns round by round, and a round's pair shares the machine's
 * minute; the ratio of the two medians mixes minutes (on this shared machine a round swings by ±20%
 * from one second to the next). Falls back to the medians' ratio when the rounds do not pair up.
 */
export function poolSpeedup(one: PoolThroughput, two: PoolThroughput): number {
  const pairs = pairedRounds(one, two);
  if (pairs.length === 0) return two.mbps / one.mbps;
  return median(pairs.map(([a, b]) => b.mbps / a.mbps));
}

type PoolRound = PoolThroughput['rounds'][number];

/** Each 2-worker round with the 1-worker round before it; none when the rounds do not pair up. */
function pairedRounds(one: PoolThroughput, two: PoolThroughput): Array<[PoolRound, PoolRound]> {
  if (one.rounds.length !== two.rounds.length) return [];
  return two.rounds.map((r, i) => [one.rounds[i]!, r]);
}

/**
 * The speed-up as two factors, each the median over paired rounds: how many more cores the process
 * kept busy with 2 workers than with 1 (CPU/wall over CPU/wall), and how much work each CPU-second
 * did (MB per CPU-second over MB per CPU-second). Their product is each round's speed-up. With one
 * worker the calling thread and V8's helper threads run on the otherwise idle core, so the first
 * factor is at most cores ÷ (1-worker CPU/wall) however little the pool itself costs.
 */
export function poolSplit(one: PoolThroughput, two: PoolThroughput): { cores: number; perCpu: number } | null {
  const pairs = pairedRounds(one, two);
  if (pairs.length === 0) return null;
  const perCpu = (r: PoolRound) => r.mbps / r.cpuPerWall;
  return {
    cores: median(pairs.map(([a, b]) => b.cpuPerWall / a.cpuPerWall)),
    perCpu: median(pairs.map(([a, b]) => perCpu(b) / perCpu(a))),
  };
}

/**
 * Where the 1- and 2-worker rounds' CPU went by thread, and what the pool's own threads left the
 * workers: with one worker the calling thread and the others run on the idle core; with two, every
 * core they take is one the workers do not get. Null when the threads were not read.
 */
export function poolThreadsLine(one: PoolThroughput, two: PoolThroughput, cores: number): string | null {
  const a = one.threads;
  const b = two.threads;
  if (a === undefined || b === undefined) return null;
  const f = (x: number) => x.toFixed(2);
  return (
    `by thread (cores, medians of the rounds): 1 worker ${f(a.scan)}, calling thread ${f(a.calling)}, other threads ${f(a.other)}; ` +
    `2 workers ${f(b.scan)}, calling thread ${f(b.calling)}, other threads ${f(b.other)}: with two workers the pool's other threads took ${f(b.calling + b.other)} of the ${cores} cores ` +
    `(with one, ${f(a.calling + a.other)} on the idle core), so two workers at one's pace would make at most ${fmtX(Math.min(cores - b.calling - b.other, 2 * a.scan) / a.scan)}× its throughput`
  );
}

/** The pool's (or, with `kind`, the bare engine threads' or the compute loop's) rounds on a corpus with so many workers. */
export function poolItem(items: readonly PoolThroughput[], corpus: PoolThroughput['corpus'], workers: number, kind?: PoolThroughput['kind']): PoolThroughput | undefined {
  return items.find((t) => t.corpus === corpus && t.workers === workers && t.kind === kind);
}

/** The 1- and 2-worker (or thread) items of one kind on a corpus, when both were measured. */
export function poolPair(items: readonly PoolThroughput[], corpus: PoolThroughput['corpus'], kind?: PoolThroughput['kind']): { one: PoolThroughput; two: PoolThroughput } | undefined {
  const one = poolItem(items, corpus, 1, kind);
  const two = poolItem(items, corpus, 2, kind);
  return one === undefined || two === undefined ? undefined : { one, two };
}

/** The host's two-thread figure a round must reach to count as one where it gave two full cores. */
export const kHostFullCores = 1.9;

/**
 * The pool's 2-over-1 ratio in the rounds where the compute loop (bench/bare.ts: no engine, nothing
 * allocated) made at least kHostFullCores× in two threads over one: what the pool does when the host
 * gives it two whole cores. Null without compute rounds paired with the pool's; `rounds` 0 when the
 * host never did in this run. Printed beside the goal, never instead of it.
 */
export function poolWhenHostFull(items: readonly PoolThroughput[]): { rounds: number; of: number; pool: number; bare: number | null } | null {
  const ratios = (kind?: PoolThroughput['kind']): number[] | null => {
    const pair = poolPair(items, 'batch', kind);
    const pairs = pair === undefined ? [] : pairedRounds(pair.one, pair.two);
    return pairs.length === 0 ? null : pairs.map(([a, b]) => b.mbps / a.mbps);
  };
  const host = ratios('compute');
  const pool = ratios();
  if (host === null || pool === null || host.length !== pool.length) return null;
  const bare = ratios('bare');
  const full = host.flatMap((h, i) => (h >= kHostFullCores ? [i] : []));
  return {
    rounds: full.length,
    of: host.length,
    pool: full.length > 0 ? median(full.map((i) => pool[i]!)) : NaN,
    bare: bare !== null && bare.length === host.length && full.length > 0 ? median(full.map((i) => bare[i]!)) : null,
  };
}

export function evaluatePoolGoals(p: PoolPhaseResult | null): GoalCheck[] {
  const speed: GoalCheck['items'] = [];
  const memory: GoalCheck['items'] = [];
  if (p !== null && p.status === 'ok') {
    for (const corpus of ['batch'] as const) {
      const pair = poolPair(p.throughput, corpus);
      if (pair === undefined) continue;
      const r = poolSpeedup(pair.one, pair.two);
      speed.push({ label: corpus, value: r, bound: 'exact', pass: r >= kPoolSpeedupGoal });
    }
    for (const m of p.memory) {
      memory.push({ label: `${m.workers} worker${m.workers > 1 ? 's' : ''}`, value: m.scanPerWorkerMB, bound: 'exact', pass: m.scanPerWorkerMB < kPoolMemoryGoalMB });
    }
  }
  return [
    check('pool', `2 workers ≥ ${kPoolSpeedupGoal}× the throughput of 1 (batch corpus)`, speed),
    check('pool', `each worker < ${kPoolMemoryGoalMB} MB above an idle worker while scanning 1 MB bodies`, memory),
  ];
}

function fmtLoad(xs: readonly number[]): string {
  return xs.map((x) => x.toFixed(2)).join(' ');
}

/** The pool's table: throughput per corpus and worker count, the 2/1 ratios, and the memory readings. */
export function formatPool(p: PoolPhaseResult, cores: number): string {
  const load = `load average (1, 5, 15 min) ${fmtLoad(p.loadavg.start)} at the start, ${fmtLoad(p.loadavg.end)} at the end, ${cores} cores`;
  if (p.status !== 'ok') return `Pool: not measured (${p.status}: ${p.message}); ${load}`;
  const b = p.corpus.batch;
  const corpusName = {
    batch: `batch: ${b.bodies} bodies, ${fmtNum(b.minBytes / 1024, 0)}–${fmtNum(b.maxBytes / 1024, 0)} KiB (${b.dense} dense), ${fmtNum(b.bytes / 1e6)} MB`,
    '1MB': `1 MiB bodies: ${p.corpus.big.bodies}, ${fmtNum(p.corpus.big.bytes / 1e6)} MB`,
  };
  const header = ['corpus', 'workers', 'MB/s', 'rounds MB/s', 'CPU/wall', 'scan/calling/other', 'MB/CPU-s', 'others', 'findings'];
  const rows = p.throughput.map((t) => [
    t.kind === 'bare' ? `${t.corpus}: bare engine threads (no pool)` : t.kind === 'compute' ? `${t.corpus}: compute loop threads (host)` : corpusName[t.corpus],
    String(t.workers),
    fmtNum(t.mbps),
    t.rounds.map((r) => fmtNum(r.mbps)).join(' '),
    t.cpuPerWall.toFixed(2),
    t.threads === undefined ? '?' : `${t.threads.scan.toFixed(2)} ${t.threads.calling.toFixed(2)} ${t.threads.other.toFixed(2)}`,
    fmtNum(t.mbps / t.cpuPerWall),
    t.otherCores === undefined ? '?' : t.otherCores.toFixed(2),
    t.kind === 'compute' ? '–' : String(t.findings),
  ]);
  const lines = [
    `Pool: createScanner({ workers: 1 | 2 }), backend ${p.backend}, default rules; every body of a round submitted at once (maxQueue raised to the corpus), ` +
      `after a warm-up of ${p.warmup.batchPerWorker} passes over the batch corpus per worker and ${p.warmup.big} over the 1 MiB bodies; 1 and 2 workers take turns round by round; ${p.seconds.toFixed(0)} s; ${load}.`,
    table([header, ...rows], [false, true, true, false, true, true, true, true, true]),
  ];
  const ratios: string[] = [];
  for (const corpus of ['batch', '1MB'] as const) {
    const pair = poolPair(p.throughput, corpus);
    if (pair === undefined) continue;
    const { one, two } = pair;
    ratios.push(`${corpus} ${fmtX(poolSpeedup(one, two))}× (medians ${fmtX(two.mbps / one.mbps)}×)`);
    if (one.findings !== two.findings) ratios.push(`(${corpus}: findings differ, ${one.findings} vs ${two.findings})`);
  }
  const bare = poolPair(p.throughput, 'batch', 'bare');
  if (bare !== undefined) {
    ratios.push(`bare engine threads on the batch ${fmtX(poolSpeedup(bare.one, bare.two))}×`);
    const pooled = poolItem(p.throughput, 'batch', 1)?.findings;
    if (pooled !== undefined && (bare.one.findings !== pooled || bare.two.findings !== pooled)) ratios.push(`(bare threads' findings differ: ${bare.one.findings}, ${bare.two.findings} vs ${pooled})`);
  }
  const host = poolPair(p.throughput, 'batch', 'compute');
  if (host !== undefined) ratios.push(`compute loop threads ${fmtX(poolSpeedup(host.one, host.two))}×`);
  lines.push(
    `2 workers / 1 worker: ${ratios.join(', ')}. CPU/wall = the bench process's CPU time / wall time (cores it kept busy, main thread included); ` +
      `scan/calling/other = that CPU by thread (/proc/self/task/*/schedstat, bench/threads.ts): the scanning threads (the workers), the calling thread, all other threads (V8's helpers...); ` +
      `MB/CPU-s = MB scanned per second of that CPU time (cost per byte, whatever the load); ` +
      `others = cores kept busy by other processes meanwhile (/proc/stat); medians of the rounds; 2/1 = median of each round's 2-worker MB/s over the 1-worker round before it. ` +
      `Bare engine threads = the in-thread engine in 1 or 2 plain worker threads taking the same bodies from one shared counter (bench/bare.ts), in the same rounds: no pool, no calling-thread work. ` +
      `Compute loop threads = the same threads walking a 384 KiB table automaton over the same bytes instead (no engine, nothing allocated; its MB/s is not a scan's): what the host gave any two threads in those rounds.`,
  );
  lines.push('');
  const mh = ['workers', 'RSS before', 'RSS idle', 'RSS peak', 'idle worker', 'scanning, per worker', 'process, per worker', 'main isolate', 'samples'];
  const mrows = p.memory.map((m) => [
    String(m.workers),
    `${m.baseMB.toFixed(0)} MB`,
    `${m.idleMB.toFixed(0)} MB`,
    `${m.peakMB.toFixed(0)} MB`,
    `${m.idlePerWorkerMB.toFixed(1)} MB`,
    `+${m.scanPerWorkerMB.toFixed(1)} MB`,
    `+${m.processScanPerWorkerMB.toFixed(1)} MB`,
    `+${m.mainGrowthMB.toFixed(1)} MB`,
    String(m.samples),
  ]);
  lines.push(`Pool memory, ${p.memory[0]?.bodies ?? 0} × 1 MiB bodies × ${p.memory[0]?.rounds ?? 0} rounds; method: ${p.memoryMethod}.`);
  lines.push(table([mh, ...mrows], [true, true, true, true, true, true, true, true, true]));
  lines.push('idle worker = (idle − before) / workers, main isolate out: what a started, warmed worker costs; main isolate = its growth while scanning (queued body copies, reports).');
  return lines.join('\n');
}

/** PASS/FAIL lines of the pool goals, with the figures and the load they were measured under. */
export function formatPoolGoals(goals: readonly GoalCheck[], p: PoolPhaseResult | null): string {
  const lines: string[] = [];
  for (const g of goals) {
    const verdict = g.pass === undefined ? 'n/a ' : g.pass ? 'PASS' : 'FAIL';
    if (p === null || p.status !== 'ok' || g.items.length === 0) {
      lines.push(`${verdict}  [${g.ruleSet}] ${g.goal}: not measured${p !== null && p.status !== 'ok' ? ` (${p.status}: ${p.message})` : ''}`);
      continue;
    }
    if (g.goal.startsWith('2 workers')) {
      const pair = poolPair(p.throughput, 'batch');
      const one = pair?.one;
      const two = pair?.two;
      const item = g.items[0];
      lines.push(
        `${verdict}  [${g.ruleSet}] ${g.goal}: ${fmtAgainst(item?.value ?? NaN, kPoolSpeedupGoal)}× paired by round (1 worker ${fmtNum(one?.mbps ?? NaN)} MB/s, 2 workers ${fmtNum(two?.mbps ?? NaN)} MB/s, medians of ${one?.rounds.length ?? 0} rounds; ` +
          `CPU/wall ${one?.cpuPerWall.toFixed(2) ?? '?'} and ${two?.cpuPerWall.toFixed(2) ?? '?'}; other processes ${two?.otherCores?.toFixed(2) ?? '?'} cores; ` +
          `load average ${p.loadavg.start[0]?.toFixed(2) ?? '?'} → ${p.loadavg.end[0]?.toFixed(2) ?? '?'})`,
      );
      if (pair !== undefined) {
        const split = poolSplit(pair.one, pair.two);
        if (split !== null) {
          lines.push(
            `        split: ${fmtX(split.cores)}× the cores kept busy × ${split.perCpu.toFixed(2)}× the work per CPU-second (medians of paired rounds); ` +
              `the 1-worker rounds' ${pair.one.cpuPerWall.toFixed(2)} cores bound the first factor to ${fmtX(p.cores / pair.one.cpuPerWall)}× on ${p.cores} cores`,
          );
        }
        const byThread = poolThreadsLine(pair.one, pair.two, p.cores);
        if (byThread !== null) lines.push(`        ${byThread}`);
      }
      const bare = poolPair(p.throughput, 'batch', 'bare');
      if (bare !== undefined && item !== undefined) {
        const machine = poolSpeedup(bare.one, bare.two);
        lines.push(
          `        same rounds, the engine alone in two bare threads over one: ${fmtX(machine)}× (${fmtNum(bare.one.mbps)} and ${fmtNum(bare.two.mbps)} MB/s): ` +
            `the pool's ratio is ${((100 * item.value) / machine).toFixed(0)}% of what this machine gave two scanning threads`,
        );
      }
      const host = poolPair(p.throughput, 'batch', 'compute');
      const full = poolWhenHostFull(p.throughput);
      if (host !== undefined && full !== null) {
        const when =
          full.rounds === 0
            ? `in no round did it reach ${fmtX(kHostFullCores)}×`
            : `in the ${full.rounds} of ${full.of} rounds where it reached ${fmtX(kHostFullCores)}× (two whole cores), the pool made ${fmtX(full.pool)}×` +
              (full.bare !== null ? ` and the bare engine threads ${fmtX(full.bare)}×` : '') +
              ' (medians; the verdict above counts every round)';
        lines.push(`        same rounds, the host: a compute loop with no engine and nothing allocated made ${fmtX(poolSpeedup(host.one, host.two))}× in two threads over one; ${when}`);
      }
      // The verdict stands as measured, but a busy machine cannot show a 2-core speed-up: say so.
      const others = two?.otherCores;
      if (others !== undefined && others >= 0.5) {
        lines.push(`        note: other processes kept ${others.toFixed(2)} of the ${p.cores} cores busy during the 2-worker rounds: the ratio is bounded by the free cores, not by the pool`);
      }
    } else {
      const worst = g.items.reduce((w, i) => (i.value > w.value ? i : w));
      const each = g.items.map((i) => `${i.label} +${i.value.toFixed(1)} MB`).join(', ');
      const upper = p.memory.map((m) => `${m.workers}: +${m.processScanPerWorkerMB.toFixed(1)} MB`).join(', ');
      lines.push(
        `${verdict}  [${g.ruleSet}] ${g.goal}: worst +${worst.value.toFixed(1)} MB (${worst.label}); ${each} per worker ` +
          `(RSS less the main isolate; whole process: ${upper})`,
      );
    }
  }
  return lines.join('\n');
}
