import { describe, expect, it } from 'vitest';
import { abaValid } from '../../src/validators/aba.js';

// Published routing numbers of large institutions (printed on their own websites and in the Federal
// Reserve's E-Payments Routing Directory): Federal Reserve Bank of Boston, JPMorgan Chase (NY, IL, CA),
// Bank of America (NY, CA), Wells Fargo (AZ).
const kValid = ['011000015', '021000021', '071000013', '322271627', '026009593', '121000358', '122105155'];

describe('abaValid', () => {
  it.each(kValid)('accepts %s', (v) => {
    expect(abaValid(v)).toBe(true);
  });

  it.each(kValid)('rejects every one-digit change of %s', (v) => {
    // Weights 3, 7 and 1 are all coprime to 10, so any single-digit change breaks the checksum.
    for (let i = 0; i < v.length; i++) {
      const changed = v.slice(0, i) + String((Number(v[i]) + 1) % 10) + v.slice(i + 1);
      expect(abaValid(changed), changed).toBe(false);
    }
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
    // Prefix, then "100000", then the digit d9 that makes 3·d1 + 7·d2 + 1·1 + d9 ≡ 0 (mod 10).
    const withCheck = (p: string) => {
      const partial = 3 * Number(p[0]) + 7 * Number(p[1]) + 1;
      const last = (10 - (partial % 10)) % 10;
      return `${p}100000${last}`;
    };
    for (const p of ['00', '12', '21', '32', '61', '72', '80']) expect(abaValid(withCheck(p)), p).toBe(true);
    for (const p of ['13', '20', '33', '60', '73', '79', '81', '99']) expect(abaValid(withCheck(p)), p).toBe(false);
  });
});
