/**
 * Bech32 (BIP-173) and bech32m (BIP-350) strings, and the SegWit addresses built on them: `bc1` +
 * witness version + program, version 0 with the bech32 checksum and a 20- or 32-byte program, versions
 * 1-16 with bech32m and 2-40 bytes.
 *
 * @example
 * bech32Checksum('a12uel5l'); // 'bech32' (a BIP-173 test vector)
 */

const kCharset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const kGen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= kGen[i]!;
  }
  return chk >>> 0;
}

/** Which checksum a bech32-family string carries (`'bech32'`, `'bech32m'`), or null when neither or malformed. */
export function bech32Checksum(s: string): 'bech32' | 'bech32m' | null {
  if (s.length > 90 || (s !== s.toLowerCase() && s !== s.toUpperCase())) return null;
  const lower = s.toLowerCase();
  const sep = lower.lastIndexOf('1');
  if (sep < 1 || sep + 7 > lower.length) return null;
  const hrp = lower.slice(0, sep);
  const values: number[] = [];
  for (const c of hrp) {
    const code = c.charCodeAt(0);
    if (code < 33 || code > 126) return null;
  }
  for (const c of hrp) values.push(c.charCodeAt(0) >> 5);
  values.push(0);
  for (const c of hrp) values.push(c.charCodeAt(0) & 31);
  for (const c of lower.slice(sep + 1)) {
    const d = kCharset.indexOf(c);
    if (d < 0) return null;
    values.push(d);
  }
  const p = polymod(values);
  return p === 1 ? 'bech32' : p === 0x2bc830a3 ? 'bech32m' : null;
}

/** A Bitcoin mainnet SegWit address (`bc1…`) whose checksum, witness version and program length agree. */
export function btcSegwitAddressValid(v: string): boolean {
  const kind = bech32Checksum(v);
  const lower = v.toLowerCase();
  if (kind === null || !lower.startsWith('bc1')) return false;
  const data = [...lower.slice(3, -6)].map((c) => kCharset.indexOf(c));
  const version = data[0];
  if (version === undefined || version > 16 || (version === 0) !== (kind === 'bech32')) return false;
  // The program: the 5-bit groups after the version regrouped into bytes, with at most 4 zero bits left.
  const bits = (data.length - 1) * 5;
  const bytes = Math.floor(bits / 8);
  if (bits % 8 > 4 || (data[data.length - 1]! & ((1 << (bits % 8)) - 1)) !== 0) return false;
  if (bytes < 2 || bytes > 40) return false;
  return version !== 0 || bytes === 20 || bytes === 32;
}
