/**
 * `npm run bench:re2 -- --against FILE`: this tree's RE2 binding (native/re2, over the system RE2)
 * against another build of it, FILE (a `leakscan_re2.node`, e.g. another checkout's, built with
 * another RE2), on the same rules (default), prefilter and matcher. Both builds are loaded in this
 * one process (each keeps its RE2 to itself: a binding linked statically hides its RE2 symbols) and
 * take turns pass by pass: the machine is noisy, and a pair of passes a few milliseconds apart sees
 * the same load. Sets:
 *
 * - the pool's batch corpus (200 bodies of 16-128 KiB, a quarter dense: bench/pool.ts), and
 * - each 1 MiB bench body, per content kind and density.
 *
 * Per set: median pass time of each build, the median of the per-pair ratios (this / other, below 1 =
 * this build is faster) with their range, and the findings of each (they must be the same).
 *
 *   npm run bench:re2 -- --against ../main/native/re2/build/Release/leakscan_re2.node
 *   npm run bench:re2 -- --against FILE --pairs 20 --filter dense
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { re2BackendOver, type Re2Binding } from '../src/engine/backend/re2-native.js';
import { compileProgram, re2NativeBackend, re2Status, scanStream, type Program } from '../src/engine/index.js';
import { selectRules } from '../src/rules/index.js';
import { kContentKinds, kDensities, makeBody, type Body } from './bodies.js';
import { median } from './measure.js';
import { batchCorpus } from './pool.js';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    filter: { type: 'string', multiple: true },
    pairs: { type: 'string', default: '10' },
  },
});
const pairs = Number(values.pairs);
if (!Number.isInteger(pairs) || pairs < 1 || values.against === undefined) {
  process.stderr.write('usage: npm run bench:re2 -- --against <leakscan_re2.node> [--filter <text>]... [--pairs <n>]\n');
  process.exit(2);
}
if (re2NativeBackend === null) {
  process.stderr.write(`bench:re2 needs this tree's RE2 binding: ${re2Status.unavailable}\n`);
  process.exit(1);
}

/**
 * The other build. One without a string search (before it had one) gets it here: encoded per call,
 * positions converted; the matcher only searches strings from between the halves of a pair.
 */
function loadOther(file: string): Re2Binding {
  const b = createRequire(import.meta.url)(resolve(file)) as Omit<Re2Binding, 'execString'> & Partial<Pick<Re2Binding, 'execString'>>;
  if (b.execString !== undefined) return b as Re2Binding;
  return {
    compile: b.compile,
    exec: b.exec,
    execString(pattern, text, from, out) {
      const bytes = Buffer.from(text, 'utf8');
      const found = b.exec(pattern, bytes, Buffer.byteLength(text.slice(0, from)), out);
      if (found) for (let i = 0; i < 4; i++) out[i] = bytes.subarray(0, out[i]).toString('utf8').length;
      return found;
    },
  };
}

const rules = selectRules({});
const ours = compileProgram(rules, re2NativeBackend);
const other = compileProgram(rules, re2BackendOver(loadOther(values.against)));

const sets: Array<{ name: string; bodies: readonly Body[] }> = [{ name: 'batch: 200 bodies, 16-128 KiB', bodies: batchCorpus(200) }];
for (const kind of kContentKinds) for (const density of kDensities) sets.push({ name: `${kind}/${density}/1MB`, bodies: [makeBody(kind, density, '1MB')] });
const chosen = sets.filter((s) => (values.filter ?? []).every((f) => s.name.includes(f)));

async function pass(program: Program, bodies: readonly Body[]): Promise<{ ms: number; findings: number }> {
  const t0 = performance.now();
  let findings = 0;
  for (const b of bodies) findings += (await scanStream(program, [b.bytes], { contentType: b.contentType })).findings.length;
  return { ms: performance.now() - t0, findings };
}

console.log(`RE2 binding (system ${re2Status.library ?? 'RE2'}) against ${values.against}: default rules (${rules.length}), ${pairs} alternated pairs of passes per set after 3 warm-up pairs`);
console.log(`${'set'.padEnd(31)}  this ms    other ms  ${'this/other (range)'.padEnd(24)} findings`);
for (const set of chosen) {
  for (let i = 0; i < 3; i++) {
    await pass(ours, set.bodies);
    await pass(other, set.bodies);
  }
  const a: number[] = [];
  const b: number[] = [];
  let fa = 0;
  let fb = 0;
  for (let i = 0; i < pairs; i++) {
    // Which goes first alternates too, so neither always runs right after the other's garbage.
    const first = i % 2 === 0 ? ours : other;
    const x = await pass(first, set.bodies);
    const y = await pass(first === ours ? other : ours, set.bodies);
    const [l, p] = first === ours ? [x, y] : [y, x];
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
