/** The corpus generator: deterministic bytes, byte spans that hold the planted values, the small slice's size. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../scripts/corpus/generate.js';
import { examplePlants } from '../../scripts/corpus/plants.js';

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'leakscan-corpus-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tree = (root: string) => {
  const out = new Map<string, Buffer>();
  for (const set of ['labelled', 'clean']) for (const f of readdirSync(join(root, set))) out.set(`${set}/${f}`, readFileSync(join(root, set, f)));
  return out;
};

describe('generateCorpus --small', () => {
  const a = fresh();
  const { labelled, clean } = generateCorpus({ out: a, small: true });

  it('writes the same bytes on every run', () => {
    const b = fresh();
    generateCorpus({ out: b, small: true });
    const ta = tree(a);
    const tb = tree(b);
    expect([...tb.keys()]).toEqual([...ta.keys()]);
    for (const [k, v] of ta) expect(tb.get(k)?.equals(v), k).toBe(true);
  });

  it('is a small slice of every body kind', () => {
    expect(labelled.files.length).toBeGreaterThanOrEqual(60);
    expect(clean.files.length).toBeGreaterThanOrEqual(40);
    expect(new Set(labelled.files.map((f) => f.kind))).toEqual(new Set(['html', 'json', 'xml', 'text']));
    let bytes = 0;
    for (const set of ['labelled', 'clean']) for (const f of readdirSync(join(a, set))) bytes += statSync(join(a, set, f)).size;
    expect(bytes).toBeLessThan(3_000_000);
    expect(clean.plants).toEqual([]);
  });

  it('records spans that hold the planted value, escaped or not', () => {
    // Unescaped placements must hold exactly an example's match; escaped ones at least a non-empty span.
    const matches = new Set(examplePlants().map((p) => p.value));
    let exact = 0;
    for (const p of labelled.plants) {
      const body = readFileSync(join(a, 'labelled', p.file));
      expect(p.end).toBeGreaterThan(p.start);
      expect(p.end).toBeLessThanOrEqual(body.length);
      expect(p.region[0]).toBeLessThanOrEqual(p.start);
      expect(p.region[1]).toBeGreaterThanOrEqual(p.end);
      if (p.source.startsWith('example:') && (p.placement.endsWith('example') || p.placement === 'xml:cdata' || p.placement === 'html:markup')) {
        expect(matches.has(body.subarray(p.start, p.end).toString('utf8')), `${p.file} ${p.source}`).toBe(true);
        exact++;
      }
    }
    expect(exact).toBeGreaterThan(10);
  });
});
