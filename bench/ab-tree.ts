/**
 * This checkout's engine against another checkout's, in one process on the same bodies: each tree's
 * own `programFor` and `scanStream` (its rules, prefilter and native builds), rounds alternated, CPU
 * time beside wall time. For "no slower than before" checks across commits:
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci)   # or link node_modules and builds
 *   npx tsx bench/ab-tree.ts /tmp/before [--rounds N] [--all-rules]
 *
 * Ratios are this tree's MB/s over the other's (above 1: this tree is faster).
 */
import { cpuUsage } from 'node:process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kContentKinds, kContentTypes, kDensities, makeBody } from './bodies.js';
import { median } from './measure.js';

interface Tree {
  programFor(o: object): unknown;
  scanStream(p: unknown, chunks: Uint8Array[], meta: object): Promise<{ findings: unknown[] }>;
}

async function load(root: string): Promise<Tree> {
  const at = (p: string) => pathToFileURL(resolve(root, p)).href;
  const scanner = (await import(at('src/scanner.ts'))) as { programFor: Tree['programFor'] };
  const engine = (await import(at('src/engine/index.ts'))) as { scanStream: Tree['scanStream'] };
  return { programFor: scanner.programFor, scanStream: engine.scanStream };
}

const other = process.argv[2];
if (other === undefined || other.startsWith('--')) throw new Error('usage: npx tsx bench/ab-tree.ts OTHER_CHECKOUT [--rounds N] [--all-rules]');
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 7;
const options = process.argv.includes('--all-rules') ? { allRules: true } : {};

const trees = { this: await load(resolve(import.meta.dirname, '..')), other: await load(other) };
const programs = { this: trees.this.programFor(options), other: trees.other.programFor(options) };
type Name = keyof typeof trees;

for (const density of kDensities) {
  const bodies = kContentKinds.map((k) => makeBody(k, density, '1MB'));
  const mb = bodies.reduce((n, b) => n + b.bytes.length, 0) / 1e6;
  const samples: Record<Name, { cpu: number[]; wall: number[]; findings: number }> = { this: { cpu: [], wall: [], findings: 0 }, other: { cpu: [], wall: [], findings: 0 } };
  for (let r = 0; r < rounds + 1; r++) {
    for (const name of (r % 2 === 0 ? ['this', 'other'] : ['other', 'this']) as Name[]) {
      const c0 = cpuUsage();
      const t0 = performance.now();
      let findings = 0;
      for (const b of bodies) {
        const report = await trees[name].scanStream(programs[name], [b.bytes], { contentType: kContentTypes[b.name.split('/')[0] as keyof typeof kContentTypes] });
        findings += report.findings.length;
      }
      const wall = performance.now() - t0;
      const c = cpuUsage(c0);
      if (r === 0) continue; // warm-up round
      samples[name].wall.push(wall);
      samples[name].cpu.push((c.user + c.system) / 1000);
      samples[name].findings = findings;
    }
  }
  const rate = (ms: number): string => (mb / (ms / 1000)).toFixed(1);
  const t = samples.this;
  const o = samples.other;
  console.log(
    `${density}: this ${rate(median(t.cpu))} MB/s CPU (${rate(median(t.wall))} wall, ${t.findings} findings), other ${rate(median(o.cpu))} MB/s CPU (${rate(median(o.wall))} wall, ${o.findings} findings): ratio ${(median(o.cpu) / median(t.cpu)).toFixed(3)} CPU, ${(median(o.wall) / median(t.wall)).toFixed(3)} wall (median of ${rounds} alternated rounds, 4 kinds × 1 MB${options.allRules ? ', all rules' : ''})`,
  );
}
