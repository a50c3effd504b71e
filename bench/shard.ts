/**
 * `npm run bench:shard`: one big body on two cores, the two ways it could be done, against one worker
 * scanning it whole (what the pool does: docs/pool.md, "How work is spread"). Each 1 MiB bench body is
 * scanned alone (nothing else queued), so the figure is a lone body's latency:
 *
 * - **whole**: `createScanner({ workers: 1 })`, the body in one task;
 * - **rules**: the pattern set sharded: two one-worker scanners, each with half the default rules
 *   (alternate rule ids), both scanning the whole body at once; the findings are the union;
 * - **body**: the body sharded: a two-worker scanner scans two halves at once, cut at the first line
 *   break after the middle, the first half running `kOverlapBytes` past the cut so a value that
 *   straddles it is found whole; the first half keeps the findings that start before the cut, the
 *   second the rest (offsets moved by the cut).
 *
 * Modes take turns body by body, round by round (the machine is noisy); per mode and body: the median
 * wall time, the process's CPU time per body (all threads), and the findings that differ from whole.
 *
 *   npm run bench:shard                     every kind and density, 1 MB
 *   npm run bench:shard -- --rounds 30 --filter json
 */
import { parseArgs } from 'node:util';
import { createScanner } from '../src/index.js';
import { managedRuleset } from '../src/rules/index.js';
import type { Finding, Scanner } from '../src/types.js';
import { kContentKinds, kDensities, makeBody, type Body } from './bodies.js';
import { median } from './measure.js';

const { values } = parseArgs({
  options: {
    filter: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '15' },
  },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write('usage: npm run bench:shard -- [--filter <text>]... [--rounds <n>]\n');
  process.exit(2);
}

/** Bytes the first half runs past the cut: longer than any default rule's match. */
export const kOverlapBytes = 8 * 1024;

type Mode = 'whole' | 'rules' | 'body';
const kModes: readonly Mode[] = ['whole', 'rules', 'body'];

const bodies: Body[] = kContentKinds
  .flatMap((k) => kDensities.map((d) => makeBody(k, d, '1MB')))
  .filter((b) => values.filter === undefined || values.filter.some((f) => b.name.includes(f)));

const ids = managedRuleset.rules.filter((r) => r.enabledByDefault).map((r) => r.id);
const halves = [ids.filter((_, i) => i % 2 === 0), ids.filter((_, i) => i % 2 === 1)] as const;

const maxQueue = 16;
const whole = await createScanner({ workers: 1, maxQueue });
const byRules = [await createScanner({ workers: 1, maxQueue, disable: [...halves[1]] }), await createScanner({ workers: 1, maxQueue, disable: [...halves[0]] })];
const byBody = await createScanner({ workers: 2, maxQueue });

const key = (f: Finding): string => `${f.ruleId}@${f.start}-${f.end}`;

/** The first line break at or after the middle (the middle if none within 64 KiB). */
function cutOf(bytes: Uint8Array): number {
  const mid = bytes.length >> 1;
  const nl = bytes.indexOf(0x0a, mid);
  return nl === -1 || nl - mid > 65_536 ? mid : nl + 1;
}

async function scanWith(mode: Mode, body: Body): Promise<Finding[]> {
  const meta = { contentType: body.contentType };
  if (mode === 'whole') return whole.scan(body.bytes, meta);
  if (mode === 'rules') {
    const [a, b] = await Promise.all(byRules.map((s: Scanner) => s.scan(body.bytes, meta)));
    return [...a!, ...b!].sort((x, y) => x.start - y.start || x.end - y.end);
  }
  const cut = cutOf(body.bytes);
  const [a, b] = await Promise.all([
    byBody.scan(body.bytes.subarray(0, Math.min(body.bytes.length, cut + kOverlapBytes)), meta),
    byBody.scan(body.bytes.subarray(cut), meta),
  ]);
  return [...a!.filter((f) => f.start < cut), ...b!.map((f) => ({ ...f, start: f.start + cut, end: f.end + cut }))];
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const times = new Map<string, number[]>();
const cpu = new Map<string, number>();
const diffs = new Map<string, { missing: number; extra: number; whole: number }>();
const warm = 3;
for (let r = 0; r < warm + rounds; r++) {
  for (const body of bodies) {
    // A round runs the modes in turn, each round in another order.
    const order = kModes.map((_, i) => kModes[(i + r) % kModes.length]!);
    // The findings compared with whole's, once (the first measured round).
    const reference = r === warm ? new Set((await scanWith('whole', body)).map(key)) : null;
    for (const mode of order) {
      const c0 = cpuMs();
      const t0 = performance.now();
      const found = await scanWith(mode, body);
      const ms = performance.now() - t0;
      const c = cpuMs() - c0;
      if (r < warm) continue;
      const k = `${body.name} ${mode}`;
      (times.get(k) ?? times.set(k, []).get(k)!).push(ms);
      cpu.set(k, (cpu.get(k) ?? 0) + c);
      if (reference !== null) {
        const got = new Set(found.map(key));
        diffs.set(k, { missing: [...reference].filter((x) => !got.has(x)).length, extra: [...got].filter((x) => !reference.has(x)).length, whole: reference.size });
      }
    }
  }
  process.stderr.write(`round ${r + 1}/${warm + rounds}${r < warm ? ' (warm-up)' : ''}\n`);
}
for (const s of [whole, ...byRules, byBody]) await s.close();

console.log(`One 1 MiB body at a time on two cores (default rules, ${ids.length}): median wall ms over ${rounds} rounds, process CPU ms per body, findings unlike whole's (missing/extra).`);
console.log('whole = 1 worker, the body whole; rules = 2 workers, half the rules each; body = 2 workers, half the body each (+8 KiB overlap).');
const head = ['body'.padEnd(18), 'findings', ...kModes.map((m) => `${m} ms`.padStart(9)), ...kModes.slice(1).map((m) => `×${m}`.padStart(7)), ...kModes.map((m) => `${m} CPU`.padStart(10)), 'rules diff', 'body diff'];
console.log(head.join('  '));
for (const body of bodies) {
  const ms = kModes.map((m) => median(times.get(`${body.name} ${m}`)!));
  const c = kModes.map((m) => cpu.get(`${body.name} ${m}`)! / rounds);
  const d = (m: Mode): string => {
    const x = diffs.get(`${body.name} ${m}`)!;
    return `-${x.missing}/+${x.extra}`;
  };
  console.log(
    [
      body.name.slice(0, -4).padEnd(18),
      String(diffs.get(`${body.name} whole`)!.whole).padStart(8),
      ...ms.map((x) => x.toFixed(2).padStart(9)),
      ...ms.slice(1).map((x) => `${(ms[0]! / x).toFixed(2)}×`.padStart(7)),
      ...c.map((x) => x.toFixed(1).padStart(10)),
      d('rules').padStart(10),
      d('body').padStart(9),
    ].join('  '),
  );
}
