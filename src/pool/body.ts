/**
 * Main-thread side of a pooled scan: turns a body (string, bytes or stream) into the bytes a worker
 * needs, in one buffer of the scanner's own shared with the worker (or the caller's, moved on request),
 * plus the counts of what was only received. Memory per body is bounded by `bodyPlan` whatever the
 * body's length.
 */
import type { BodySource, BodyStream, ScanMeta } from '../types.js';
import { bodyPlan, type TailMode } from './protocol.js';
import { iterateBody } from '../engine/index.js';

export interface GatheredBody {
  bytes: Uint8Array;
  cuts: Uint32Array | null;
  tail: number;
  tailMode: TailMode;
  error: string | null;
  /**
   * The caller's own buffer, when it asked for it to be moved (`transferBodies`); null when the bytes
   * are the scanner's copy (shared memory, see `SharedBytes`), kept until the scan settles.
   */
  moved: ArrayBuffer | null;
}

const encoder = new TextEncoder();

/**
 * The scanner's buffers for bodies, shared with the workers: a task carries one without a copy (a
 * SharedArrayBuffer is shared by postMessage, not cloned), and the calling thread still holds it if the
 * body must be sent again. Sizes are whole 64 KiB units, and a buffer whose scan settled is kept for
 * the next body of its size, up to `kKeptBytes` per scanner: allocating one cost the calling thread
 * about 30 µs a body (a tenth of its time on the bench's batch corpus), and each dead one left the
 * workers' collector a buffer to sweep.
 */
export class SharedBytes {
  readonly #free = new Map<number, SharedArrayBuffer[]>();
  #kept = 0;

  /** A view of `size` bytes at the start of a buffer of the scanner's own (old bytes past `size`). */
  take(size: number): Uint8Array {
    const units = Math.max(1, Math.ceil(size / kUnit));
    const sab = this.#free.get(units)?.pop();
    if (sab === undefined) return new Uint8Array(new SharedArrayBuffer(units * kUnit), 0, size);
    this.#kept -= sab.byteLength;
    return new Uint8Array(sab, 0, size);
  }

  /** The buffer under `view`, once no worker reads it any more, for a later body. */
  give(view: Uint8Array): void {
    const sab = view.buffer;
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength % kUnit !== 0 || this.#kept + sab.byteLength > kKeptBytes) return;
    const units = sab.byteLength / kUnit;
    let list = this.#free.get(units);
    if (list === undefined) this.#free.set(units, (list = []));
    list.push(sab);
    this.#kept += sab.byteLength;
  }

  /** Bytes kept for reuse. */
  get kept(): number {
    return this.#kept;
  }
}

const kUnit = 64 * 1024;
/** Buffers kept for reuse per scanner, at most (a round of the batch corpus holds 12 MB). */
export const kKeptBytes = 16 * 1024 * 1024;

/** True when `view` is the only user of a plain (non-shared, non-pooled) ArrayBuffer. */
function ownsBuffer(view: Uint8Array): boolean {
  return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}

/**
 * One in-memory body. A string is UTF-8 encoded once, and only as far as the plan keeps (its full
 * length is measured without encoding). A Uint8Array is copied up to the plan's bound (the caller keeps
 * a usable array, and Node's pooled Buffers cannot be moved) unless `moveBytes` is set and the array
 * owns its whole ArrayBuffer: then that buffer is moved and the caller's array is detached.
 */
export function gatherBody(body: BodySource, meta: ScanMeta | undefined, maxBytes: number, moveBytes: boolean, shared: SharedBytes): GatheredBody {
  const { keep, tailMode } = bodyPlan(meta, maxBytes);
  if (typeof body === 'string') {
    const total = Buffer.byteLength(body, 'utf8');
    const want = Math.min(total, keep);
    // encodeInto writes whole characters only: 3 spare bytes hold the one that straddles `want`, so
    // the kept bytes are exactly the first `want` bytes of the full encoding (as Buffer.from gives).
    const dest = shared.take(want === total ? total : want + 3);
    const { written } = encoder.encodeInto(body, dest);
    const bytes = dest.subarray(0, Math.min(written, want));
    return { bytes, cuts: null, tail: total - bytes.length, tailMode, error: null, moved: null };
  }
  const want = Math.min(body.length, keep);
  if (moveBytes && ownsBuffer(body)) {
    return { bytes: body.subarray(0, want), cuts: null, tail: body.length - want, tailMode, error: null, moved: body.buffer as ArrayBuffer };
  }
  const copy = shared.take(want);
  copy.set(body.subarray(0, want));
  return { bytes: copy, cuts: null, tail: body.length - want, tailMode, error: null, moved: null };
}

/**
 * A body captured in chunks (the proxy's tap), copied straight into one shared buffer at each chunk's
 * offset: the same bytes, tail and single cut as `gatherBody` on the chunks joined, without joining
 * them first (a second copy of every queued body). The chunks may be let go once it returns.
 */
export function gatherChunks(chunks: readonly Uint8Array[], meta: ScanMeta | undefined, maxBytes: number, shared: SharedBytes): GatheredBody {
  const { keep, tailMode } = bodyPlan(meta, maxBytes);
  let total = 0;
  for (const c of chunks) total += c.length;
  const want = Math.min(total, keep);
  const copy = shared.take(want);
  let at = 0;
  for (const c of chunks) {
    if (at >= want) break;
    const n = Math.min(c.length, want - at);
    copy.set(n === c.length ? c : c.subarray(0, n), at);
    at += n;
  }
  return { bytes: copy, cuts: null, tail: total - want, tailMode, error: null, moved: null };
}

/** Appends into one growing buffer (`SharedBytes`, doubling): the kept bytes end up in one, at most twice their length. */
class ByteSink {
  #buf: Uint8Array = new Uint8Array(0);
  #len = 0;
  readonly #limit: number;
  readonly #shared: SharedBytes;

  constructor(limit: number, shared: SharedBytes) {
    this.#limit = limit;
    this.#shared = shared;
  }

  get length(): number {
    return this.#len;
  }

  /** Copies as much of `chunk` as fits under the limit; returns how many bytes were taken. */
  append(chunk: Uint8Array): number {
    const n = Math.min(chunk.length, this.#limit - this.#len);
    if (n <= 0) return 0;
    if (this.#len + n > this.#buf.length) {
      const size = Math.min(this.#limit, Math.max(this.#len + n, 2 * this.#buf.length, 16 * 1024));
      const next = this.#shared.take(size);
      next.set(this.#buf.subarray(0, this.#len));
      // The old buffer never reached a worker.
      if (this.#buf.length > 0) this.#shared.give(this.#buf);
      this.#buf = next;
    }
    this.#buf.set(n === chunk.length ? chunk : chunk.subarray(0, n), this.#len);
    this.#len += n;
    return n;
  }

  take(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }
}

/**
 * Reads a whole stream in the main thread. Keeps the plan's bound of bytes (copied at arrival, so the
 * producer may reuse its chunks) with the chunk boundaries, counts the rest, and records a source
 * failure instead of throwing: the engine turns it into the same notice in the worker.
 */
export async function gatherStream(body: BodyStream | Iterable<Uint8Array>, meta: ScanMeta | undefined, maxBytes: number, shared: SharedBytes): Promise<GatheredBody> {
  const { keep, tailMode } = bodyPlan(meta, maxBytes);
  const sink = new ByteSink(keep, shared);
  const cuts: number[] = [];
  let tail = 0;
  let error: string | null = null;
  try {
    for await (const chunk of iterateBody(body)) {
      // Chunks are kept whole until the bound; the one crossing it is cut (the engine scans no byte
      // past the cap, or never decompresses input past the bound in a real encoding), later ones counted.
      if (sink.length < keep) {
        const taken = sink.append(chunk);
        cuts.push(taken);
        tail += chunk.length - taken;
      } else {
        tail += chunk.length;
      }
    }
  } catch (err) {
    // Same text as the engine's own notice detail.
    error = String((err as Error)?.message ?? err);
  }
  const bytes = sink.take();
  const single = cuts.length === 1;
  const cutList = single ? null : Uint32Array.from(cuts);
  return { bytes, cuts: cutList, tail, tailMode, error, moved: null };
}
