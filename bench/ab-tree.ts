/**
 * This checkout's engine against another checkout's, in one process on the same bodies: each tree's
 * own `programFor` and `scanStream` (its rules, prefilter and native builds), CPU time beside wall
 * time. For "no slower than before" checks across commits:
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)   # or link node_modules and builds
 *   (cd /tmp/before && npx tsc -b tsconfig.build.json); npx tsc -b tsconfig.build.json
 *   npx tsx bench/ab-tree.ts /tmp/before [--rounds N] [--all-rules] [--source]
 *
 * Each tree runs its build (dist/) when that is newer than every file of its src/, as users run it;
 * else, or with --source, its TypeScript through tsx, which transpiles differently (esbuild wraps
 * functions declared inside functions in a naming helper called on every call): a JavaScript-level
 * change measured that way can look several times better or worse than built. Bodies alternate one
 * by one (this, other, other, this; then the reverse), and the ratio is the median of the pairs, so
 * a slow minute of the shared machine weighs on both sides of the same pairs.
 *
 * Ratios are this tree's speed over the other's (above 1: this tree is faster).
 */
import { spawnSync } from 'node:child_process';
import { cpuUsage } from 'node:process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kContentKinds, kContentTypes, kDensities, makeBody } from './bodies.js';
import { freshBuild } from './fresh-build.js';
import { median } from './measure.js';

interface Tree {
  programFor(o: object): unknown;
  scanStream(p: unknown, chunks: Uint8Array[], meta: object): Promise<{ findings: unknown[] }>;
  /** `dist` or `src`: what was loaded. */
  from: string;
}

async function load(root: string, source: boolean): Promise<Tree> {
  const at = (p: string) => pathToFileURL(resolve(root, p)).href;
  const dist = !source && freshBuild(root);
  const [scannerPath, enginePath] = dist ? ['dist/scanner.js', 'dist/engine/index.js'] : ['src/scanner.ts', 'src/engine/index.ts'];
  const scanner = (await import(at(scannerPath))) as { programFor: Tree['programFor'] };
  const engine = (await import(at(enginePath))) as { scanStream: Tree['scanStream'] };
  return { programFor: scanner.programFor, scanStream: engine.scanStream, from: dist ? 'dist' : 'src (tsx)' };
}

const other = process.argv[2];
if (other === undefined || other.startsWith('--')) throw new Error('usage: npx tsx bench/ab-tree.ts OTHER_CHECKOUT [--rounds N] [--all-rules] [--source]');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 10;
const options = process.argv.includes('--all-rules') ? { allRules: true } : {};

const source = process.argv.includes('--source');
const childAt = process.argv.indexOf('--child');

interface DensityResult {
  density: string;
  cpuRatios: number[];
  wallRatios: number[];
  mbs: Record<'this' | 'other', { cpu: number; wall: number; findings: number }>;
}

if (childAt > 0) {
  // One order: prints its results as one JSON line for the parent.
  const thisFirst = process.argv[childAt + 1] === 'this-first';
  const here = resolve(import.meta.dirname, '..');
  const loaded = thisFirst ? [await load(here, source), await load(other, source)] : [await load(other, source), await load(here, source)].reverse();
  console.log(JSON.stringify({ from: { this: loaded[0]!.from, other: loaded[1]!.from }, results: await measure({ this: loaded[0]!, other: loaded[1]! }) }));
} else {
  const runs = ['this-first', 'other-first'].map((order) => {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--child', order], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
    if (child.status !== 0 || line === undefined) throw new Error(`ab-tree (${order}) failed: ${child.stderr.slice(-2000)}`);
    return { order, ...(JSON.parse(line) as { from: Record<string, string>; results: DensityResult[] }) };
  });
  console.log(`this: ${runs[0]!.from.this}; other (${other}): ${runs[0]!.from.other}`);
  const q = (xs: number[], f: number): string => [...xs].sort((a, b) => a - b)[Math.floor(f * (xs.length - 1))]!.toFixed(3);
  for (const density of kDensities) {
    const per = runs.map((r) => r.results.find((d) => d.density === density)!);
    const cpu = per.flatMap((d) => d.cpuRatios);
    const wall = per.flatMap((d) => d.wallRatios);
    const m = per[0]!.mbs;
    console.log(
      `${density}: this ${m.this.cpu.toFixed(1)} MB/s CPU (${m.this.wall.toFixed(1)} wall, ${m.this.findings} findings a pass), other ${m.other.cpu.toFixed(1)} MB/s CPU (${m.other.wall.toFixed(1)} wall, ${m.other.findings} findings a pass): ` +
        `ratio ${median(cpu).toFixed(3)} CPU (quartiles ${q(cpu, 0.25)}-${q(cpu, 0.75)}; this loaded first ${median(per[0]!.cpuRatios).toFixed(3)}, other first ${median(per[1]!.cpuRatios).toFixed(3)}), ` +
        `${median(wall).toFixed(3)} wall (medians of ${cpu.length} pairs: 2 × ${rounds} rounds × 4 kinds × 1 MB${options.allRules ? ', all rules' : ''})`,
    );
  }
}

async function measure(trees: Record<'this' | 'other', Tree>): Promise<DensityResult[]> {
  type Name = keyof typeof trees;
  const programs = { this: trees.this.programFor(options), other: trees.other.programFor(options) };
  const out: DensityResult[] = [];
  for (const density of kDensities) {
    const bodies = kContentKinds.map((k) => makeBody(k, density, '1MB'));
    const findings: Record<Name, number> = { this: 0, other: 0 };
    const cpu: Record<Name, number> = { this: 0, other: 0 };
    const wall: Record<Name, number> = { this: 0, other: 0 };
    const cpuRatios: number[] = [];
    const wallRatios: number[] = [];
    const scan = async (name: Name, b: (typeof bodies)[number]): Promise<void> => {
      const c0 = cpuUsage();
      const t0 = performance.now();
      const report = await trees[name].scanStream(programs[name], [b.bytes], { contentType: kContentTypes[b.name.split('/')[0] as keyof typeof kContentTypes] });
      wall[name] += performance.now() - t0;
      const c = cpuUsage(c0);
      cpu[name] += (c.user + c.system) / 1000;
      findings[name] += report.findings.length;
    };
    for (const name of ['this', 'other'] as Name[]) for (const b of bodies) await scan(name, b); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const b of bodies) {
        const before = { cpu: { ...cpu }, wall: { ...wall } };
        for (const name of (r % 2 === 0 ? ['this', 'other', 'other', 'this'] : ['other', 'this', 'this', 'other']) as Name[]) await scan(name, b);
        cpuRatios.push((cpu.other - before.cpu.other) / (cpu.this - before.cpu.this));
        wallRatios.push((wall.other - before.wall.other) / (wall.this - before.wall.this));
      }
    }
    const passes = 2 * rounds + 1;
    const mb = (passes * bodies.reduce((n, b) => n + b.bytes.length, 0)) / 1e6;
    const rate = (ms: number): number => mb / (ms / 1000);
    out.push({
      density,
      cpuRatios,
      wallRatios,
      mbs: {
        this: { cpu: rate(cpu.this), wall: rate(wall.this), findings: findings.this / passes },
        other: { cpu: rate(cpu.other), wall: rate(wall.other), findings: findings.other / passes },
      },
    });
  }
  return out;
}
