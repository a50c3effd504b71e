/**
 * The spike detector of Cloudflare's WAF alerts ("Alert logic" in its WAF docs): events are counted
 * per zone in five-minute buckets; a bucket is a spike when its count is at least 200 and its z-score
 * against the previous six hours of buckets is above 3.5. Thresholds are options so tests can use
 * small ones. Duplicate suppression (two hours) belongs to the caller, per policy and zone.
 */

export interface DetectorOptions {
  /** Bucket length in ms. Default 5 minutes. */
  bucketMs?: number;
  /** Buckets before the current one that form the baseline. Default 72 (six hours of 5-minute buckets). */
  windowBuckets?: number;
  /** A spike needs a z-score strictly above this. Default 3.5. */
  zThreshold?: number;
  /** …and at least this many events in its bucket. Default 200. */
  minEvents?: number;
}

export const kDetectorDefaults = { bucketMs: 5 * 60_000, windowBuckets: 72, zThreshold: 3.5, minEvents: 200 } as const;

/** One zone's bucket that crossed both thresholds. Counts and rule ids only: never an event's values. */
export interface Spike {
  zone: string;
  /** Bucket start and end, ms since the epoch. */
  start: number;
  end: number;
  events: number;
  /** Events per managed rule id in the bucket. */
  rules: Record<string, number>;
  baselineMean: number;
  baselineStddev: number;
  /** null when the baseline is flat (standard deviation 0): any rise above it is infinitely many deviations. */
  zScore: number | null;
}

interface Bucket {
  total: number;
  rules: Record<string, number>;
}

/** Persisted detector state: per zone, bucket index → counts. */
export type DetectorState = Record<string, Record<string, Bucket>>;

/**
 * Counts events per zone and bucket and says when the bucket just added to is a spike.
 * @example
 * const d = new SpikeDetector({ minEvents: 200 });
 * const spike = d.add(zone, Date.now(), [{ ruleId: 'card-visa' }]);   // null or a Spike
 */
export class SpikeDetector {
  readonly options: Required<DetectorOptions>;
  readonly #zones = new Map<string, Map<number, Bucket>>();

  constructor(options: DetectorOptions = {}, state?: DetectorState) {
    this.options = { ...kDetectorDefaults, ...options };
    for (const [zone, buckets] of Object.entries(state ?? {})) {
      this.#zones.set(zone, new Map(Object.entries(buckets).map(([k, b]) => [Number(k), { total: b.total, rules: { ...b.rules } }])));
    }
  }

  /** Adds events of `zone` seen at `timeMs`; returns the spike when their bucket now is one. */
  add(zone: string, timeMs: number, events: readonly { ruleId: string }[]): Spike | null {
    if (events.length === 0) return null;
    const { bucketMs, windowBuckets } = this.options;
    const index = Math.floor(timeMs / bucketMs);
    let buckets = this.#zones.get(zone);
    if (buckets === undefined) this.#zones.set(zone, (buckets = new Map()));
    const newest = Math.max(index, ...buckets.keys());
    // An event older than the window counts for nothing that can still alert.
    if (index < newest - windowBuckets) return null;
    for (const k of buckets.keys()) if (k < newest - windowBuckets) buckets.delete(k);
    let b = buckets.get(index);
    if (b === undefined) buckets.set(index, (b = { total: 0, rules: {} }));
    b.total += events.length;
    for (const e of events) b.rules[e.ruleId] = (b.rules[e.ruleId] ?? 0) + 1;
    return this.#evaluate(zone, buckets, index, b);
  }

  #evaluate(zone: string, buckets: Map<number, Bucket>, index: number, b: Bucket): Spike | null {
    const { bucketMs, windowBuckets, zThreshold, minEvents } = this.options;
    if (b.total < minEvents) return null;
    // Baseline: the window's buckets before this one, an empty bucket counting 0.
    let sum = 0;
    let squares = 0;
    for (let k = index - windowBuckets; k < index; k++) {
      const x = buckets.get(k)?.total ?? 0;
      sum += x;
      squares += x * x;
    }
    const mean = sum / windowBuckets;
    const stddev = Math.sqrt(Math.max(0, squares / windowBuckets - mean * mean));
    const z = stddev === 0 ? null : (b.total - mean) / stddev;
    const spike = z === null ? b.total > mean : z > zThreshold;
    if (!spike) return null;
    return { zone, start: index * bucketMs, end: (index + 1) * bucketMs, events: b.total, rules: { ...b.rules }, baselineMean: mean, baselineStddev: stddev, zScore: z };
  }

  /** The counts to persist (only buckets still inside a window). */
  state(): DetectorState {
    const out: DetectorState = {};
    for (const [zone, buckets] of this.#zones) out[zone] = Object.fromEntries([...buckets].map(([k, b]) => [String(k), b]));
    return out;
  }
}
