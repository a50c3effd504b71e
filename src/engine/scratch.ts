/**
 * Scratch arrays handed back by scans that ended, for the next scans of the same thread.
 *
 * A scan grows a few arrays as it goes (the decoders' and the matcher's offsets, the matcher's column
 * bytes), doubling from a small size. Fresh ones per scan cost 97 MB of zero-filled offsets per pass
 * over the pool bench's 12 MB batch corpus (and a new byte buffer per growth step), and their
 * allocation, zeroing and freeing (the last on V8's helper threads) cost about as much CPU as decoding
 * the text. Each list is bounded: a few arrays, none over 4 MiB.
 *
 * The rule that keeps this safe: an owner gives an array back only when it will not read or write it
 * again (it drops its reference in the same step), and never gives a view.
 */

/** Typed arrays of one kind, by length. */
export class SpareArrays<T extends Int32Array | Uint8Array | Float64Array> {
  readonly #spare: T[] = [];

  constructor(
    readonly make: (n: number) => T,
    /** Arrays shorter than this are not kept (cheap to make). */
    readonly minLength: number,
    /** Nor longer than this (their memory would stay with the thread). */
    readonly maxLength: number,
    /** At most this many. */
    readonly count: number,
  ) {}

  /** A whole array of at least `n` elements, contents unspecified: the shortest spare that fits, or a new one. */
  take(n: number): T {
    const spare = this.#spare;
    let best = -1;
    for (let i = 0; i < spare.length; i++) {
      const len = spare[i]!.length;
      if (len >= n && (best < 0 || len < spare[best]!.length)) best = i;
    }
    if (best < 0) return this.make(n);
    const b = spare[best]!;
    spare[best] = spare[spare.length - 1]!;
    spare.pop();
    return b;
  }

  /**
   * Hands back an array from `take` that its owner will not touch again: kept when there is room, or
   * in place of a shorter spare. Views, arrays out of bounds and one already kept are ignored.
   */
  give(b: T): void {
    const spare = this.#spare;
    if (b.length < this.minLength || b.length > this.maxLength) return;
    if (b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength || spare.includes(b)) return;
    if (spare.length < this.count) {
      spare.push(b);
      return;
    }
    let min = 0;
    for (let i = 1; i < spare.length; i++) if (spare[i]!.length < spare[min]!.length) min = i;
    if (spare[min]!.length < b.length) spare[min] = b;
  }
}

/** Per-character byte offsets (decoders, matcher). */
export const spareOffsets = new SpareArrays<Int32Array>((n) => new Int32Array(n), 1024, 1 << 20, 6);

/** Column bytes (matcher): Buffers of their own (not slices of Node's pool), not zero-filled. */
export const spareBytes = new SpareArrays<Buffer>((n) => Buffer.allocUnsafeSlow(n), 4096, 4 << 20, 3);

/**
 * The matcher's per-rule, per-screen and per-gate state (a few hundred numbers): small, but made per
 * scan they were, with the native pass's state, about half of a tiny body's cost.
 */
export const spareStateBlocks = new SpareArrays<Float64Array>((n) => new Float64Array(n), 1, 1 << 16, 4);
