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
});
