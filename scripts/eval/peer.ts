/**
 * Scores leakscan on the peer cases: labelled cases from other detectors' public tests, kept outside
 * the repository (`../shared/eval/peer-cases.jsonl`, format and method in its README). Unlike the
 * synthetic corpus, these were not written from our rules, so they can fail.
 *
 * Each case's `text` is scanned once as text/plain with every rule on, at the lowest confidence
 * threshold; the headline is also given at the higher thresholds by dropping findings below them. A positive passes when, for
 * every expected value, findings of the class's rules (kRuleClass) cover at least half of its bytes
 * (with no values: any finding of the class); a negative passes when there is no finding of the class.
 * The headline is over covered classes: macro recall over positives that are neither `weak` nor
 * `policy`, macro pass rate of negatives, and classes covered. Only ids, classes and rule ids are ever
 * printed or written, never a case's text or values.
 */
import { readFileSync } from 'node:fs';
import type { Confidence, Scanner } from '../../src/types.js';

export interface PeerCase {
  id: string;
  class: string;
  text: string;
  expect: 'positive' | 'negative';
  values: string[];
  peer: string;
  kind: string;
  weak?: boolean;
  policy?: boolean;
}

/** The part of a finding the scoring needs. */
export interface SpanFinding {
  ruleId: string;
  start: number;
  end: number;
  confidence?: Confidence;
}

/** The goals the headline is measured against (issue 32). */
export const kPeerGoals = { classesCovered: 62, macroRecall: 0.95, macroNegativePassRate: 0.99 } as const;

export interface PeerCaseResult {
  id: string;
  class: string;
  expect: 'positive' | 'negative';
  /** The peer's case kind (`test`, `validator-unit-test`: a bare candidate, `doc-example`, …). */
  kind: string;
  weak: boolean;
  policy: boolean;
  pass: boolean;
  /** Positives: one finding of the class spans every expected value (or, with no values, any finding). */
  full: boolean;
  /** Positives: the least share of an expected value's bytes the class's findings cover (0-1). */
  coverage: number | null;
  /** Every finding's rule and its class (null: a rule with no class), deduplicated. */
  seen: Array<{ rule: string; class: string | null }>;
}

export interface PeerClassScore {
  class: string;
  rules: string[];
  covered: boolean;
  /** Positives that are neither weak nor policy. */
  positives: { passed: number; full: number; total: number };
  negatives: { passed: number; total: number };
  weak: { found: number; total: number };
  policy: { found: number; total: number };
  recall: number | null;
  negativePassRate: number | null;
}

export interface PeerHeadline {
  classes: number;
  classesCovered: number;
  /** Mean over covered classes with at least one positive that is neither weak nor policy. */
  macroRecall: number | null;
  /** Mean over covered classes with at least one negative. */
  macroNegativePassRate: number | null;
  /** Reported beside the headline, not in it. */
  weak: { found: number; total: number };
  policy: { found: number; total: number };
}

export interface PeerScore {
  file: string;
  cases: number;
  headline: PeerHeadline;
  goals: typeof kPeerGoals;
  classes: PeerClassScore[];
  notCovered: string[];
  /** Failing cases of covered classes (weak and policy positives flagged), ids only. */
  failures: PeerCaseResult[];
  /** The threshold the findings were scanned at, and the headline at each higher one. */
  minConfidence?: Confidence;
  byThreshold?: Array<{ minConfidence: Confidence; headline: PeerHeadline }>;
}

/** Reads and checks the JSONL file; throws with the line number on a malformed record. */
export function loadPeerCases(file: string): PeerCase[] {
  const out: PeerCase[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const c = JSON.parse(line) as Partial<PeerCase>;
    const ok = typeof c.id === 'string' && typeof c.class === 'string' && typeof c.text === 'string' && (c.expect === 'positive' || c.expect === 'negative') && Array.isArray(c.values) && c.values.every((v) => typeof v === 'string' && v !== '');
    if (!ok) throw new Error(`${file}:${i + 1}: not a peer case (id, class, text, expect, values)`);
    out.push(c as PeerCase);
  });
  return out;
}

/** Scans each case's text once as text/plain; the scanner should have every rule on. */
export async function scanPeerCases(cases: readonly PeerCase[], scanner: Scanner): Promise<Map<string, SpanFinding[]>> {
  const out = new Map<string, SpanFinding[]>();
  for (const c of cases) {
    const report = await scanner.analyze(c.text, { contentType: 'text/plain' });
    out.set(c.id, report.findings.map((f) => ({ ruleId: f.ruleId, start: f.start, end: f.end, confidence: f.confidence })));
  }
  return out;
}

/** Bytes of [start, end) covered by the union of `spans`. */
function coveredBytes(spans: readonly SpanFinding[], start: number, end: number): number {
  const cut = spans.map((f) => [Math.max(f.start, start), Math.min(f.end, end)] as const).filter(([s, e]) => s < e).sort((a, b) => a[0] - b[0]);
  let n = 0;
  let at = start;
  for (const [s, e] of cut) {
    if (e <= at) continue;
    n += e - Math.max(s, at);
    at = e;
  }
  return n;
}

/** Best occurrence of `value` in `text`: the share of its bytes covered and whether one finding holds it. */
function valueCoverage(text: Buffer, value: string, spans: readonly SpanFinding[]): { share: number; full: boolean } {
  const v = Buffer.from(value, 'utf8');
  let best = { share: 0, full: false };
  for (let at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + 1)) {
    const end = at + v.length;
    const share = coveredBytes(spans, at, end) / v.length;
    const full = spans.some((f) => f.start <= at && f.end >= end);
    if (share > best.share || (share === best.share && full)) best = { share, full };
  }
  return best;
}

/** Scores one case against its findings. */
export function scorePeerCase(c: PeerCase, findings: readonly SpanFinding[], ruleClass: Readonly<Record<string, string>>): PeerCaseResult {
  const ofClass = findings.filter((f) => ruleClass[f.ruleId] === c.class);
  const seenRules = [...new Set(findings.map((f) => f.ruleId))].sort();
  const seen = seenRules.map((rule) => ({ rule, class: ruleClass[rule] ?? null }));
  const base = { id: c.id, class: c.class, expect: c.expect, kind: c.kind, weak: c.weak === true, policy: c.policy === true, seen };
  if (c.expect === 'negative') return { ...base, pass: ofClass.length === 0, full: false, coverage: null };
  if (c.values.length === 0) return { ...base, pass: ofClass.length > 0, full: ofClass.length > 0, coverage: ofClass.length > 0 ? 1 : 0 };
  const text = Buffer.from(c.text, 'utf8');
  const each = c.values.map((v) => valueCoverage(text, v, ofClass));
  const coverage = Math.min(...each.map((e) => e.share));
  return { ...base, pass: coverage >= 0.5, full: each.every((e) => e.full), coverage };
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
const mean = (xs: ReadonlyArray<number | null>): number | null => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((s, x) => s + x, 0) / v.length;
};

function classScore(name: string, rules: string[], results: readonly PeerCaseResult[]): PeerClassScore {
  const s: PeerClassScore = {
    class: name, rules, covered: rules.length > 0,
    positives: { passed: 0, full: 0, total: 0 }, negatives: { passed: 0, total: 0 },
    weak: { found: 0, total: 0 }, policy: { found: 0, total: 0 }, recall: null, negativePassRate: null,
  };
  for (const r of results) {
    if (r.expect === 'negative') {
      s.negatives.total++;
      if (r.pass) s.negatives.passed++;
      continue;
    }
    // A positive both weak and policy is counted under policy only.
    const bucket = r.policy ? s.policy : r.weak ? s.weak : null;
    if (bucket !== null) {
      bucket.total++;
      if (r.pass) bucket.found++;
      continue;
    }
    s.positives.total++;
    if (r.pass) s.positives.passed++;
    if (r.full) s.positives.full++;
  }
  s.recall = ratio(s.positives.passed, s.positives.total);
  s.negativePassRate = ratio(s.negatives.passed, s.negatives.total);
  return s;
}

/** Scores every case; classes come from the cases, rules from `ruleClass`. */
export function scorePeerCases(cases: readonly PeerCase[], findings: ReadonlyMap<string, readonly SpanFinding[]>, ruleClass: Readonly<Record<string, string>>, file = ''): PeerScore {
  const results = cases.map((c) => scorePeerCase(c, findings.get(c.id) ?? [], ruleClass));
  const names = [...new Set(cases.map((c) => c.class))].sort();
  const classes = names.map((n) => classScore(n, Object.keys(ruleClass).filter((r) => ruleClass[r] === n).sort(), results.filter((r) => r.class === n)));
  const covered = classes.filter((c) => c.covered);
  const sum = (pick: (c: PeerClassScore) => { found: number; total: number }) => ({ found: covered.reduce((s, c) => s + pick(c).found, 0), total: covered.reduce((s, c) => s + pick(c).total, 0) });
  const coveredNames = new Set(covered.map((c) => c.class));
  return {
    file,
    cases: cases.length,
    headline: {
      classes: classes.length,
      classesCovered: covered.length,
      macroRecall: mean(covered.map((c) => c.recall)),
      macroNegativePassRate: mean(covered.map((c) => c.negativePassRate)),
      weak: sum((c) => c.weak),
      policy: sum((c) => c.policy),
    },
    goals: kPeerGoals,
    classes,
    notCovered: classes.filter((c) => !c.covered).map((c) => c.class),
    failures: results.filter((r) => !r.pass && coveredNames.has(r.class)).sort((a, b) => a.class.localeCompare(b.class) || a.id.localeCompare(b.id)),
  };
}

const num = (x: number | null) => (x === null ? '-' : x.toFixed(3));
const frac = (a: number, b: number) => (b === 0 ? '-' : `${a}/${b}`);
const met = (ok: boolean) => (ok ? 'met' : 'not met');

/** The headline beside its goals, then one row per class. */
export function formatPeerScore(p: PeerScore): string {
  const h = p.headline;
  const g = p.goals;
  const lines = [
    `Peer cases: ${p.cases} labelled cases from other detectors' public tests (${p.file}), ${h.classes} classes; each text scanned once as text/plain with all rules on`,
    '',
    `${'headline'.padEnd(48)} ${'measured'.padStart(9)} ${'goal'.padStart(10)}`,
    `${'classes covered'.padEnd(48)} ${`${h.classesCovered}/${h.classes}`.padStart(9)} ${`≥ ${g.classesCovered}/${h.classes}`.padStart(10)}  ${met(h.classesCovered >= g.classesCovered)}`,
    `${'macro recall (positives neither weak nor policy)'.padEnd(48)} ${num(h.macroRecall).padStart(9)} ${`≥ ${g.macroRecall}`.padStart(10)}  ${met((h.macroRecall ?? 0) >= g.macroRecall)}`,
    `${'macro negative pass rate'.padEnd(48)} ${num(h.macroNegativePassRate).padStart(9)} ${`≥ ${g.macroNegativePassRate}`.padStart(10)}  ${met((h.macroNegativePassRate ?? 0) >= g.macroNegativePassRate)}`,
    `Outside the headline: weak positives found ${frac(h.weak.found, h.weak.total)}, policy positives found ${frac(h.policy.found, h.policy.total)} (covered classes).`,
    ...(p.minConfidence === undefined ? [] : [`Findings of confidence ${p.minConfidence} and above; at a higher threshold (--min-confidence):`]),
    ...(p.byThreshold ?? []).map((t) => `  ${t.minConfidence.padEnd(7)} classes ${t.headline.classesCovered}/${t.headline.classes}, macro recall ${num(t.headline.macroRecall)}, negatives ${num(t.headline.macroNegativePassRate)}`),
    '',
    'Per class (pos: positives neither weak nor policy, passed when findings of the class cover ≥ half of each value;',
    'full: one finding holds the whole value; neg: negatives with no finding of the class):',
    `${'class'.padEnd(24)} ${'pos'.padStart(7)} ${'recall'.padStart(6)} ${'full'.padStart(7)} ${'neg'.padStart(7)} ${'weak'.padStart(5)} ${'policy'.padStart(6)}  rules`,
  ];
  // Covered classes worst first, then the classes without a rule.
  const worst = (a: PeerClassScore, b: PeerClassScore) => (a.recall ?? 2) - (b.recall ?? 2) || (a.negativePassRate ?? 2) - (b.negativePassRate ?? 2);
  const rows = [...p.classes].sort((a, b) => Number(b.covered) - Number(a.covered) || (a.covered ? worst(a, b) : 0) || a.class.localeCompare(b.class));
  for (const c of rows) {
    // A class without a rule shows its case counts only: its passes would be vacuous.
    const f2 = (a: number, b: number) => (c.covered ? frac(a, b) : b === 0 ? '-' : String(b));
    const pos = c.positives;
    lines.push(
      `${c.class.padEnd(24)} ${f2(pos.passed, pos.total).padStart(7)} ${(c.covered ? num(c.recall) : '-').padStart(6)} ${(c.covered ? frac(pos.full, pos.total) : '-').padStart(7)} ${f2(c.negatives.passed, c.negatives.total).padStart(7)} ${f2(c.weak.found, c.weak.total).padStart(5)} ${f2(c.policy.found, c.policy.total).padStart(6)}  ${c.covered ? c.rules.join(',') : 'not covered'}`,
    );
  }
  return lines.join('\n');
}

/** Failing case ids with the rules (and their classes) that did fire; never the text or values. */
export function formatPeerFailures(p: PeerScore): string {
  const lines = [`Failing peer cases of covered classes (${p.failures.length}; id, expected, peer's case kind, least coverage of an expected value, findings seen as rule=class):`];
  for (const r of p.failures) {
    const tag = r.expect === 'negative' ? 'negative' : r.policy ? 'positive,policy' : r.weak ? 'positive,weak' : 'positive';
    const cov = r.coverage === null ? '' : ` coverage ${r.coverage.toFixed(2)}`;
    const seen = r.seen.length === 0 ? 'none' : r.seen.map((s) => `${s.rule}=${s.class ?? '-'}`).join(' ');
    lines.push(`  ${r.id.padEnd(44)} ${tag.padEnd(15)} ${r.kind.padEnd(19)}${cov.padEnd(14)} seen: ${seen}`);
  }
  lines.push(`Not covered (no rule maps to the class): ${p.notCovered.join(', ') || 'none'}`);
  return lines.join('\n');
}
