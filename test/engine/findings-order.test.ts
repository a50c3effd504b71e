import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortFindings } from '../../src/engine/body.js';
import type { Finding } from '../../src/types.js';

/** The order the scan report promises, as the plain stable sort with a comparator gives it. */
const reference = (fs: readonly Finding[]): Finding[] =>
  fs.slice().sort((a, b) => a.start - b.start || a.end - b.end || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));

const finding = (start: number, length: number, ruleId: string, tag: number): Finding =>
  ({ ruleId, description: '', tags: [], start, end: start + length, redacted: String(tag), confidence: 'high' }) as Finding;

describe('sortFindings', () => {
  it('orders as the stable comparator sort does: by start, end, rule id, then as recorded', () => {
    const one = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 4 }), fc.constantFrom('iban', 'jwt', 'card-visa', 'us-ssn'));
    fc.assert(
      fc.property(fc.array(one, { maxLength: 400, size: 'max' }), (specs) => {
        const fs = specs.map(([s, l, r], i) => finding(s, l, r, i));
        const want = reference(fs);
        sortFindings(fs);
        expect(fs.map((f) => f.redacted)).toEqual(want.map((f) => f.redacted));
      }),
      { numRuns: 400, seed: 20261129 },
    );
  });

  it('keeps the order past the packing bounds (far starts, long spans, many findings)', () => {
    const far = Array.from({ length: 100 }, (_, i) => finding(i % 7 === 0 ? 2 ** 22 + i : 1000 - i, i % 5 === 0 ? 40_000 : 3, i % 2 ? 'a' : 'b', i));
    const many = Array.from({ length: 20_000 }, (_, i) => finding((i * 7919) % 5000, i % 3, i % 2 ? 'a' : 'b', i));
    for (const fs of [far, many]) {
      const want = reference(fs);
      sortFindings(fs);
      expect(fs.map((f) => f.redacted)).toEqual(want.map((f) => f.redacted));
    }
  });
});
