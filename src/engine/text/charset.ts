import { isAscii, isUtf8 } from 'node:buffer';
import { nativeBinding } from '../native.js';
import { OffsetBuffer, kNoIndices, type Segment } from './segment.js';

/**
 * Bytes → text with byte offsets, incrementally. Each call returns the text for every byte it could
 * decode; an incomplete character at the end of a chunk is held back until the next call (or
 * replaced by U+FFFD at the end of the body), so the result does not depend on how the body was cut.
 */
export interface CharsetDecoder {
  push(bytes: Uint8Array, final: boolean): Segment;
  /** Invalid sequences replaced by U+FFFD so far. */
  readonly invalidSequences: number;
  /** The scan is over (the last segment consumed): scratch memory goes back to the thread. */
  release?(): void;
}

export type CharsetKind = 'utf-8' | 'utf-16le' | 'utf-16be' | 'single-byte';

export function createCharsetDecoder(kind: CharsetKind, label = 'windows-1252'): CharsetDecoder {
  switch (kind) {
    case 'utf-8':
      return new Utf8Decoder();
    case 'utf-16le':
      return new Utf16Decoder(true);
    case 'utf-16be':
      return new Utf16Decoder(false);
    case 'single-byte':
      return new SingleByteDecoder(label);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const kChunkChars = 8192;

/**
 * UTF-8 per the WHATWG decoder: each maximal invalid subpart becomes one U+FFFD, so the offsets of
 * every character stay exact even in broken input. ASCII-only chunks take a fast path.
 */
class Utf8Decoder implements CharsetDecoder {
  /** Offsets of the segment last returned (valid until the next push; see OffsetBuffer). */
  readonly #offsets = new OffsetBuffer();
  /** Indices of the non-ASCII units of the segment last returned (same lifetime). */
  readonly #wide = new OffsetBuffer();
  #pending: Uint8Array = new Uint8Array(0);
  #base = 0; // absolute offset of #pending[0]
  #bomChecked = false;
  invalidSequences = 0;

  release(): void {
    this.#offsets.release();
    this.#wide.release();
  }

  push(chunk: Uint8Array, final: boolean): Segment {
    let bytes = concat(this.#pending, chunk);
    let base = this.#base;
    if (!this.#bomChecked) {
      if (bytes.length < 3 && !final) {
        this.#pending = bytes;
        return { text: '', offsets: null, base };
      }
      this.#bomChecked = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
        base += 3;
      }
    }
    // Hold back an incomplete trailing sequence (at most 3 bytes).
    let end = bytes.length;
    if (!final) {
      let k = end - 1;
      while (k >= 0 && end - k <= 3 && (bytes[k]! & 0xc0) === 0x80) k--;
      if (k >= 0 && end - k <= 3) {
        const lead = bytes[k]!;
        const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (lead >= 0xc0 && end - k < need) end = k;
      }
    }
    const head = bytes.subarray(0, end);
    this.#pending = bytes.slice(end);
    this.#base = base + end;
    if (isAscii(head)) {
      // ASCII: one byte per character, offsets implied (no array to fill or copy).
      return { text: Buffer.from(head.buffer, head.byteOffset, head.length).toString('latin1'), offsets: null, base, nonAscii: kNoIndices };
    }
    if (isUtf8(head)) return decodeValidUtf8(head, base, this.#offsets, this.#wide);
    return this.#decodeSlow(head, base);
  }

  #decodeSlow(b: Uint8Array, base: number): Segment {
    const units = new Uint16Array(b.length);
    const off = new Int32Array(b.length + 1);
    let n = 0;
    let i = 0;
    const len = b.length;
    while (i < len) {
      const c = b[i]!;
      if (c < 0x80) {
        off[n] = base + i;
        units[n++] = c;
        i++;
        continue;
      }
      let need = 0;
      let cp = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        cp = c & 0x1f;
      } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        cp = c & 0x0f;
        if (c === 0xe0) lower = 0xa0;
        if (c === 0xed) upper = 0x9f;
      } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        cp = c & 0x07;
        if (c === 0xf0) lower = 0x90;
        if (c === 0xf4) upper = 0x8f;
      }
      const start = i;
      i++;
      let ok = need > 0;
      for (let k = 0; ok && k < need; k++) {
        const cc = b[i];
        if (cc === undefined || cc < lower || cc > upper) {
          ok = false;
          break;
        }
        lower = 0x80;
        upper = 0xbf;
        cp = (cp << 6) | (cc & 0x3f);
        i++;
      }
      off[n] = base + start;
      if (!ok) {
        // Maximal subpart: the bytes consumed so far become one replacement character.
        units[n++] = 0xfffd;
        this.invalidSequences++;
        continue;
      }
      if (cp >= 0x10000) {
        cp -= 0x10000;
        units[n++] = 0xd800 + (cp >> 10);
        off[n] = base + start;
        units[n++] = 0xdc00 + (cp & 0x3ff);
      } else {
        units[n++] = cp;
      }
    }
    off[n] = base + len;
    let text = '';
    for (let k = 0; k < n; k += kChunkChars) {
      text += String.fromCharCode.apply(null, units.subarray(k, Math.min(n, k + kChunkChars)) as unknown as number[]);
    }
    return { text, offsets: off.slice(0, n + 1), base };
  }
}

/**
 * Valid UTF-8 (checked by `isUtf8`): the text (`utf8Text` in C, else `Buffer#toString`), then each
 * code unit's byte offset and the indices of the non-ASCII units off the bytes (`utf8Offsets`, else
 * `utf8OffsetsJs`). Several times faster than the byte loop invalid input needs.
 */
function decodeValidUtf8(b: Uint8Array, base: number, into: OffsetBuffer, wideInto: OffsetBuffer): Segment {
  const native = nativeBinding();
  const text = native !== null ? native.utf8Text(b) : Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
  const n = text.length;
  // Room as the native pass asks (a slot per byte plus one; half as many plus two), whatever the text.
  const off = into.take(b.length + 1);
  const wide = wideInto.take((b.length >>> 1) + 2);
  const w = (native?.utf8Offsets ?? utf8OffsetsJs)(b, base, off, wide);
  off[n] = base + b.length;
  return { text, offsets: off.subarray(0, n + 1), base, nonAscii: wide.subarray(0, w) };
}

/**
 * From the bytes (valid UTF-8): every byte that is not a continuation starts a character, and a
 * 4-byte sequence is two UTF-16 units that both start there; `off` gets each unit's offset (+ base),
 * `wide` the index of each non-ASCII unit, and the count of those is returned. A byte array reads
 * about twice as fast as `charCodeAt` on the decoded text; the native `utf8Offsets` does the same
 * loop in C.
 */
export function utf8OffsetsJs(b: Uint8Array, base: number, off: Int32Array, wide: Int32Array): number {
  let i = 0;
  let w = 0;
  const len = b.length;
  for (let j = 0; j < len; j++) {
    const x = b[j]!;
    if ((x & 0xc0) === 0x80) continue;
    if (x >= 0x80) {
      wide[w++] = i;
      if (x >= 0xf0) wide[w++] = i + 1;
    }
    off[i++] = base + j;
    if (x >= 0xf0) off[i++] = base + j;
  }
  return w;
}

class Utf16Decoder implements CharsetDecoder {
  #pending: Uint8Array = new Uint8Array(0);
  #base = 0;
  #bomChecked = false;
  invalidSequences = 0;

  constructor(readonly littleEndian: boolean) {}

  push(chunk: Uint8Array, final: boolean): Segment {
    let bytes = concat(this.#pending, chunk);
    let base = this.#base;
    if (!this.#bomChecked && bytes.length >= 2) {
      this.#bomChecked = true;
      const bom = this.littleEndian ? bytes[0] === 0xff && bytes[1] === 0xfe : bytes[0] === 0xfe && bytes[1] === 0xff;
      if (bom) {
        bytes = bytes.subarray(2);
        base += 2;
      }
    }
    const whole = bytes.length & ~1;
    const n = whole / 2;
    const units = new Uint16Array(n + (final && whole < bytes.length ? 1 : 0));
    const off = new Int32Array(units.length + 1);
    for (let k = 0; k < n; k++) {
      const a = bytes[2 * k]!;
      const b = bytes[2 * k + 1]!;
      units[k] = this.littleEndian ? a | (b << 8) : (a << 8) | b;
      off[k] = base + 2 * k;
    }
    let consumed = whole;
    if (units.length > n) {
      units[n] = 0xfffd; // odd trailing byte
      off[n] = base + whole;
      this.invalidSequences++;
      consumed = bytes.length;
    }
    off[units.length] = base + consumed;
    this.#pending = bytes.slice(consumed);
    this.#base = base + consumed;
    let text = '';
    for (let k = 0; k < units.length; k += kChunkChars) {
      text += String.fromCharCode.apply(null, units.subarray(k, Math.min(units.length, k + kChunkChars)) as unknown as number[]);
    }
    return { text, offsets: off, base };
  }
}

/** ISO-8859-x, windows-125x, KOI8…: one byte is one character, so offsets are linear. */
class SingleByteDecoder implements CharsetDecoder {
  #decoder: TextDecoder;
  #base = 0;
  invalidSequences = 0;

  constructor(label: string) {
    this.#decoder = new TextDecoder(label);
  }

  push(chunk: Uint8Array, _final: boolean): Segment {
    const text = this.#decoder.decode(chunk);
    const seg: Segment = { text, offsets: null, base: this.#base };
    this.#base += chunk.length;
    return seg;
  }
}
