/**
 * Bitcoin Base58Check (the P2PKH and P2SH addresses, `1…` and `3…`): the Base58 text decodes to a
 * version byte, a 20-byte hash and four checksum bytes, the first four of SHA-256(SHA-256(version +
 * hash)).
 *
 * @example
 * btcBase58AddressValid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'); // true (the genesis block's address)
 */
import { createHash } from 'node:crypto';

const kAlphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 text to bytes (leading `1`s are leading zero bytes); null on a character outside the alphabet. */
export function base58Decode(s: string): Uint8Array | null {
  const bytes: number[] = [];
  for (const ch of s) {
    let carry = kAlphabet.indexOf(ch);
    if (carry < 0) return null;
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (zeros < s.length && s[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()]);
}

/** SHA-256 of `data`, by node:crypto (the validators run in Node and its worker threads only). */
export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** A Bitcoin mainnet P2PKH (version 0x00) or P2SH (0x05) address with a valid Base58Check checksum. */
export function btcBase58AddressValid(v: string): boolean {
  if (v.length < 26 || v.length > 35) return false;
  const bytes = base58Decode(v);
  if (bytes === null || bytes.length !== 25 || (bytes[0] !== 0x00 && bytes[0] !== 0x05)) return false;
  const check = sha256(sha256(bytes.subarray(0, 21)));
  for (let i = 0; i < 4; i++) if (check[i] !== bytes[21 + i]) return false;
  return true;
}
