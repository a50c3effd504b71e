import { describe, expect, it } from 'vitest';
import { SpikeDetector } from '../../src/alerts/index.js';

// Cloudflare's WAF alert logic with its defaults: 5-minute buckets, 72 of them as the baseline,
// z > 3.5 and at least 200 events in the bucket.
const Z = 'e'.repeat(32);
const kBucket = 5 * 60_000;
const t0 = Date.UTC(2026, 4, 1, 0, 0, 0);
const events = (n: number, ruleId = 'card-visa'): { ruleId: string }[] => Array.from({ length: n }, () => ({ ruleId }));

/** A detector fed `baseline[i]` events in bucket i, then asked about `last` events in the next bucket. */
function after(baseline: number[], last: number): ReturnType<SpikeDetector['add']> {
  const d = new SpikeDetector();
  baseline.forEach((n, i) => d.add(Z, t0 + i * kBucket, events(n)));
  return d.add(Z, t0 + baseline.length * kBucket, events(last));
}

describe('SpikeDetector', () => {
  const noisy = (mean: number, spread: number): number[] => Array.from({ length: 72 }, (_, i) => mean + ((i * 5) % (2 * spread + 1)) - spread);

  it('alerts on a bucket far above a quiet baseline, with at least 200 events', () => {
    const spike = after(noisy(10, 3), 250);
    expect(spike).toMatchObject({ zone: Z, events: 250, start: t0 + 72 * kBucket, end: t0 + 73 * kBucket, rules: { 'card-visa': 250 } });
    expect(spike!.zScore).toBeGreaterThan(3.5);
    expect(spike!.baselineMean).toBeCloseTo(10, 0);
  });

  it('does not alert below 200 events, however high the z-score', () => {
    expect(after(noisy(10, 3), 199)).toBeNull();
  });

  it('does not alert at 200 events or more when they are usual (z ≤ 3.5)', () => {
    expect(after(noisy(300, 20), 320)).toBeNull();
  });

  it('alerts above a flat baseline (no deviation), reporting no z-score', () => {
    expect(after([], 200)).toMatchObject({ events: 200, zScore: null, baselineMean: 0 });
    expect(after(Array.from({ length: 72 }, () => 250), 250)).toBeNull();
  });

  it('ignores events older than the window and keeps its counts across a restart', () => {
    const d = new SpikeDetector({ minEvents: 5 });
    d.add(Z, t0 + 100 * kBucket, events(1));
    expect(d.add(Z, t0, events(50))).toBeNull();
    const again = new SpikeDetector({ minEvents: 5 }, JSON.parse(JSON.stringify(d.state())));
    expect(again.add(Z, t0 + 100 * kBucket, events(5))).toMatchObject({ events: 6 });
  });
});
