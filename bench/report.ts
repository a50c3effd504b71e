/**
 * Turns measured cases into the printed table and the goal verdicts. Pure functions over the results,
 * so the JSON written with `--json` and the table always say the same thing.
 */
import type { Measured } from './measure.js';

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
    }
  | { status: 'timeout'; budgetMs: number }
  | { status: 'error'; message: string }
  | { status: 'skipped'; reason: string };

export interface CaseResult {
  /** `<rule set>/<body>`, e.g. `default/json/sparse/1MB`, `default/adv/a-dot`. */
  name: string;
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
   * false when the guarded scan (worker thread) was slow enough to be the only sample.
   */
  engine: (Measured & { mbps: number; timedOut?: boolean; inThread?: boolean }) | null;
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
  if (r.status === 'ok') return { value: r.p50 / c.engine.p50, bound: engineBound ? 'upper' : 'exact' };
  if (r.status === 'timeout' && !engineBound) return { value: r.budgetMs / c.engine.p50, bound: 'lower' };
  return undefined;
}

/** `lower`: the true value is at least this; `upper`: at most this. */
export type Bound = 'lower' | 'upper' | 'exact';

function boundMark(b: Bound): string {
  return b === 'lower' ? '>' : b === 'upper' ? '<' : '';
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

function check(ruleSet: string, goal: string, items: GoalCheck['items']): GoalCheck {
  return { ruleSet, goal, pass: items.length === 0 ? undefined : items.every((i) => i.pass), items };
}

/** Every goal of the bench, per rule set. */
export function evaluateGoals(cases: readonly CaseResult[], ruleSets: readonly string[]): GoalCheck[] {
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

    const growth: GoalCheck['items'] = [];
    for (const kind of new Set(mine.map((c) => c.bodyKind))) {
      const big = mine.find((c) => c.bodyKind === kind && c.size === '1MB');
      const mid = mine.find((c) => c.bodyKind === kind && c.size === '128KB');
      if (kind === 'adv' || big === undefined || mid === undefined) continue;
      if (mid.engine.timedOut === true) continue;
      const g = big.engine.p50 / mid.engine.p50;
      growth.push({ label: kind, value: g, bound: big.engine.timedOut === true ? 'lower' : 'exact', pass: g <= 9 });
    }
    out.push(check(rs, 'growth time(1 MB)/time(128 KB) ≤ 9', growth));

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
  }
  return notes.join('; ');
}

export function formatCases(cases: readonly CaseResult[]): string {
  const header = ['case', 'MB/s', 'p50 ms', 'p99 ms', 'found/planted', '(a) MB/s', '×(a)', '(b) MB/s', '×(b)', 'note'];
  const rows = cases.map((c) => {
    const e = c.engine;
    const lower = e?.timedOut === true;
    return [
      c.name,
      e === null ? '-' : `${lower ? '<' : ''}${fmtNum(e.mbps)}`,
      e === null ? '-' : `${lower ? '>' : ''}${fmtMs(e.p50)}`,
      e === null || e.samples <= 1 ? '-' : fmtMs(e.p99),
      e === null ? '-' : `${lower ? '?' : c.findings}/${c.planted}`,
      fmtBaseline(c.a),
      fmtRatio(c, 'a'),
      fmtBaseline(c.b),
      fmtRatio(c, 'b'),
      caseNote(c),
    ];
  });
  return table([header, ...rows], [false, true, true, true, true, true, true, true, true, false]);
}

export function formatGoals(goals: readonly GoalCheck[]): string {
  const lines: string[] = [];
  for (const g of goals) {
    const verdict = g.pass === undefined ? 'n/a ' : g.pass ? 'PASS' : 'FAIL';
    if (g.items.length === 0) {
      lines.push(`${verdict}  [${g.ruleSet}] ${g.goal}: not measured`);
      continue;
    }
    const passed = g.items.filter((i) => i.pass).length;
    const isMax = g.goal.includes('≤');
    const worst = g.items.reduce((w, i) => (isMax ? (i.value > w.value ? i : w) : i.value < w.value ? i : w));
    const unit = g.goal.startsWith('growth') ? '' : '×';
    lines.push(
      `${verdict}  [${g.ruleSet}] ${g.goal}: ${passed}/${g.items.length} pass; worst ${boundMark(worst.bound)}${fmtNum(worst.value, 2)}${unit} (${worst.label})`,
    );
    const failed = g.items.filter((x) => !x.pass);
    // Every failing case when there are a few; when most fail, the table already says it all.
    for (const i of failed.slice(0, 4)) lines.push(`        fail: ${i.label} ${boundMark(i.bound)}${fmtNum(i.value, 2)}${unit}`);
    if (failed.length > 4) lines.push(`        … and ${failed.length - 4} more`);
  }
  return lines.join('\n');
}
