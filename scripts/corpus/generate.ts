/**
 * Writes the labelled accuracy corpus (`npm run corpus`): `<out>/labelled/` (bodies with planted
 * values of every rule, among decoys) and `<out>/clean/` (the same shapes with decoys only), each with
 * a `manifest.json` giving every planted value's rule and UTF-8 byte span. Seeded: the same bytes on
 * every run and machine. `--small` writes the fixed small slice the floors test scans.
 *
 *   npx tsx scripts/corpus/generate.ts [--small] [--out <dir>]   (default out: corpus/generated)
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng, seedOf } from '../../bench/prng.js';
import { examplePlants, interleaveByRule, kValueKinds, syntheticPlant, type Plant } from './plants.js';
import { kBodyKinds, kShapes, Writer, type BodyKind, type DecoyRecord, type PlantRecord } from './shapes.js';

/** Bump when the bytes written change, so an eval result names the corpus it measured. */
export const kGeneratorVersion = 2;
/** The bench's seed (bench/synthetic.ts values in corpus/samples came from it too). */
export const kSeed = 20241121;

export const kDefaultOut = resolve(fileURLToPath(new URL('../../corpus/generated', import.meta.url)));

export interface CorpusFile {
  /** Path relative to the set's directory. */
  file: string;
  contentType: string;
  kind: BodyKind;
  shape: string;
  bytes: number;
}

/**
 * Digest of what the bytes are made from besides this code: the rules' positive examples, which are
 * planted. It changes whenever a rule's examples do, so `npm run eval` can tell a stale corpus from a
 * current one (code changes bump `kGeneratorVersion`).
 */
export function corpusInputs(): string {
  return createHash('sha256').update(JSON.stringify([kGeneratorVersion, kSeed, examplePlants()])).digest('hex').slice(0, 16);
}

export interface Manifest {
  generator: { name: string; version: number; seed: number; inputs: string; mode: 'full' | 'small'; set: 'labelled' | 'clean' };
  note: string;
  files: CorpusFile[];
  plants: Array<PlantRecord & { file: string }>;
  /** How many decoys of each kind the set holds (their spans are not listed: they would dwarf the bodies). */
  decoys: Partial<Record<DecoyRecord['kind'], number>>;
}

interface SetPlan {
  set: 'labelled' | 'clean';
  minBodies: number;
  minBytes: number;
  size: (rng: Rng) => number;
  /** Bytes of body per planted value (labelled only). */
  plantEvery: number;
  exampleShare: number;
}

function plans(small: boolean): SetPlan[] {
  if (small) {
    return [
      { set: 'labelled', minBodies: 60, minBytes: 0, size: (r) => r.int(6_000, 20_000), plantEvery: 2_400, exampleShare: 0.75 },
      { set: 'clean', minBodies: 40, minBytes: 0, size: (r) => r.int(5_000, 15_000), plantEvery: 0, exampleShare: 0 },
    ];
  }
  // Mostly 3-45 kB pages (typical API and HTML responses), a few of 150-300 kB; all under the 1 MiB scan cap.
  const size = (r: Rng) => (r.chance(0.03) ? r.int(150_000, 300_000) : r.int(3_000, 45_000));
  return [
    { set: 'labelled', minBodies: 2_000, minBytes: 52_000_000, size, plantEvery: 2_500, exampleShare: 0.6 },
    { set: 'clean', minBodies: 600, minBytes: 21_000_000, size, plantEvery: 0, exampleShare: 0 },
  ];
}

/** Hands out plants: rule examples round-robin by rule, synthetic values round-robin by kind. */
class PlantSource {
  readonly #examples: Plant[];
  readonly #verbatim: Record<'json' | 'html', Plant[]>;
  #ex = 0;
  #kind = 0;
  readonly #vb = { json: 0, html: 0 };

  constructor(readonly share: number) {
    const all = interleaveByRule(examplePlants());
    this.#examples = all.filter((p) => p.verbatimKind === undefined);
    this.#verbatim = { json: all.filter((p) => p.verbatimKind === 'json'), html: all.filter((p) => p.verbatimKind === 'html') };
  }

  next(rng: Rng, kind: BodyKind): Plant {
    if ((kind === 'json' || kind === 'html') && rng.chance(0.08)) {
      const list = this.#verbatim[kind];
      const p = list[this.#vb[kind]++ % list.length];
      if (p !== undefined) return p;
    }
    if (rng.chance(this.share)) {
      const p = this.#examples[this.#ex++ % this.#examples.length];
      if (p !== undefined) return p;
    }
    const k = kValueKinds[this.#kind++ % kValueKinds.length] ?? 'card';
    return syntheticPlant(rng, k);
  }
}

function writeSet(root: string, plan: SetPlan, mode: 'full' | 'small'): Manifest {
  const dir = join(root, plan.set);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest: Manifest = {
    generator: { name: 'scripts/corpus/generate.ts', version: kGeneratorVersion, seed: kSeed, inputs: corpusInputs(), mode, set: plan.set },
    note: 'Synthetic bodies. Spans are [start, end) UTF-8 byte offsets into the file as written; for escaped placements they cover the escaped bytes.',
    files: [],
    plants: [],
    decoys: {},
  };
  const source = new PlantSource(plan.exampleShare);
  let total = 0;
  for (let i = 0; i < plan.minBodies || total < plan.minBytes; i++) {
    const rng = new Rng(seedOf(`${kSeed}/${mode}/${plan.set}/${i}`));
    const kind = kBodyKinds[i % kBodyKinds.length] ?? 'text';
    const shape = rng.pick(kShapes[kind]);
    const size = plan.size(rng);
    const w = new Writer();
    shape.header(w, rng);
    let nextPlantAt = plan.plantEvery > 0 ? rng.int(0, plan.plantEvery) : Infinity;
    let first = true;
    while (w.bytes < size) {
      const plants: Plant[] = [];
      while (w.bytes >= nextPlantAt) {
        plants.push(source.next(rng, kind));
        nextPlantAt += plan.plantEvery;
      }
      if (!first && shape.separator !== undefined) w.raw(shape.separator);
      shape.record(w, rng, plants);
      first = false;
    }
    shape.footer(w, rng);
    const file = `${String(i).padStart(4, '0')}-${kind}-${shape.name}.${shape.ext}`;
    const bytes = Buffer.from(w.text(), 'utf8');
    if (bytes.length !== w.bytes) throw new Error(`${file}: byte count drifted`);
    writeFileSync(join(dir, file), bytes);
    total += bytes.length;
    manifest.files.push({ file, contentType: shape.contentType, kind, shape: shape.name, bytes: bytes.length });
    for (const p of w.plants) manifest.plants.push({ file, ...p });
    for (const d of w.decoys) manifest.decoys[d.kind] = (manifest.decoys[d.kind] ?? 0) + 1;
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest) + '\n');
  return manifest;
}

export interface GenerateOptions {
  out?: string;
  small?: boolean;
}

/** Writes both sets under `out` and returns their manifests. */
export function generateCorpus(opts: GenerateOptions = {}): { labelled: Manifest; clean: Manifest } {
  const out = resolve(opts.out ?? kDefaultOut);
  const mode = opts.small === true ? 'small' : 'full';
  const [lp, cp] = plans(opts.small === true);
  if (lp === undefined || cp === undefined) throw new Error('no plan');
  return { labelled: writeSet(out, lp, mode), clean: writeSet(out, cp, mode) };
}

function main(argv: readonly string[]): void {
  const small = argv.includes('--small');
  const at = argv.indexOf('--out');
  const out = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && out === undefined) throw new Error('--out needs a directory');
  const t0 = performance.now();
  const { labelled, clean } = generateCorpus(out === undefined ? { small } : { small, out });
  const mb = (m: Manifest) => (m.files.reduce((s, f) => s + f.bytes, 0) / 1e6).toFixed(1);
  const rules = new Set(labelled.plants.map((p) => p.rule)).size;
  process.stderr.write(
    `corpus: ${labelled.files.length} labelled bodies (${mb(labelled)} MB, ${labelled.plants.length} planted values of ${rules} rules), ` +
      `${clean.files.length} clean bodies (${mb(clean)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${resolve(out ?? kDefaultOut)}\n`,
  );
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
