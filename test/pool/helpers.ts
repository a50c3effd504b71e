import { Readable } from 'node:stream';
import { allRuleDefs } from '../../src/rules/index.js';
import type { ScanMeta } from '../../src/types.js';

/** Deterministic PRNG (mulberry32) so cuts and filler are the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The synthetic positive examples the managed rules carry (up to `perRule` each): bodies that do produce findings. */
export function exampleTexts(perRule = Infinity): string[] {
  return allRuleDefs.flatMap((d) => d.examples.positive.slice(0, perRule).map((e) => e.text));
}

/** A card number from the card networks' published test ranges. */
export const kTestCard = '4111 1111 1111 1111';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Cuts bytes into chunks of random sizes (1 byte to `max`), keeping every byte once. */
export function randomCuts(bytes: Uint8Array, seed: number, max = 70_000): Uint8Array[] {
  const next = rng(seed);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = Math.min(bytes.length - at, 1 + Math.floor(next() * max));
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

export async function* asyncChunks(chunks: Uint8Array[], failAfter?: { index: number; message: string }): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < chunks.length; i++) {
    if (failAfter && i === failAfter.index) throw new Error(failAfter.message);
    yield chunks[i]!;
  }
  if (failAfter && failAfter.index >= chunks.length) throw new Error(failAfter.message);
}

export function webStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

export function nodeStream(chunks: Uint8Array[]): Readable {
  return Readable.from(chunks.map((c) => Buffer.from(c)), { objectMode: false });
}

/** Deterministic random bytes. */
export function randomBytes(n: number, seed: number): Buffer {
  const next = rng(seed);
  const buf = Buffer.alloc(n);
  for (let i = 0; i < n; i++) buf[i] = Math.floor(next() * 256);
  return buf;
}

/** Random base64 text: barely compressible, so a gzip of it is about as long as the text. */
export function noiseText(bytes: number, seed: number): string {
  return randomBytes(Math.ceil((bytes * 3) / 4), seed).toString('base64').slice(0, bytes);
}

export interface Case {
  name: string;
  body: Uint8Array;
  meta: ScanMeta;
}
