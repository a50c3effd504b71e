import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bech32Checksum, btcSegwitAddressValid } from '../../src/validators/bech32.js';

/**
 * A second implementation: BIP-173's checksum as polynomial division over GF(32), with the generator
 * g(x) = x⁶ + 29x⁵ + 22x⁴ + 20x³ + 21x² + 29x + 18 and field multiplication by shift-and-reduce
 * (x⁵ = x³ + 1, GF(32) = GF(2)[x]/(x⁵ + x³ + 1)), instead of the packed generator constants.
 */
const kCharset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function gfMul(a: number, b: number): number {
  let r = 0;
  for (let i = 0; i < 5; i++) {
    if ((b >> i) & 1) r ^= a;
    a <<= 1;
    if (a & 32) a ^= 0b101001;
  }
  return r;
}
const kG = [1, 29, 22, 20, 21, 29, 18]; // leading coefficient first
/** The remainder of v(x)·x⁰ mod g(x), with the initial 1 that BIP-173 prepends, as six symbols. */
function remainder(values: number[]): number[] {
  const r = [0, 0, 0, 0, 0, 1];
  for (const v of values) {
    const lead = r.shift()!;
    r.push(v);
    for (let i = 0; i < 6; i++) r[i]! ^= gfMul(kG[i + 1]!, lead);
  }
  return r;
}
function encode(hrp: string, data: number[], m: boolean): string {
  const values = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31), ...data];
  const target = m ? [0x2bc830a3 >>> 25, (0x2bc830a3 >>> 20) & 31, (0x2bc830a3 >>> 15) & 31, (0x2bc830a3 >>> 10) & 31, (0x2bc830a3 >>> 5) & 31, 0x2bc830a3 & 31] : [0, 0, 0, 0, 0, 1];
  const rem = remainder([...values, 0, 0, 0, 0, 0, 0]);
  const check = rem.map((x, i) => x ^ target[i]!);
  return `${hrp}1${[...data, ...check].map((d) => kCharset[d]).join('')}`;
}

describe('bech32Checksum', () => {
  it.each(['A12UEL5L', 'a12uel5l', 'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw', 'split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w', '?1ezyfcl'])(
    'BIP-173 valid bech32 %s',
    (v) => expect(bech32Checksum(v)).toBe('bech32'),
  );
  it.each(['A1LQFN3A', 'a1lqfn3a', 'abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx', '?1v759aa'])('BIP-350 valid bech32m %s', (v) =>
    expect(bech32Checksum(v)).toBe('bech32m'),
  );
  it.each(['A12UEL5l', 'a12uel5m', '1pzry9x0s0muk', 'pzry9x0s0muk', 'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxx'])('rejects %j', (v) =>
    expect(bech32Checksum(v)).toBe(null),
  );

  it('agrees with the polynomial-division encoder, and catches every single-symbol change', () => {
    const data = fc.array(fc.integer({ min: 0, max: 31 }), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(data, fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 31 }), (d, m, at, delta) => {
        const v = encode('bc', d, m);
        expect(encode('a', [], false)).toBe('a12uel5l'); // the second implementation meets the published vector
        expect(bech32Checksum(v), v).toBe(m ? 'bech32m' : 'bech32');
        const i = 3 + (at % (v.length - 3));
        const changed = v.slice(0, i) + kCharset[(kCharset.indexOf(v[i]!) + delta) % 32] + v.slice(i + 1);
        expect(bech32Checksum(changed), changed).toBe(null);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('btcSegwitAddressValid', () => {
  const program = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes });
  /** Bytes to 5-bit groups, zero-padded (BIP-173 convertbits). */
  const toWords = (b: Uint8Array) => {
    const bits = [...b].flatMap((x) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (x >> i) & 1));
    while (bits.length % 5) bits.push(0);
    return Array.from({ length: bits.length / 5 }, (_, i) => bits.slice(5 * i, 5 * i + 5).reduce((a, x) => a * 2 + x, 0));
  };

  it('accepts v0 programs of 20 and 32 bytes with bech32, and v1 with bech32m', () => {
    fc.assert(
      fc.property(fc.oneof(program(20), program(32)), program(32), (p0, p1) => {
        expect(btcSegwitAddressValid(encode('bc', [0, ...toWords(p0)], false))).toBe(true);
        expect(btcSegwitAddressValid(encode('bc', [1, ...toWords(p1)], true))).toBe(true);
        // The wrong checksum kind for the version, and v0 with a length other than 20 or 32.
        expect(btcSegwitAddressValid(encode('bc', [0, ...toWords(p0)], true))).toBe(false);
        expect(btcSegwitAddressValid(encode('bc', [1, ...toWords(p1)], false))).toBe(false);
        expect(btcSegwitAddressValid(encode('bc', [0, ...toWords(p1.subarray(0, 25))], false))).toBe(false);
        expect(btcSegwitAddressValid(encode('tb', [0, ...toWords(p0)], false))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
