/**
 * `npm run bench:slices`: the engine's slice size (`sliceBytes`, kSliceBytes in src/engine/body.ts) on
 * the bench bodies. A large chunk is decoded and matched in slices of this size, and the matcher keeps
 * as much dead text before it compacts its buffer. Each size is one scanner setting on the same bytes;
 * the sizes take turns round by round (the machine is noisy), and each body's figure is the best round.
 *
 *   npm run bench:slices                           every kind and density, 128 KB and 1 MB
 *   npm run bench:slices -- --filter json/sparse   only bodies whose name contains the text
 *   npm run bench:slices -- --sizes 65536,16384,4096 --rounds 5
 */
import { parseArgs } from 'node:util';
import { scanStream } from '../src/engine/stream.js';
import { kSliceBytes } from '../src/engine/body.js';
import { programFor } from '../src/scanner.js';
import { kContentKinds, kDensities, makeBody, type Body } from './bodies.js';
import { measure, probe } from './measure.js';

const { values } = parseArgs({
  options: {
    filter: { type: 'string', multiple: true },
    sizes: { type: 'string', default: `65536,${kSliceBytes}` },
    rounds: { type: 'string', default: '3' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const rounds = Number(values.rounds);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write('usage: npm run bench:slices -- [--filter <text>]... [--sizes <bytes>,<bytes>...] [--rounds <n>]\n');
  process.exit(2);
}

const program = programFor({});
const bodies: Body[] = kContentKinds
  .flatMap((k) => kDensities.flatMap((d) => (['128KB', '1MB'] as const).map((s) => makeBody(k, d, s))))
  .filter((b) => values.filter === undefined || values.filter.some((f) => b.name.includes(f)));

const best = new Map<string, number>();
for (let r = 0; r < rounds; r++) {
  // Each round runs the sizes in another order, so a slow spell of the machine does not fall on one.
  const order = r % 2 === 0 ? sizes : [...sizes].reverse();
  for (const body of bodies) {
    for (const sliceBytes of order) {
      const fn = () => scanStream(program, [body.bytes], { contentType: body.contentType }, { sliceBytes });
      const m = await measure(`${body.name} ${sliceBytes}`, fn, await probe(fn), { timeMs: 300, minIterations: 5, caseBudgetMs: 1500, warmupMs: 50 });
      const key = `${body.name} ${sliceBytes}`;
      best.set(key, Math.min(best.get(key) ?? Infinity, m.p50));
    }
  }
  process.stderr.write(`round ${r + 1}/${rounds}\n`);
}

const base = sizes[0]!;
const head = ['body'.padEnd(22), ...sizes.map((s) => `${s / 1024} KiB MB/s`.padStart(14)), ...sizes.slice(1).map((s) => `×${base / 1024} KiB`.padStart(10))];
console.log(`Engine by slice size (default rules, ${program.backend.name}); MB/s of the best round's median, ratio to ${base / 1024} KiB slices.`);
console.log(head.join('  '));
for (const body of bodies) {
  const ms = sizes.map((s) => best.get(`${body.name} ${s}`)!);
  const mbps = ms.map((m) => body.bytes.length / 1e6 / (m / 1000));
  console.log([body.name.padEnd(22), ...mbps.map((x) => x.toFixed(1).padStart(14)), ...mbps.slice(1).map((x) => `${(x / mbps[0]!).toFixed(2)}×`.padStart(10))].join('  '));
}
