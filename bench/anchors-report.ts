/**
 * The anchors phase's results (bench/anchors.ts), their summary per density, their goals (issue 36)
 * and their tables. Pure functions over the results, as bench/report.ts is for the engine cases.
 */
import type { Density } from './bodies.js';
import type { HsDatabase } from './hyperscan.js';
import { median } from './measure.js';
import { fmtAgainst, goalLines, type GoalCheck } from './report.js';
import type { ProcessPhaseResult, ToolRuns } from './secretlint.js';

/** `engine`: leakscan in this thread; `v8`: the reference alternation; `hs-ref` / `hs-rules`: Hyperscan with the reference patterns / leakscan's rules. */
export type AnchorContender = 'engine' | 'v8' | 'hs-ref' | 'hs-rules';
export const kAnchorContenders: readonly AnchorContender[] = ['engine', 'v8', 'hs-ref', 'hs-rules'];

const kContenderNames: Readonly<Record<AnchorContender, string>> = {
  engine: 'leakscan engine',
  v8: 'V8 alternation, reference',
  'hs-ref': 'Hyperscan, reference',
  'hs-rules': "Hyperscan, leakscan's rules",
};

/** One turn: `passes` scans of a body, their CPU and wall milliseconds. */
export interface AnchorSample {
  cpuMs: number;
  wallMs: number;
  passes: number;
}

export interface AnchorBody {
  body: string;
  density: Density;
  bytes: number;
  /** Findings (engine) or matches (the others) of one scan of the body. */
  counts: Partial<Record<AnchorContender, number>>;
  /** One sample per round. */
  samples: Partial<Record<AnchorContender, AnchorSample[]>>;
}

type NamedDatabase = HsDatabase & {
  rejected: Array<{ index: number; message: string; name: string }>;
  noSom: Array<{ index: number; message: string; name: string }>;
};

export type AnchorsResult =
  | {
      status: 'ok';
      backend: string;
      rules: number;
      reference: { status: 'ok'; path: string; patterns: number } | { status: 'skipped'; reason: string };
      hyperscan: { status: 'ok'; library: string; reference: NamedDatabase | null; rules: NamedDatabase } | { status: 'skipped'; reason: string };
      rounds: number;
      sliceMs: number;
      bodies: AnchorBody[];
      processes: ProcessPhaseResult;
      loadavg: { start: number[]; end: number[] };
      seconds: number;
    }
  | { status: 'skipped'; message: string };

export type Clock = 'cpu' | 'wall';

/**
 * A contender's MB/s on one density in one round: the bytes it scanned over the four bodies (passes
 * included) / its time on them. Null when it has no sample in that round.
 */
export function roundSpeed(bodies: readonly AnchorBody[], density: Density, who: AnchorContender, round: number, clock: Clock): number | null {
  let bytes = 0;
  let ms = 0;
  for (const b of bodies) {
    if (b.density !== density) continue;
    const s = b.samples[who]?.[round];
    if (s === undefined) return null;
    bytes += b.bytes * s.passes;
    ms += clock === 'cpu' ? s.cpuMs : s.wallMs;
  }
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : null;
}

export interface AnchorFigure {
  density: Density;
  who: AnchorContender;
  /** Medians over the rounds of MB/s on CPU time and on wall time. */
  cpuMbps: number;
  wallMbps: number;
  /**
   * The engine's speed over this contender's (> 1: the engine is faster), the median over rounds of
   * each round's ratio (both sides measured in the same round); CPU and wall.
   */
  engineCpu: number;
  engineWall: number;
}

function rounds(bodies: readonly AnchorBody[]): number {
  return Math.max(0, ...bodies.flatMap((b) => Object.values(b.samples).map((s) => s?.length ?? 0)));
}

/** Every contender's figures per density (none for one that was not measured). */
export function anchorFigures(bodies: readonly AnchorBody[]): AnchorFigure[] {
  const n = rounds(bodies);
  const out: AnchorFigure[] = [];
  for (const density of ['sparse', 'dense'] as const) {
    for (const who of kAnchorContenders) {
      const per = (clock: Clock) => {
        const speeds: number[] = [];
        const ratios: number[] = [];
        for (let r = 0; r < n; r++) {
          const s = roundSpeed(bodies, density, who, r, clock);
          const e = roundSpeed(bodies, density, 'engine', r, clock);
          if (s === null) continue;
          speeds.push(s);
          if (e !== null) ratios.push(e / s);
        }
        return { speed: median(speeds), ratio: median(ratios), measured: speeds.length > 0 };
      };
      const cpu = per('cpu');
      const wall = per('wall');
      if (!cpu.measured) continue;
      out.push({ density, who, cpuMbps: cpu.speed, wallMbps: wall.speed, engineCpu: cpu.ratio, engineWall: wall.ratio });
    }
  }
  return out;
}

/** secretlint's time over leakscan's on a corpus (> 1: leakscan faster), on CPU time when both have it, else wall. */
export function processRatio(tools: readonly ToolRuns[], corpus: string): { cpu: number | null; wall: number } | null {
  const l = tools.find((t) => t.tool === 'leakscan' && t.corpus === corpus);
  const s = tools.find((t) => t.tool === 'secretlint' && t.corpus === corpus);
  if (l === undefined || s === undefined) return null;
  return { cpu: l.medianCpuMs !== null && s.medianCpuMs !== null ? s.medianCpuMs / l.medianCpuMs : null, wall: s.medianWallMs / l.medianWallMs };
}

/** Issue 36's goals, on CPU-time ratios (wall where CPU is missing). Informational: they may fail. */
export function evaluateAnchorGoals(a: AnchorsResult): GoalCheck[] {
  const figures = a.status === 'ok' ? anchorFigures(a.bodies) : [];
  const item = (density: Density, who: AnchorContender, min: number): GoalCheck['items'] => {
    const f = figures.find((x) => x.density === density && x.who === who);
    return f === undefined || !Number.isFinite(f.engineCpu) ? [] : [{ label: `${density}, CPU`, value: f.engineCpu, bound: 'exact', pass: f.engineCpu >= min }];
  };
  const check = (goal: string, items: GoalCheck['items']): GoalCheck => ({ ruleSet: 'anchors', goal, pass: items.length === 0 ? undefined : items.every((i) => i.pass), items });
  const cli: GoalCheck['items'] = [];
  if (a.status === 'ok' && a.processes.status === 'ok') {
    for (const corpus of ['sparse', 'dense']) {
      const r = processRatio(a.processes.tools, corpus);
      if (r === null) continue;
      const value = r.cpu ?? r.wall;
      cli.push({ label: `${corpus}, ${r.cpu === null ? 'wall' : 'CPU'}`, value, bound: 'exact', pass: value >= 2 });
    }
  }
  return [
    check('dense ≥ 1× the V8 alternation of the reference patterns', item('dense', 'v8', 1)),
    check('dense ≥ 0.5× Hyperscan on the reference patterns', item('dense', 'hs-ref', 0.5)),
    check('sparse ≥ 1× Hyperscan on the reference patterns', item('sparse', 'hs-ref', 1)),
    check('leakscan scan ≥ 2× faster than secretlint (whole processes)', cli),
  ];
}

// ---- Printing -------------------------------------------------------------------------------------------

function f1(x: number): string {
  return !Number.isFinite(x) ? '–' : x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

function fx(x: number): string {
  return Number.isFinite(x) ? `${x.toPrecision(3)}×` : '–';
}

function pad(rows: string[][], right: readonly boolean[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (right[i] === true ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd());
}

function dbLine(label: string, db: NamedDatabase | null): string | null {
  if (db === null) return null;
  const list = (xs: ReadonlyArray<{ name: string; message: string }>) => xs.map((x) => `${x.name} (${x.message})`).join('; ');
  let s = `${label}: ${db.accepted} of ${db.patterns} patterns compiled (${db.som} with start of match), ${f1(db.compileMs)} ms`;
  if (db.rejected.length > 0) s += `; skipped, Hyperscan refused them: ${list(db.rejected)}`;
  if (db.noSom.length > 0) s += `; without start of match: ${list(db.noSom)}`;
  return s;
}

/** The anchors' tables: speeds and ratios per density, then the whole processes. */
export function formatAnchors(a: AnchorsResult): string {
  if (a.status !== 'ok') return `Anchors: ${a.status}: ${a.message}`;
  const figures = anchorFigures(a.bodies);
  const lines = [
    `Anchors (issue 36): the engine (default rules, ${a.rules}, backend ${a.backend}) and references on the engine cases' 1 MiB bodies, four kinds per density; ` +
      `${a.rounds} rounds, contenders taking turns body by body (about ${a.sliceMs} ms a turn); load average ${a.loadavg.start[0]?.toFixed(2) ?? '?'} → ${a.loadavg.end[0]?.toFixed(2) ?? '?'}; ${a.seconds.toFixed(0)} s.`,
  ];
  const header = ['density', 'contender', 'MB/s CPU', 'MB/s wall', 'engine× CPU', 'engine× wall', 'matches'];
  const rows = figures.map((f) => [
    f.density,
    kContenderNames[f.who],
    f1(f.cpuMbps),
    f1(f.wallMbps),
    f.who === 'engine' ? '' : fx(f.engineCpu),
    f.who === 'engine' ? '' : fx(f.engineWall),
    String(a.bodies.filter((b) => b.density === f.density).reduce((s, b) => s + (b.counts[f.who] ?? 0), 0)),
  ]);
  lines.push(...pad([header, ...rows], [false, false, true, true, true, true, true]));
  lines.push(
    'MB/s = bytes scanned / time, over the four bodies of the density, median of the rounds; CPU = the scanning process\'s CPU time (this process for the engine and V8, V8\'s helper threads included; ' +
      "the harness's own for Hyperscan, its scan loop only), wall = elapsed. engine× = the engine's speed / the contender's in the same round (> 1: the engine is faster), median of the rounds. " +
      'matches: engine findings; V8 non-overlapping matches; Hyperscan every match end it reports.',
  );
  if (a.reference.status !== 'ok') lines.push(`V8 alternation and Hyperscan on the reference patterns: skipped (${a.reference.reason})`);
  else lines.push(`reference patterns: ${a.reference.patterns} from ${a.reference.path}`);
  if (a.hyperscan.status !== 'ok') lines.push(`Hyperscan: skipped (${a.hyperscan.reason})`);
  else {
    for (const l of [dbLine(`Hyperscan ${a.hyperscan.library}, reference`, a.hyperscan.reference), dbLine(`Hyperscan, leakscan's rules`, a.hyperscan.rules)]) if (l !== null) lines.push(l);
  }
  lines.push('');
  lines.push(formatProcesses(a.processes));
  return lines.join('\n');
}

function formatProcesses(p: ProcessPhaseResult): string {
  if (p.status !== 'ok') return `leakscan scan vs secretlint: ${p.status}: ${p.message}`;
  const s = (ms: number | null) => (ms === null ? '–' : (ms / 1000).toFixed(2));
  const header = ['corpus', 'files', 'MB', 'leakscan CPU s', 'wall s', 'secretlint CPU s', 'wall s', 'leakscan× CPU', 'leakscan× wall', 'findings leakscan/secretlint'];
  const rows = p.corpora.map((c) => {
    const l = p.tools.find((t) => t.tool === 'leakscan' && t.corpus === c.name);
    const sl = p.tools.find((t) => t.tool === 'secretlint' && t.corpus === c.name);
    const r = processRatio(p.tools, c.name);
    return [
      c.name,
      String(c.files),
      (c.bytes / 1e6).toFixed(1),
      s(l?.medianCpuMs ?? null),
      s(l?.medianWallMs ?? null),
      s(sl?.medianCpuMs ?? null),
      s(sl?.medianWallMs ?? null),
      r?.cpu == null ? '–' : fx(r.cpu),
      r === null ? '–' : fx(r.wall),
      `${l?.findings ?? '?'}/${sl?.findings ?? '?'}`,
    ];
  });
  return [
    `leakscan scan DIR (dist/bin/main.js, NDJSON) vs ${p.secretlint} (JSON to a file), whole processes on the same files, median of ${p.rounds} runs each, alternated:`,
    ...pad([header, ...rows], [false, true, true, true, true, true, true, true, true, true]),
    `leakscan× = secretlint's time / leakscan's (> 1: leakscan faster); CPU = the child's user + system time (GNU time). start-up = one 21-byte file: what starting each tool costs.${p.cpuNote === undefined ? '' : ` ${p.cpuNote}.`}`,
  ].join('\n');
}

/** PASS/FAIL lines of the anchors' goals, with the figure each was held to. */
export function formatAnchorGoals(goals: readonly GoalCheck[]): string {
  const lines = goalLines(goals, (g, verdict) => {
    const goal = Number(/([0-9.]+)×/.exec(g.goal)?.[1] ?? NaN);
    return [`${verdict}  [${g.ruleSet}] ${g.goal}: ${g.items.map((i) => `${i.label} ${fmtAgainst(i.value, goal)}×${i.pass ? '' : ' (fail)'}`).join(', ')}`];
  });
  lines.push('        informational goals of issue 36, on CPU-time ratios taken in the same rounds; they may fail today.');
  return lines.join('\n');
}
