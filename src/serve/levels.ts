/**
 * The service's scanner, at the confidence its zones need. It starts at the scanner's default (`high`,
 * what a zone without `sensitivity_level` keeps), so a service whose zones never lower a threshold
 * scans exactly as before. The first response of a zone that keeps findings below `high` makes it
 * build a pool at `low` and move to it; the `high` pool is closed once its scans in flight have
 * finished. It never moves back (until the service restarts): zones change while it runs, and one swap
 * is cheaper than following them. `low` rather than the level asked for, so a later `low` zone does not
 * swap a second time; each zone then keeps its own findings by `keepsFinding`.
 *
 * Scanning at `low` costs more: on 300-file slices of the generated corpus with every rule, about
 * 10-40% longer than at `high` (docs/serve.md, "Confidence per zone").
 */
import { reaches, type Confidence } from '../rules/index.js';
import { handOverQueue } from '../pool/index.js';
import type { BodySource, BodyStream, Finding, ScanMeta, ScanReport, Scanner } from '../types.js';

export class LevelledScanner implements Scanner {
  #current: Scanner;
  #level: Confidence;
  readonly #make: (level: Confidence) => Promise<Scanner>;
  #lowering: Promise<void> | null = null;
  readonly #retired: Promise<void>[] = [];

  /** `first` reports `level` and above; `make` builds a scanner that reports a lower level. */
  constructor(first: Scanner, level: Confidence, make: (level: Confidence) => Promise<Scanner>) {
    this.#current = first;
    this.#level = level;
    this.#make = make;
  }

  /** The scanner bodies go to now (the service's body queue feeds its pool). */
  get current(): Scanner {
    return this.#current;
  }

  /** The lowest confidence the scanner reports now. */
  get level(): Confidence {
    return this.#level;
  }

  /**
   * Resolves once the scanner reports `level` and above: at once when it already does, else when the
   * `low` pool has replaced the current one (one build, however many callers wait). Rejects when that
   * build fails; the scanner then stays where it was, and the next call tries again.
   */
  reach(level: Confidence): Promise<void> {
    if (reaches(level, this.#level)) return Promise.resolve();
    this.#lowering ??= this.#make('low').then(
      (next) => {
        const old = this.#current;
        this.#current = next;
        this.#level = 'low';
        this.#lowering = null;
        // The body queue's bodies still waiting move to the new pool (the queue outlives the swap);
        // scans already handed to the old pool's workers finish there: a pool's close() waits for them.
        handOverQueue(old, next);
        this.#retired.push(old.close());
      },
      (err: unknown) => {
        this.#lowering = null;
        throw err;
      },
    );
    return this.#lowering;
  }

  analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    return this.#current.analyze(body, meta);
  }

  analyzeStream(body: BodyStream, meta?: ScanMeta): Promise<ScanReport> {
    return this.#current.analyzeStream(body, meta);
  }

  scan(body: BodySource, meta?: ScanMeta): Promise<Finding[]> {
    return this.#current.scan(body, meta);
  }

  scanStream(body: BodyStream, meta?: ScanMeta): Promise<Finding[]> {
    return this.#current.scanStream(body, meta);
  }

  async close(): Promise<void> {
    await this.#lowering?.catch(() => undefined);
    await Promise.all([this.#current.close(), ...this.#retired]);
  }
}
