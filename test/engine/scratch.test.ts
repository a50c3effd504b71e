import { describe, expect, it } from 'vitest';
import { scanStream } from '../../src/engine/index.js';
import { SpareArrays } from '../../src/engine/scratch.js';
import { OffsetBuffer } from '../../src/engine/text/segment.js';
import { program } from './helpers.js';

describe('offset arrays recycled across scans', () => {
  it('hands a given-back array to the next taker that fits, once, and refuses views and tiny arrays', () => {
    const spare = new SpareArrays<Int32Array>((n) => new Int32Array(n), 1024, 1 << 20, 2);
    const a = spare.take(5000);
    expect(a.length).toBe(5000);
    spare.give(a);
    spare.give(a); // a second hand-back must not make two owners
    expect(spare.take(4000)).toBe(a);
    expect(spare.take(4000)).not.toBe(a);
    spare.give(new Int32Array(8192).subarray(0, 4096));
    spare.give(new Int32Array(16));
    spare.give(new Int32Array(2 << 20));
    expect(spare.take(1)).toHaveLength(1); // none of those was kept
    // Bounded: a third array replaces the shortest of two.
    const [x, y, z] = [spare.make(2000), spare.make(3000), spare.make(4000)];
    spare.give(x);
    spare.give(y);
    spare.give(z);
    expect(spare.take(1500)).toBe(y);
    expect(spare.take(1500)).toBe(z);
    expect(spare.take(1500)).not.toBe(x);
  });

  it('an OffsetBuffer grows into spare arrays and gives its own back on release', () => {
    const buf = new OffsetBuffer();
    const first = buf.take(3000);
    expect(first.length).toBe(3000);
    buf.release();
    // The released array (first's buffer) is what the next buffer starts from.
    const next = new OffsetBuffer().take(2000);
    expect(next.buffer).toBe(first.buffer);
  });

  it('scans interleaved on one thread keep exact byte offsets (no array shared between live scans)', async () => {
    const p = program('test');
    // Non-ASCII text forces per-character offsets in the decoder and the matcher. Every body puts its
    // card across the 32 KiB the engine gathers before a pass (kCoalesceBytes), at the same byte
    // offset after a different mix of 2-byte and 1-byte characters: the card's start is mapped in one
    // pass and read in the next, after the other scans have run theirs.
    const body = (i: number): Buffer => {
      const wide = 2000 + 400 * i;
      return Buffer.from(`${'é'.repeat(wide)}${'x'.repeat(32_763 - 2 * wide)} 4111 1111 1111 1111 ${'y'.repeat(300)} ${'ü€'.repeat(1500 + 300 * i)} AKIAQYLPMN5HHHFPZAM2 end`);
    };
    const expected = (b: Buffer): number[] => {
      const card = b.indexOf('4111');
      const key = b.indexOf('AKIA');
      return [card, card + 19, key, key + 20];
    };
    const chunks = (b: Buffer) => (async function* () {
      for (let i = 0; i < b.length; i += 4096) {
        await new Promise((r) => setImmediate(r));
        yield b.subarray(i, i + 4096);
      }
    })();
    for (let round = 0; round < 3; round++) {
      const bodies = [0, 1, 2, 3].map(body);
      expect(bodies.map((b) => b.indexOf('4111'))).toEqual([32_764, 32_764, 32_764, 32_764]);
      const reports = await Promise.all(bodies.map((b) => scanStream(p, chunks(b), { contentType: 'text/plain; charset=utf-8' })));
      reports.forEach((r, i) => {
        expect(r.findings.map((f) => [f.start, f.end]).flat()).toEqual(expected(bodies[i]!));
      });
    }
  });
});
