/**
 * Property: following the cursor returns every key exactly once, in R2's order (UTF-8 bytes, i.e.
 * code points), and ends — for any limit, any key set (the empty key and keys above U+FFFF included),
 * with and without a delimiter, prefix or startAfter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';

const root = mkdtempSync(join(tmpdir(), 'leakscan-store-paging-'));
let bucket: LocalBucket;
beforeAll(async () => {
  bucket = await openBucket({ dir: root });
});
afterAll(async () => {
  await bucket.close();
  rmSync(root, { recursive: true, force: true });
});

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const byteOrder = (a: string, b: string): number => Buffer.compare(utf8(a), utf8(b));
const wellFormed = (s: string): boolean => utf8(s).toString('utf8') === s;

// Few distinct units so keys share prefixes and delimiters; NUL, U+FFFF and astral code points are
// where byte order and JS string order part ways.
const unit = fc.constantFrom('a', 'b', '/', '\u0000', 'é', '\uffff', '\u{1f600}', '\u{10ffff}');
const key = fc.oneof(
  fc.constant(''),
  fc.string({ unit, maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 3 }).filter(wellFormed),
);
const scenario = fc.record({
  keys: fc.uniqueArray(key, { maxLength: 14 }),
  limit: fc.integer({ min: 1, max: 16 }),
  delimiter: fc.constantFrom(undefined, '', '/', 'b', '\u{1f600}', 'a/'),
  prefix: fc.constantFrom(undefined, '', 'a', '/', '\u{1f600}'),
  startAfter: fc.option(key, { nil: undefined }),
});

/** What a single unlimited listing must return, computed from the key set alone. */
function model(keys: string[], o: { delimiter?: string; prefix?: string; startAfter?: string }): { objects: string[]; groups: string[] } {
  const prefix = o.prefix ?? '';
  const objects: string[] = [];
  const groups: string[] = [];
  const sorted = [...keys].sort(byteOrder);
  for (const k of sorted) {
    if (!k.startsWith(prefix)) continue;
    if (o.startAfter !== undefined && byteOrder(k, o.startAfter) <= 0) continue;
    const at = o.delimiter ? k.indexOf(o.delimiter, prefix.length) : -1;
    if (at < 0) objects.push(k);
    else {
      const g = k.slice(0, at + o.delimiter!.length);
      if (groups.at(-1) !== g) groups.push(g);
    }
  }
  return { objects, groups };
}

describe('list paging (property)', () => {
  it('returns every key once, in byte order, and ends', async () => {
    let stored: string[] = [];
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        if (stored.length > 0) await bucket.delete(stored);
        await Promise.all(s.keys.map((k) => bucket.put(k, k)));
        stored = s.keys;
        const opts = {
          limit: s.limit,
          ...(s.delimiter === undefined ? {} : { delimiter: s.delimiter }),
          ...(s.prefix === undefined ? {} : { prefix: s.prefix }),
          ...(s.startAfter === undefined ? {} : { startAfter: s.startAfter }),
        };
        const want = model(s.keys, opts);
        const objects: string[] = [];
        const groups: string[] = [];
        let cursor: string | undefined;
        // Every page but the last holds `limit` entries, so more pages than this means a loop.
        const maxPages = Math.ceil((want.objects.length + want.groups.length) / s.limit) + 1;
        for (let page = 1; ; page++) {
          expect(page, 'pages').toBeLessThanOrEqual(maxPages);
          const r = await bucket.list({ ...opts, ...(cursor === undefined ? {} : { cursor }) });
          expect(r.objects.length + r.delimitedPrefixes.length).toBeLessThanOrEqual(s.limit);
          objects.push(...r.objects.map((o) => o.key));
          groups.push(...r.delimitedPrefixes);
          if (!r.truncated) break;
          cursor = r.cursor;
        }
        expect(objects).toEqual(want.objects);
        expect(groups).toEqual(want.groups);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
