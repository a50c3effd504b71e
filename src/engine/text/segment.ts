import { spareOffsets } from '../scratch.js';

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
  /**
   * When the stage that made it knows them for free: the indices of the text's non-ASCII code units,
   * ascending (empty for ASCII text), valid as long as `offsets`. The UTF-8 decoder's segments carry
   * them; a stage that changes the text drops them, and the matcher then searches the text.
   */
  readonly nonAscii?: ArrayLike<number>;
}

/** The byte offset of code unit `i` of `seg` (`i` = its length gives the end). */
export function offsetAt(seg: Segment, i: number): number {
  return seg.offsets === null ? seg.base + i : seg.offsets[i]!;
}

/** Writes the byte offsets of code units [from, to) of `seg` into `into` from index `at`. */
export function copyOffsets(seg: Segment, from: number, to: number, into: Int32Array, at: number): void {
  if (seg.offsets !== null) {
    into.set(seg.offsets.subarray(from, to), at);
    return;
  }
  // Linear: index j of `into` gets j + (base + from - at). Counted on the target's index alone (no
  // property read in the loop): a log's `\u` escapes turn each whole chunk's implied offsets into an
  // array, and the loop that read `seg.base` at every unit was most of the escape stage there.
  const d = seg.base + from - at;
  for (let j = at, end = at + to - from; j < end; j++) into[j] = j + d;
}

/** An empty index array: the non-ASCII units of ASCII text, an OffsetBuffer that holds nothing. */
export const kNoIndices = new Int32Array(0);

/**
 * A growable Int32Array a stage reuses for the offsets of the segment it returns. Such a segment is
 * valid until the stage's next call: every consumer copies what it keeps (the matcher copies offsets
 * into its own buffer, the escape stage slices what it carries over). Saves a fresh array of four
 * bytes per character per stage per chunk, which kept the garbage collector busy on large bodies.
 * `release()` at the end of a scan hands the array to the next scan of the thread (scratch.ts).
 */
export class OffsetBuffer {
  #buf: Int32Array<ArrayBufferLike> = kNoIndices;

  /** A view of `n` entries (contents unspecified); the previous view is invalid from here on. */
  take(n: number): Int32Array {
    if (this.#buf.length < n) {
      const next = spareOffsets.take(Math.max(n, this.#buf.length * 2, spareOffsets.minLength));
      spareOffsets.give(this.#buf);
      this.#buf = next;
    }
    return this.#buf.subarray(0, n);
  }

  /** Adopts a larger array a builder had to grow into, so the next call starts at that size. */
  adopt(buf: Int32Array): void {
    if (buf.buffer.byteLength > this.#buf.buffer.byteLength) {
      // The builder copied what it needed from the old array (its first view) before growing.
      spareOffsets.give(this.#buf);
      this.#buf = new Int32Array(buf.buffer);
    }
  }

  /** The stage is done (its last segment consumed): the array goes to the thread's spares. */
  release(): void {
    spareOffsets.give(this.#buf);
    this.#buf = kNoIndices;
  }
}

/**
 * Builds a segment from slices of an input segment and single replacement characters, for the
 * escape-decoding stages. Grows geometrically; one instance per call. Given the input's offsets
 * (`inPlace`, which the caller gives up), it writes the output's over them: an escape is never shorter
 * than what it decodes to, so each piece moves left within the array (no view made per piece, no
 * second array).
 */
export class SegmentBuilder {
  #parts: string[] = [];
  #off: Int32Array;
  #n = 0;
  /** The output's non-ASCII units while every input segment copied so far said where its are; else null. */
  #wide: number[] | null = [];
  /** The input segment being copied from, and the index in its `nonAscii` past what was copied. */
  #src: Segment | null = null;
  #srcWide = 0;

  readonly #reuse: OffsetBuffer | undefined;

  constructor(capacityHint: number, reuse?: OffsetBuffer, inPlace?: Int32Array | null) {
    this.#reuse = reuse;
    if (inPlace != null) this.#off = inPlace;
    else this.#off = reuse ? reuse.take(Math.max(16, capacityHint + 1)) : new Int32Array(Math.max(16, capacityHint + 1));
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

  /** Copies `src.text[from, to)` with its offsets (and its non-ASCII units, when known). */
  copy(src: Segment, from: number, to: number): void {
    if (to <= from) return;
    this.#reserve(to - from);
    this.#parts.push(src.text.slice(from, to));
    if (src.offsets !== this.#off) copyOffsets(src, from, to, this.#off, this.#n);
    else if (from !== this.#n) this.#off.copyWithin(this.#n, from, to);
    const out = this.#wide;
    if (out !== null) {
      const wide = src.nonAscii;
      if (wide === undefined) {
        this.#wide = null;
      } else {
        // Copies from one segment go left to right: carry on from where the last one stopped.
        let k = src === this.#src ? this.#srcWide : 0;
        while (k < wide.length && wide[k]! < from) k++;
        for (; k < wide.length && wide[k]! < to; k++) out.push(this.#n + wide[k]! - from);
        this.#src = src;
        this.#srcWide = k;
      }
    }
    this.#n += to - from;
  }

  /** Appends decoded text (one or two code units) that came from bytes starting at `byteOffset`. */
  emit(chars: string, byteOffset: number): void {
    this.#reserve(chars.length);
    this.#parts.push(chars);
    for (let i = 0; i < chars.length; i++) {
      if (chars.charCodeAt(i) >= 0x80) this.#wide?.push(this.#n);
      this.#off[this.#n++] = byteOffset;
    }
  }

  finish(endOffset: number): Segment {
    this.#off[this.#n] = endOffset;
    const text = this.#parts.join('');
    const offsets = this.#off.subarray(0, this.#n + 1);
    return this.#wide === null ? { text, offsets, base: this.#off[0]! } : { text, offsets, base: this.#off[0]!, nonAscii: this.#wide };
  }
}
