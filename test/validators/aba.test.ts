import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abaValid } from '../../src/validators/aba.js';
import { digitChanges, swapAt } from './helpers.js';

// Published routing numbers of large institutions (printed on their own websites and in the Federal
// Reserve's E-Payments Routing Directory): Federal Reserve Bank of Boston, JPMorgan Chase (NY, IL, CA),
// Bank of America (NY, CA), Wells Fargo (AZ).
const kValid = ['011000015', '021000021', '071000013', '322271627', '026009593', '121000358', '122105155'];

/**
 * A second implementation of the ABA checksum as the ABA states it: 3(d1 + d4 + d7) + 7(d2 + d5 + d8)
 * + (d3 + d6 + d9) ≡ 0 (mod 10), summing the three columns first; and the Federal Reserve's prefix
 * ranges written as a list.
 */
function reference(s: string): boolean {
  if (!/^[0-9]{9}$/.test(s) || s === '000000000') return false;
  const col = (k: number): number => Number(s[k]) + Number(s[k + 3]) + Number(s[k + 6]);
  if ((3 * col(0) + 7 * col(1) + col(2)) % 10 !== 0) return false;
  const p = Number(s.slice(0, 2));
  const ranges: [number, number][] = [[0, 12], [21, 32], [61, 72], [80, 80]];
  return ranges.some(([lo, hi]) => p >= lo && p <= hi);
}
/** The ninth digit that completes eight digits under the checksum. */
function complete(eight: string): string {
  const w = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(eight[i]) * w[i % 3]!;
  return `${eight}${(10 - (sum % 10)) % 10}`; // the ninth digit's weight is 1
}
const kAssignedPrefix = fc
  .oneof(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 21, max: 32 }), fc.integer({ min: 61, max: 72 }), fc.constant(80))
  .map((p) => String(p).padStart(2, '0'));

describe('abaValid', () => {
  it.each(kValid)('accepts %s', (v) => {
    expect(abaValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it.each(kValid)('rejects every one-digit change of %s', (v) => {
    // Weights 3, 7 and 1 are all coprime to 10, so any single-digit change breaks the checksum.
    for (let i = 0; i < v.length; i++) for (const c of digitChanges(v, i)) expect(abaValid(c), c).toBe(false);
  });

  it('agrees with the column-sum implementation on random nine-digit strings', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9]{9}$/), (s) => {
      expect(abaValid(s), s).toBe(reference(s));
    }), { numRuns: 5000 });
    // Random strings pass the checksum one time in ten; these all do.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{8}$/), (s) => {
        const v = complete(s);
        expect(abaValid(v), v).toBe(reference(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects single-digit changes and adjacent transpositions but those of digits five apart', () => {
    fc.assert(
      fc.property(kAssignedPrefix, fc.stringMatching(/^[0-9]{6}$/), fc.nat(8), (prefix, rest, at) => {
        const valid = complete(`${prefix}${rest}`);
        fc.pre(valid !== '000000000');
        expect(abaValid(valid), valid).toBe(true);
        for (const c of digitChanges(valid, at)) expect(abaValid(c), c).toBe(false);
        // Neighbouring weights differ by 4, 6 or 2: a swap is seen unless the digits differ by 5.
        const i = Math.min(at, 7);
        const swapped = swapAt(valid, i);
        if (swapped !== null) expect(abaValid(swapped), swapped).toBe(Math.abs(Number(valid[i]) - Number(valid[i + 1])) === 5 && reference(swapped));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    // 3·5 + 1·5 = 20 and 3·9 + 1·3 = 30: the checksum holds but 50 and 90 are not assigned prefixes.
    ['500000005', 'prefix 50 unassigned'],
    ['900000003', 'prefix 90 unassigned'],
    // 3·1 + 7·3 + 1·6 = 30: prefix 13 sits in the gap between 12 and 21.
    ['136000000', 'prefix 13 unassigned'],
    ['02100002', 'eight digits'],
    ['0210000210', 'ten digits'],
    ['0210-0002-1', 'separators are the caller’s job'],
    ['02100002a', 'a letter'],
    ['000000000', 'all zeros (checksum 0, prefix 00, but no institution)'],
  ])('rejects %s (%s)', (v) => {
    expect(abaValid(v)).toBe(false);
  });

  it('accepts the assigned prefixes 00, 12, 21, 32, 61, 72 and 80 when the checksum holds', () => {
    for (const p of ['00', '12', '21', '32', '61', '72', '80']) expect(abaValid(complete(`${p}100000`)), p).toBe(true);
    for (const p of ['13', '20', '33', '60', '73', '79', '81', '99']) expect(abaValid(complete(`${p}100000`)), p).toBe(false);
  });
});
