/**
 * What a set of rules costs the default program: the bench's bodies scanned in-thread with the default
 * rules and with the default rules less the named ones, alternated in the same process, CPU time and
 * wall time per round. Used to check that a new default rule keeps the engine's speed.
 *
 *   npx tsx bench/rule-cost.ts RULE_ID[,RULE_ID…] [--rounds N]
 */
import { cpuUsage } from 'node:process';
import { scanStream } from '../src/engine/index.js';
import { programFor } from '../src/scanner.js';
import { kContentKinds, kContentTypes, kDensities, makeBody } from './bodies.js';
import { median } from './measure.js';

const ids = (process.argv[2] ?? '').split(',').filter(Boolean);
if (ids.length === 0) throw new Error('usage: npx tsx bench/rule-cost.ts RULE_ID[,RULE_ID…] [--rounds N]');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 7;

const programs = { with: programFor({}), without: programFor({ disable: ids }) };
for (const density of kDensities) {
  const bodies = kContentKinds.map((k) => makeBody(k, density, '1MB'));
  const mb = bodies.reduce((n, b) => n + b.bytes.length, 0) / 1e6;
  const samples: Record<keyof typeof programs, { cpu: number[]; wall: number[] }> = { with: { cpu: [], wall: [] }, without: { cpu: [], wall: [] } };
  for (let r = 0; r < rounds + 1; r++) {
    for (const name of (r % 2 === 0 ? ['with', 'without'] : ['without', 'with']) as Array<keyof typeof programs>) {
      const c0 = cpuUsage();
      const t0 = performance.now();
      for (const b of bodies) await scanStream(programs[name], [b.bytes], { contentType: kContentTypes[b.name.split('/')[0] as keyof typeof kContentTypes] });
      const wall = performance.now() - t0;
      const c = cpuUsage(c0);
      if (r === 0) continue; // warm-up round
      samples[name].wall.push(wall);
      samples[name].cpu.push((c.user + c.system) / 1000);
    }
  }
  const rate = (ms: number): string => (mb / (ms / 1000)).toFixed(1);
  const w = samples.with;
  const wo = samples.without;
  console.log(
    `${density}: with ${ids.join(',')} ${rate(median(w.cpu))} MB/s CPU (${rate(median(w.wall))} wall), without ${rate(median(wo.cpu))} MB/s CPU (${rate(median(wo.wall))} wall): ratio ${(median(wo.cpu) / median(w.cpu)).toFixed(3)} CPU, ${(median(wo.wall) / median(w.wall)).toFixed(3)} wall (median of ${rounds} alternated rounds, 4 kinds × 1 MB)`,
  );
}
