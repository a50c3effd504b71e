/**
 * CRC-32 as in ISO-HDLC / IEEE 802.3 / zlib (reflected polynomial 0xEDB88320, initial value and final
 * XOR 0xFFFFFFFF). GitHub's and npm's token formats append this checksum of the token's random part,
 * so a scanner can tell a real token from a look-alike offline. Table-driven, one byte per step; the
 * table is built once on first use.
 *
 * @example
 * crc32('123456789'); // 0xCBF43926, the standard check value
 */
let table: Uint32Array | null = null;

function crcTable(): Uint32Array {
  if (table) return table;
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  table = t;
  return t;
}

const kEncoder = new TextEncoder();

/** Unsigned CRC-32 of `data`; a string is taken as its UTF-8 bytes. */
export function crc32(data: string | Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  if (typeof data === 'string') {
    // ASCII (a token's characters) is its own UTF-8: read by code, no encoded copy. Other text is encoded.
    for (let i = 0; i < data.length; i++) {
      const b = data.charCodeAt(i);
      if (b >= 0x80) return crc32(kEncoder.encode(data));
      c = t[(c ^ b) & 0xff]! ^ (c >>> 8);
    }
  } else {
    for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
