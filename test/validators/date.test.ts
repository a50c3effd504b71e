import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';

describe('isValidDate', () => {
  it.each([
    [2000, 2, 29], // divisible by 400: leap
    [2024, 2, 29],
    [1999, 12, 31],
    [1988, 4, 30],
    [1900, 1, 1],
  ])('accepts %i-%i-%i', (y, m, d) => expect(isValidDate(y, m, d)).toBe(true));
  it.each([
    [1900, 2, 29], // divisible by 100 but not 400: not leap
    [2023, 2, 29],
    [1988, 4, 31],
    [1988, 13, 1],
    [1988, 0, 10],
    [1988, 1, 0],
    [1988, 1, 32],
    [1988.5, 1, 1],
  ])('rejects %d-%d-%d', (y, m, d) => expect(isValidDate(y, m, d)).toBe(false));

  it('agrees with the platform calendar (Date.UTC round trip) on random dates of 1600-2400', () => {
    // A second implementation: a date exists when Date.UTC does not roll it over into the next month.
    const reference = (y: number, m: number, d: number): boolean => {
      if (m < 1 || m > 12 || d < 1) return false;
      const t = new Date(Date.UTC(2000, m - 1, d));
      t.setUTCFullYear(y);
      return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
    };
    fc.assert(
      fc.property(fc.integer({ min: 1600, max: 2400 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        expect(isValidDate(y, m, d), `${y}-${m}-${d}`).toBe(reference(y, m, d));
      }),
      { numRuns: 5000 },
    );
  });
});
