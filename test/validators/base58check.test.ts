import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base58Decode, btcBase58AddressValid, sha256 } from '../../src/validators/base58check.js';

/** Second implementations: SHA-256 from node:crypto, Base58 through one BigInt, and an encoder. */
const kB58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const nodeSha = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest());
function encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  for (; n > 0n; n /= 58n) out = kB58[Number(n % 58n)]! + out;
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}
function address(version: number, hash: Uint8Array): string {
  const payload = Uint8Array.from([version, ...hash]);
  return encode(Uint8Array.from([...payload, ...nodeSha(nodeSha(payload)).subarray(0, 4)]));
}

describe('sha256', () => {
  it('meets the FIPS 180-2 examples', () => {
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    expect(hex(sha256(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('btcBase58AddressValid', () => {
  it("accepts the genesis block's published address and rejects it with one character changed", () => {
    expect(btcBase58AddressValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true);
    expect(btcBase58AddressValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBe(false);
  });

  it('accepts every address the BigInt encoder makes, and no single-character change of it', () => {
    fc.assert(
      fc.property(fc.constantFrom(0x00, 0x05), fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), fc.nat(57), (version, hash, at, sub) => {
        const v = address(version, hash);
        expect(btcBase58AddressValid(v), v).toBe(true);
        expect(Array.from(base58Decode(v)!)).toEqual([version, ...hash, ...nodeSha(nodeSha(Uint8Array.from([version, ...hash]))).subarray(0, 4)]);
        const i = at % v.length;
        const c = kB58[(kB58.indexOf(v[i]!) + 1 + sub) % 58]!;
        if (c !== v[i]) expect(btcBase58AddressValid(v.slice(0, i) + c + v.slice(i + 1)), `${v} @${i}`).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects other versions, lengths and alphabets', () => {
    expect(btcBase58AddressValid(address(0x6f, new Uint8Array(20).fill(7)))).toBe(false); // testnet
    expect(btcBase58AddressValid(address(0x00, new Uint8Array(19).fill(7)))).toBe(false);
    expect(btcBase58AddressValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0')).toBe(false);
  });
});
