/**
 * Content codings recognised by their first bytes. Only gzip has a signature (RFC 1952 §2.3.1:
 * ID1 = 0x1f, ID2 = 0x8b); a raw deflate or brotli stream has none, so those still need
 * `--content-encoding` (or a `.br` suffix).
 */
export const kGzipMagic: readonly [number, number] = [0x1f, 0x8b];

/** True when `bytes` begins with the gzip signature. */
export function startsWithGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === kGzipMagic[0] && bytes[1] === kGzipMagic[1];
}

export type { DecodedBody, DetectedBy } from '../../report/types.js';

/**
 * The first `n` bytes of a stream (fewer if it ends sooner) and a stream that yields every byte,
 * those included, for the scan. Reads no further than the chunk that completes the head, so a pipe
 * is never drained ahead of the scanner.
 */
export async function peekStream(source: AsyncIterable<Uint8Array>, n: number): Promise<{ head: Uint8Array; body: AsyncIterable<Uint8Array> }> {
  const it = source[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let have = 0;
  let done = false;
  let failure: { err: unknown } | undefined;
  try {
    while (have < n) {
      const r = await it.next();
      if (r.done === true) {
        done = true;
        break;
      }
      const chunk = typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : r.value;
      held.push(chunk);
      have += chunk.length;
    }
  } catch (err) {
    // Handed to the scan as the stream's own failure, after what was read.
    failure = { err };
    done = true;
  }
  const joined = Buffer.concat(held);
  const body = (async function* (): AsyncGenerator<Uint8Array> {
    try {
      for (const c of held) yield c;
      if (failure !== undefined) throw failure.err;
      if (done) return;
      for (;;) {
        const r = await it.next();
        if (r.done === true) return;
        yield typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : r.value;
      }
    } finally {
      if (!done) await it.return?.();
    }
  })();
  return { head: joined.subarray(0, n), body };
}
