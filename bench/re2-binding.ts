/**
 * `npm run bench:re2`: what the lean RE2 binding (native/re2/re2-binding.cc) is worth against the re2
 * package's `exec`, the only difference between the two programs measured: same rules (default), same
 * RE2, same prefilter. Both programs are compiled in this one process and take turns pass by pass (the
 * machine is noisy; a pair of passes a few milliseconds apart sees the same load), on
 *
 * - the pool's batch corpus (200 bodies of 16-128 KiB, a quarter dense: bench/pool.ts), and
 * - each 1 MiB bench body, per content kind and density.
 *
 * Per set: median pass time of each binding, the median of the per-pair ratios (lean / package, below
 * 1 = the lean binding is faster) with their range, and the findings of each (they must be the same).
 *
 *   npm run bench:re2
 *   npm run bench:re2 -- --pairs 20 --filter dense
 */
import { parseArgs } from 'node:util';
import { compileProgram, re2Binding, re2NativeBackend, re2PackageBackend, scanStream, type Program } from '../src/engine/index.js';
import { selectRules } from '../src/rules/index.js';
import { kContentKinds, kDensities, makeBody, type Body } from './bodies.js';
import { median } from './measure.js';
import { batchCorpus } from './pool.js';

const { values } = parseArgs({
  options: {
    filter: { type: 'string', multiple: true },
    pairs: { type: 'string', default: '10' },
  },
});
const pairs = Number(values.pairs);
if (!Number.isInteger(pairs) || pairs < 1) {
  process.stderr.write('usage: npm run bench:re2 -- [--filter <text>]... [--pairs <n>]\n');
  process.exit(2);
}
if (re2Binding !== 'lean' || re2NativeBackend === null || re2PackageBackend === null) {
  process.stderr.write(`bench:re2 compares the lean RE2 binding with the re2 package's exec; here: ${re2Binding ?? 'no native re2'} only (npm run install builds it)\n`);
  process.exit(1);
}

const rules = selectRules({});
const lean = compileProgram(rules, re2NativeBackend);
const pkg = compileProgram(rules, re2PackageBackend);

const sets: Array<{ name: string; bodies: readonly Body[] }> = [{ name: 'batch: 200 bodies, 16-128 KiB', bodies: batchCorpus(200) }];
for (const kind of kContentKinds) for (const density of kDensities) sets.push({ name: `${kind}/${density}/1MB`, bodies: [makeBody(kind, density, '1MB')] });
const chosen = sets.filter((s) => (values.filter ?? []).every((f) => s.name.includes(f)));

async function pass(program: Program, bodies: readonly Body[]): Promise<{ ms: number; findings: number }> {
  const t0 = performance.now();
  let findings = 0;
  for (const b of bodies) findings += (await scanStream(program, [b.bytes], { contentType: b.contentType })).findings.length;
  return { ms: performance.now() - t0, findings };
}

console.log(`lean RE2 binding against the re2 package's exec: default rules (${rules.length}), ${pairs} alternated pairs of passes per set after 3 warm-up pairs`);
console.log(`${'set'.padEnd(31)}  lean ms  package ms  ${'lean/package (range)'.padEnd(24)} findings`);
for (const set of chosen) {
  for (let i = 0; i < 3; i++) {
    await pass(lean, set.bodies);
    await pass(pkg, set.bodies);
  }
  const a: number[] = [];
  const b: number[] = [];
  let fa = 0;
  let fb = 0;
  for (let i = 0; i < pairs; i++) {
    // Which goes first alternates too, so neither always runs right after the other's garbage.
    const first = i % 2 === 0 ? lean : pkg;
    const x = await pass(first, set.bodies);
    const y = await pass(first === lean ? pkg : lean, set.bodies);
    const [l, p] = first === lean ? [x, y] : [y, x];
    a.push(l.ms);
    b.push(p.ms);
    fa = l.findings;
    fb = p.findings;
  }
  const ratios = a.map((x, i) => x / b[i]!);
  const range = `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
  const same = fa === fb ? `${fa}` : `${fa} vs ${fb} DIFFER`;
  const ratio = `${median(ratios).toFixed(3)} (${range})`;
  console.log(`${set.name.padEnd(31)} ${median(a).toFixed(1).padStart(8)} ${median(b).toFixed(1).padStart(11)}  ${ratio.padEnd(24)} ${same}`);
  if (fa !== fb) process.exitCode = 1;
}
