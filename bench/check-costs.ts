/**
 * What the rules' checks of matched values cost, rule by rule. One scan of the bench's four 1 MiB
 * bodies of a density records the values each rule's validator is asked about, in order; then each
 * check is replayed over those values alone, timed: the validator, the placeholder test (rules that
 * suppress placeholders) and the entropy floor (rules with one). A replay runs warm, its code and data
 * in the caches, so it is a lower bound of what the scan pays; it ranks the rules for work on the
 * checks (docs/design/performance-notes.md, "What a dense scan's checks cost").
 *
 *   npm run build && npx tsx bench/check-costs.ts [--density dense|sparse] [--rounds N]
 *
 * Loads the build (dist/), as users run it: it refuses a build older than src/.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Engine from '../src/engine/index.js';
import type * as Rules from '../src/rules/index.js';
import type * as Placeholders from '../src/rules/placeholders.js';
import type * as Entropy from '../src/validators/entropy.js';
import { kContentKinds, kContentTypes, makeBody, type Density } from './bodies.js';
import { freshBuild } from './fresh-build.js';

const root = resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const density = arg('--density', 'dense') as Density;
const rounds = Number(arg('--rounds', '50'));
if (density !== 'dense' && density !== 'sparse') throw new Error('--density is dense or sparse');
if (!(rounds > 0)) throw new Error('--rounds is a positive number');

if (!freshBuild(root)) throw new Error('dist/ is missing or older than src/: run `npm run build` first');
const load = async <T>(p: string): Promise<T> => (await import(pathToFileURL(join(root, 'dist', p)).href)) as T;
const engine = await load<typeof Engine>('engine/index.js');
const rules = await load<typeof Rules>('rules/index.js');
const { isPlaceholder } = await load<typeof Placeholders>('rules/placeholders.js');
const { shannonEntropy } = await load<typeof Entropy>('validators/entropy.js');

// The default rules, each validator wrapped to record what it is asked (run gates included: a rule
// whose value is its run asks its validator about the run).
const values = new Map<string, string[]>();
const defs = rules.selectRules({}).map((d) => {
  const validate = d.validate;
  if (validate === undefined) return d;
  const seen: string[] = [];
  values.set(d.id, seen);
  return { ...d, validate: (v: string) => (seen.push(v), validate(v)) };
});
const program = engine.compileProgram(defs, engine.resolveBackend('auto'));
for (const kind of kContentKinds) {
  const body = makeBody(kind, density, '1MB');
  await engine.scanStream(program, [body.bytes], { contentType: kContentTypes[kind] });
}

/** Nanoseconds per value of `check` over `vs`, warm: the median of three timed stretches of `rounds` passes. */
function perValue(check: (v: string) => unknown, vs: readonly string[]): number {
  let sink = 0;
  for (let r = 0; r < 5; r++) for (const v of vs) if (check(v)) sink++;
  const times: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const v of vs) if (check(v)) sink++;
    times.push(Number(process.hrtime.bigint() - t0) / rounds / vs.length);
  }
  if (sink < 0) console.log(sink);
  return times.sort((a, b) => a - b)[1]!;
}

const rows = [];
for (const d of rules.selectRules({})) {
  const vs = values.get(d.id);
  if (vs === undefined || vs.length === 0) continue;
  const validate = perValue(d.validate!, vs);
  const placeholder = (d.suppressPlaceholders ?? d.family === 'secrets') ? perValue(isPlaceholder, vs) : 0;
  const entropy = d.minEntropy !== undefined ? perValue(shannonEntropy, vs) : 0;
  rows.push({ id: d.id, n: vs.length, validate, placeholder, entropy, ms: ((validate + placeholder + entropy) * vs.length) / 1e6 });
}
rows.sort((a, b) => b.ms - a.ms);
const total = rows.reduce((s, r) => s + r.ms, 0);
console.log(`Checks of the default rules' values, ${density} bodies (4 × 1 MiB), replayed warm, ${rounds} passes × 3 (median):`);
console.log('rule                          values  validate ns  placeholder ns  entropy ns  ms a pass');
const ns = (x: number, width: number): string => (x === 0 ? '-' : x.toFixed(0)).padStart(width);
for (const r of rows) {
  console.log(`${r.id.padEnd(28)} ${String(r.n).padStart(7)} ${ns(r.validate, 12)} ${ns(r.placeholder, 15)} ${ns(r.entropy, 11)} ${r.ms.toFixed(2).padStart(10)}`);
}
console.log(`total ${total.toFixed(2)} ms a pass of the four bodies (the scan pays more: see the header)`);
