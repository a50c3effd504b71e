/**
 * Accuracy of the managed rules (`npm run eval`), in two sections.
 *
 * First the peer cases (scripts/eval/peer.ts): labelled cases from other detectors' public tests,
 * `../shared/eval/peer-cases.jsonl` by default, scored per class with a macro headline against goals.
 * They were not written from our rules, so this is the section that can fail.
 *
 * Then the synthetic corpus, a regression check: it is generated from the rules' own examples and
 * synthetic values, so it confirms what the rules already know. Builds the corpus when it is
 * absent or stale (written from other rule examples), scans it in-thread once with the default rules
 * and once with all rules, matches findings to the planted values of the manifest, and prints per
 * rule: planted, found, missed, false positives, precision, recall, F1; macro averages per family;
 * false positives per MB of the clean corpus. The same figures go to `<corpus>/eval.json`.
 *
 * Matching: a finding with the planted value's rule id and an overlapping byte span is a true
 * positive. A finding of another rule that overlaps a planted value, or lies inside the planted
 * example text around it, is counted as `other` (a rule example can hold a second rule's value, e.g.
 * a JWT after `Authorization: Bearer`), not as a false positive. Any other finding is a false positive.
 *
 *   npx tsx scripts/eval.ts [--corpus <dir>] [--small] [--peer-cases <file>] [--failures] [--peer-only]
 *
 * `--failures` lists the failing peer case ids with the rules that fired (never the text or values);
 * `--peer-only` skips the synthetic corpus and writes nothing. Otherwise both sections go to
 * `<corpus>/eval.json` (`peer`: null when the default peer file is absent, as in a clone outside this
 * workspace).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScanner } from '../src/index.js';
import { allRuleDefs, selectRules } from '../src/rules/index.js';
import type { Family } from '../src/rules/index.js';
import type { Confidence, Finding, Scanner } from '../src/types.js';
import { reaches } from '../src/rules/index.js';
import { corpusInputs, generateCorpus, kDefaultOut, type Manifest } from './corpus/generate.js';
import { formatPeerFailures, formatPeerScore, loadPeerCases, scanPeerCases, scorePeerCases, type PeerScore } from './eval/peer.js';
import { kRuleClass } from './eval/peer-classes.js';

/** Beside the repository in the shared workspace, not in it: the cases must stay out of the project. */
const kDefaultPeerCases = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/eval/peer-cases.jsonl');

export interface RuleScore {
  rule: string;
  family: Family;
  enabledByDefault: boolean;
  planted: number;
  found: number;
  missed: number;
  /** Findings matched to a planted value of this rule (several findings may hit one value). */
  tp: number;
  fp: number;
  /** Findings on another rule's planted value or example text. */
  other: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface SetScore {
  rules: RuleScore[];
  families: Record<Family, { precision: number | null; recall: number | null; f1: number | null; rules: number }>;
  /** Missed planted values (file, rule, span, source), for debugging a low recall. */
  misses: Array<{ file: string; rule: string; start: number; end: number; source: string; placement: string }>;
  /** False positives by file (rule and span only; never the value). */
  falsePositives: Array<{ file: string; rule: string; start: number; end: number }>;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

const kFamilies: readonly Family[] = ['pii', 'financial-information', 'secrets'];

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
const mean = (xs: Array<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length === 0 ? null : v.reduce((s, x) => s + x, 0) / v.length;
};

/** Scans every body of a set and returns each file's findings. */
export async function scanSet(dir: string, manifest: Manifest, scanner: Scanner, progress?: (done: number, total: number) => void): Promise<Map<string, Finding[]>> {
  const out = new Map<string, Finding[]>();
  let done = 0;
  for (const f of manifest.files) {
    const report = await scanner.analyze(readFileSync(join(dir, f.file)), { contentType: f.contentType });
    out.set(f.file, report.findings);
    progress?.(++done, manifest.files.length);
  }
  return out;
}

/** Matches findings to planted values for the rules in `enabled`. */
/**
 * Scores findings against the plants. `minConfidence` is the threshold the findings were made at:
 * plants the rule only reports below it are left out (found or not, they count nowhere).
 */
export function score(manifest: Manifest, findings: ReadonlyMap<string, readonly Finding[]>, enabled: ReadonlySet<string>, minConfidence: Confidence = 'high'): SetScore {
  const byRule = new Map<string, RuleScore>();
  for (const r of allRuleDefs) {
    if (!enabled.has(r.id)) continue;
    byRule.set(r.id, { rule: r.id, family: r.family, enabledByDefault: r.enabledByDefault, planted: 0, found: 0, missed: 0, tp: 0, fp: 0, other: 0, precision: null, recall: null, f1: null });
  }
  const plantsByFile = new Map<string, Manifest['plants']>();
  for (const p of manifest.plants) {
    if (!reaches(p.confidence ?? 'high', minConfidence)) continue;
    const list = plantsByFile.get(p.file) ?? [];
    list.push(p);
    plantsByFile.set(p.file, list);
  }
  const misses: SetScore['misses'] = [];
  const falsePositives: SetScore['falsePositives'] = [];
  for (const f of manifest.files) {
    const plants = plantsByFile.get(f.file) ?? [];
    const got = findings.get(f.file) ?? [];
    const hit = new Set<number>();
    for (const fd of got) {
      const s = byRule.get(fd.ruleId);
      if (s === undefined) continue;
      let matched = false;
      plants.forEach((p, i) => {
        if (p.rule === fd.ruleId && fd.start < p.end && p.start < fd.end) {
          matched = true;
          hit.add(i);
        }
      });
      if (matched) s.tp++;
      else if (plants.some((p) => (fd.start < p.end && p.start < fd.end) || (fd.start < p.region[1] && p.region[0] < fd.end))) s.other++;
      else {
        s.fp++;
        falsePositives.push({ file: f.file, rule: fd.ruleId, start: fd.start, end: fd.end });
      }
    }
    plants.forEach((p, i) => {
      const s = byRule.get(p.rule);
      if (s === undefined) return;
      s.planted++;
      if (hit.has(i)) s.found++;
      else {
        s.missed++;
        misses.push({ file: f.file, rule: p.rule, start: p.start, end: p.end, source: p.source, placement: p.placement });
      }
    });
  }
  const rules = [...byRule.values()];
  for (const s of rules) {
    s.precision = ratio(s.tp, s.tp + s.fp);
    s.recall = ratio(s.found, s.planted);
    s.f1 = s.precision === null || s.recall === null || s.precision + s.recall === 0 ? null : (2 * s.precision * s.recall) / (s.precision + s.recall);
  }
  const families = {} as SetScore['families'];
  for (const fam of kFamilies) {
    const rs = rules.filter((r) => r.family === fam && (r.planted > 0 || r.fp > 0));
    families[fam] = { precision: mean(rs.map((r) => r.precision)), recall: mean(rs.map((r) => r.recall)), f1: mean(rs.map((r) => r.f1)), rules: rs.length };
  }
  return { rules, families, misses, falsePositives };
}

export interface EvalResult {
  corpus: { dir: string; generator: Manifest['generator']; labelledBodies: number; labelledBytes: number; planted: number; cleanBodies: number; cleanBytes: number };
  defaultRules: SetScore;
  allRules: SetScore;
  clean: { findings: number; fpPerMB: number; byRule: Record<string, number> };
}

const pct = (x: number | null) => (x === null ? '   -  ' : (x * 100).toFixed(1).padStart(5) + '%');

export function formatResult(r: EvalResult): string {
  const lines: string[] = [];
  lines.push(`corpus ${r.corpus.dir}: ${r.corpus.labelledBodies} labelled bodies (${(r.corpus.labelledBytes / 1e6).toFixed(1)} MB, ${r.corpus.planted} planted values), ${r.corpus.cleanBodies} clean bodies (${(r.corpus.cleanBytes / 1e6).toFixed(1)} MB); generator v${r.corpus.generator.version}, seed ${r.corpus.generator.seed}`);
  lines.push('');
  lines.push('Per rule, all rules enabled (def = on by default):');
  lines.push(`${'rule'.padEnd(28)} def  planted  found missed     FP  other  precision  recall      F1`);
  for (const s of r.allRules.rules) {
    lines.push(
      `${s.rule.padEnd(28)} ${s.enabledByDefault ? 'on ' : 'off'} ${String(s.planted).padStart(8)} ${String(s.found).padStart(6)} ${String(s.missed).padStart(6)} ${String(s.fp).padStart(6)} ${String(s.other).padStart(6)}     ${pct(s.precision)}  ${pct(s.recall)}  ${pct(s.f1)}`,
    );
  }
  lines.push('');
  lines.push('Family macro averages (precision / recall / F1):');
  lines.push(`${'family'.padEnd(24)} ${'default rules'.padEnd(28)} all rules`);
  for (const fam of kFamilies) {
    const d = r.defaultRules.families[fam];
    const a = r.allRules.families[fam];
    lines.push(`${fam.padEnd(24)} ${`${pct(d.precision)} ${pct(d.recall)} ${pct(d.f1)}`.padEnd(28)} ${pct(a.precision)} ${pct(a.recall)} ${pct(a.f1)}`);
  }
  lines.push('');
  const by = Object.entries(r.clean.byRule).map(([k, v]) => `${k} ${v}`).join(', ');
  lines.push(`Clean corpus, default rules: ${r.clean.findings} findings in ${(r.corpus.cleanBytes / 1e6).toFixed(1)} MB = ${r.clean.fpPerMB.toFixed(3)} FP/MB${by === '' ? '' : ` (${by})`}`);
  return lines.join('\n');
}

/** Runs the whole evaluation on a corpus directory holding `labelled/` and `clean/`. */
export async function runEval(dir: string, log: (msg: string) => void = () => {}): Promise<EvalResult> {
  const labelledDir = join(dir, 'labelled');
  const cleanDir = join(dir, 'clean');
  const labelled = readManifest(labelledDir);
  const clean = readManifest(cleanDir);
  const progress = (pass: string) => (done: number, total: number) => {
    if (done % 250 === 0 || done === total) log(`eval: ${pass} ${done}/${total} bodies`);
  };
  const defIds = new Set(selectRules({}).map((r) => r.id));
  const allIds = new Set(allRuleDefs.map((r) => r.id));
  const def = await createScanner({ workers: 0 });
  // All rules at every level: values a rule only reports at medium or low are planted too.
  const all = await createScanner({ workers: 0, allRules: true, minConfidence: 'low' });
  try {
    const defFindings = await scanSet(labelledDir, labelled, def, progress('default rules'));
    const allFindings = await scanSet(labelledDir, labelled, all, progress('all rules'));
    const cleanFindings = await scanSet(cleanDir, clean, def, progress('clean, default rules'));
    const byRule: Record<string, number> = {};
    let n = 0;
    for (const fs of cleanFindings.values()) {
      for (const f of fs) {
        byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
        n++;
      }
    }
    const cleanBytes = clean.files.reduce((s, f) => s + f.bytes, 0);
    return {
      corpus: {
        dir,
        generator: labelled.generator,
        labelledBodies: labelled.files.length,
        labelledBytes: labelled.files.reduce((s, f) => s + f.bytes, 0),
        planted: labelled.plants.length,
        cleanBodies: clean.files.length,
        cleanBytes,
      },
      defaultRules: score(labelled, defFindings, defIds),
      allRules: score(labelled, allFindings, allIds, 'low'),
      clean: { findings: n, fpPerMB: n / (cleanBytes / 1e6), byRule },
    };
  } finally {
    await def.close();
    await all.close();
  }
}

/**
 * Scans and scores the peer cases with every rule on, in-thread, at the lowest confidence threshold;
 * the headline at `medium` and `high` drops the findings below them.
 */
export async function runPeerEval(file: string): Promise<PeerScore> {
  const cases = loadPeerCases(file);
  const scanner = await createScanner({ workers: 0, allRules: true, minConfidence: 'low' });
  try {
    const findings = await scanPeerCases(cases, scanner);
    const name = relative(process.cwd(), file) || file;
    const at = (min: Confidence) => {
      const keep = new Map([...findings].map(([id, fs]) => [id, fs.filter((f) => reaches(f.confidence ?? 'high', min))]));
      return scorePeerCases(cases, keep, kRuleClass, name).headline;
    };
    return { ...scorePeerCases(cases, findings, kRuleClass, name), minConfidence: 'low', byThreshold: (['medium', 'high'] as const).map((m) => ({ minConfidence: m, headline: at(m) })) };
  } finally {
    await scanner.close();
  }
}

/** The peer section, or null when the default file is absent; a missing `--peer-cases` file is an error. */
async function peerSection(argv: readonly string[]): Promise<PeerScore | null> {
  const at = argv.indexOf('--peer-cases');
  const given = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && given === undefined) throw new Error('--peer-cases needs a file');
  const file = resolve(given ?? kDefaultPeerCases);
  if (!existsSync(file)) {
    if (given !== undefined) throw new Error(`--peer-cases: ${file} not found`);
    process.stdout.write(`Peer cases: ${file} not found (it lives in the shared workspace beside the repository); section skipped.\n\n`);
    return null;
  }
  const t0 = performance.now();
  const peer = await runPeerEval(file);
  process.stderr.write(`eval: peer cases scored in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write(formatPeerScore(peer) + '\n\n');
  if (argv.includes('--failures')) process.stdout.write(formatPeerFailures(peer) + '\n\n');
  return peer;
}

function ensureCorpus(dir: string, small: boolean): void {
  const current = (set: string) => {
    const file = join(dir, set, 'manifest.json');
    if (!existsSync(file)) return false;
    const g = readManifest(join(dir, set)).generator;
    return g.inputs === corpusInputs() && g.mode === (small ? 'small' : 'full');
  };
  if (!current('labelled') || !current('clean')) {
    // Absent, or written from other rule examples or by another generator version: the bytes would not
    // be the ones the current rules are measured on.
    process.stderr.write(`eval: no current corpus in ${dir}, generating it\n`);
    generateCorpus({ out: dir, small });
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const at = argv.indexOf('--corpus');
  const dir = resolve(at >= 0 ? (argv[at + 1] ?? kDefaultOut) : kDefaultOut);
  const peer = await peerSection(argv);
  if (argv.includes('--peer-only')) return;
  ensureCorpus(dir, argv.includes('--small'));
  const t0 = performance.now();
  const result = await runEval(dir, (m) => process.stderr.write(m + '\n'));
  process.stderr.write(`eval: done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  process.stdout.write("Synthetic corpus: a regression check generated from the rules' own examples and synthetic values (it confirms what the rules already know)\n");
  process.stdout.write(formatResult(result) + '\n');
  writeFileSync(join(dir, 'eval.json'), JSON.stringify({ peer, ...result }, null, 1) + '\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
