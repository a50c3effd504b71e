/**
 * A piece of decoded text with, for every UTF-16 code unit, the absolute byte offset (in the decoded
 * body) of the first byte that produced it. `offsets` has one more entry than `text`: the byte offset
 * just past the segment, so a span [s, e) of text maps to bytes [offsets[s], offsets[e]).
 *
 * Offsets are kept per code unit rather than as piecewise runs: it costs 4 bytes per character of a
 * body capped at 1 MB, and keeps every stage (UTF-8, escapes) a straight loop with no search.
 */
export interface Segment {
  readonly text: string;
  /** Per code unit, then one past the end; `null` when linear (one byte per code unit from `base`). */
  readonly offsets: Int32Array | null;
  /** Byte offset of the segment's first code unit (of its end, when the text is empty). */
  readonly base: number;
}

/** The byte offset of code unit `i` of `seg` (`i` = its length gives the end). */
export function offsetAt(seg: Segment, i: number): number {
  return seg.offsets === null ? seg.base + i : seg.offsets[i]!;
}

/** Writes the byte offsets of code units [from, to) of `seg` into `into` from index `at`. */
export function copyOffsets(seg: Segment, from: number, to: number, into: Int32Array, at: number): void {
  if (seg.offsets !== null) into.set(seg.offsets.subarray(from, to), at);
  else for (let i = from; i < to; i++) into[at + i - from] = seg.base + i;
}

/**
 * Offset arrays handed back by scans that ended, for the next scans of this thread. A scan used to
 * grow a fresh set (decoders' and matcher's, doubling from 1,024 entries): 97 MB of zero-filled
 * arrays per pass over the pool bench's 12 MB batch corpus, and their allocation, zeroing and freeing
 * (the last on V8's helper threads) cost about as much CPU as the decoding itself. Bounded: a few
 * arrays, none over 4 MiB.
 */
const kSpareArrays = 6;
const kSpareMin = 1024;
const kSpareMax = 1 << 20;
const spare: Int32Array[] = [];
const kNoOffsets = new Int32Array(0);

/** A whole Int32Array of at least `n` entries, contents unspecified: the shortest spare that fits, or a new one. */
export function takeOffsetArray(n: number): Int32Array {
  let best = -1;
  for (let i = 0; i < spare.length; i++) {
    const len = spare[i]!.length;
    if (len >= n && (best < 0 || len < spare[best]!.length)) best = i;
  }
  if (best < 0) return new Int32Array(n);
  const b = spare[best]!;
  spare[best] = spare[spare.length - 1]!;
  spare.pop();
  return b;
}

/**
 * Hands back an array from `takeOffsetArray` (whole, not a view) that its owner will not touch again;
 * kept when there is room, or in place of a shorter spare.
 */
export function giveOffsetArray(b: Int32Array): void {
  if (b.length < kSpareMin || b.length > kSpareMax || b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength || spare.includes(b)) return;
  if (spare.length < kSpareArrays) {
    spare.push(b);
    return;
  }
  let min = 0;
  for (let i = 1; i < spare.length; i++) if (spare[i]!.length < spare[min]!.length) min = i;
  if (spare[min]!.length < b.length) spare[min] = b;
}

/**
 * A growable Int32Array a stage reuses for the offsets of the segment it returns. Such a segment is
 * valid until the stage's next call: every consumer copies what it keeps (the matcher copies offsets
 * into its own buffer, the escape stage slices what it carries over). Saves a fresh array of four
 * bytes per character per stage per chunk, which kept the garbage collector busy on large bodies.
 * `release()` at the end of a scan hands the array to the next scan of the thread.
 */
export class OffsetBuffer {
  #buf: Int32Array<ArrayBufferLike> = kNoOffsets;

  /** A view of `n` entries (contents unspecified); the previous view is invalid from here on. */
  take(n: number): Int32Array {
    if (this.#buf.length < n) {
      const next = takeOffsetArray(Math.max(n, this.#buf.length * 2, kSpareMin));
      giveOffsetArray(this.#buf);
      this.#buf = next;
    }
    return this.#buf.subarray(0, n);
  }

  /** Adopts a larger array a builder had to grow into, so the next call starts at that size. */
  adopt(buf: Int32Array): void {
    if (buf.buffer.byteLength > this.#buf.buffer.byteLength) {
      // The builder copied what it needed from the old array (its first view) before growing.
      giveOffsetArray(this.#buf);
      this.#buf = new Int32Array(buf.buffer);
    }
  }

  /** The stage is done (its last segment consumed): the array goes to the thread's spares. */
  release(): void {
    giveOffsetArray(this.#buf);
    this.#buf = kNoOffsets;
  }
}

/**
 * Builds a segment from slices of an input segment and single replacement characters, for the
 * escape-decoding stages. Grows geometrically; one instance per call.
 */
export class SegmentBuilder {
  #parts: string[] = [];
  #off: Int32Array;
  #n = 0;

  readonly #reuse: OffsetBuffer | undefined;

  constructor(capacityHint: number, reuse?: OffsetBuffer) {
    this.#reuse = reuse;
    this.#off = reuse ? reuse.take(Math.max(16, capacityHint + 1)) : new Int32Array(Math.max(16, capacityHint + 1));
  }

  #reserve(extra: number): void {
    if (this.#n + extra + 1 <= this.#off.length) return;
    let cap = this.#off.length * 2;
    while (cap < this.#n + extra + 1) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.#off.subarray(0, this.#n));
    this.#off = next;
    this.#reuse?.adopt(next);
  }

  /** Copies `src.text[from, to)` with its offsets. */
  copy(src: Segment, from: number, to: number): void {
    if (to <= from) return;
    this.#reserve(to - from);
    this.#parts.push(src.text.slice(from, to));
    copyOffsets(src, from, to, this.#off, this.#n);
    this.#n += to - from;
  }

  /** Appends decoded text (one or two code units) that came from bytes starting at `byteOffset`. */
  emit(chars: string, byteOffset: number): void {
    this.#reserve(chars.length);
    this.#parts.push(chars);
    for (let i = 0; i < chars.length; i++) this.#off[this.#n++] = byteOffset;
  }

  finish(endOffset: number): Segment {
    this.#off[this.#n] = endOffset;
    return { text: this.#parts.join(''), offsets: this.#off.subarray(0, this.#n + 1), base: this.#off[0]! };
  }
}
