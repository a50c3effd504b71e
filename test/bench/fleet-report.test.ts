import { describe, expect, it } from 'vitest';
import { percentile } from '../../bench/fleet-report.js';

// Nearest-rank percentiles (the smallest value with at least q of the samples at or below it), as
// NIST's engineering handbook defines them; the fleet phase's latency p50 and p99 use them.
describe('fleet bench percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted on purpose

  it('gives the nearest rank of 1..100', () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('rounds a rank up, never interpolates', () => {
    expect(percentile([10, 20, 30], 0.5)).toBe(20);
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(20);
    expect(percentile([10, 20, 30, 40], 0.51)).toBe(30);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('has no value for no samples and leaves its input alone', () => {
    expect(percentile([], 0.5)).toBeNaN();
    const xs = [3, 1, 2];
    percentile(xs, 0.5);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('is monotone in q', () => {
    const xs = [5, 1, 9, 3, 3, 8, 2, 7];
    let last = -Infinity;
    for (let q = 0; q <= 1; q += 0.05) {
      const p = percentile(xs, q);
      expect(p).toBeGreaterThanOrEqual(last);
      expect(xs).toContain(p);
      last = p;
    }
  });
});
