/**
 * The bytes an auditor signs, laid out exactly as Cloudflare's plexi client re-serializes them before it
 * verifies (reference section 2): field order ciphersuite, namespace, timestamp, epoch, digest.
 */

/** Ciphersuites plexi knows; anything else it refuses to verify. */
export const kCiphersuites = {
  /** `0x0001`: protobuf (proto2, every field `required`), Ed25519. plexi's default and WhatsApp's. */
  protobufEd25519: 0x0001,
  /** `0x0002`: bincode 2 `config::legacy()` (fixed-width little-endian, u64 length prefixes), Ed25519. */
  bincodeEd25519: 0x0002,
} as const;

export type Ciphersuite = (typeof kCiphersuites)[keyof typeof kCiphersuites];

export function isCiphersuite(v: unknown): v is Ciphersuite {
  return v === kCiphersuites.protobufEd25519 || v === kCiphersuites.bincodeEd25519;
}

/**
 * The signed fields. `epoch` and `timestamp` are u64 on the wire; a number must be a safe integer (JS
 * numbers are exact only to 2^53 − 1), a bigint may use the whole u64 range.
 */
export interface SignedFields {
  ciphersuite: Ciphersuite;
  namespace: string;
  timestamp: number | bigint;
  epoch: number | bigint;
  /** Raw digest bytes (32 for records this log accepts). */
  digest: Uint8Array;
}

function u64(n: number | bigint, what: string): bigint {
  const v = typeof n === 'bigint' ? n : Number.isSafeInteger(n) ? BigInt(n) : -1n;
  if (v < 0n || v > 0xffff_ffff_ffff_ffffn) throw new RangeError(`${what} must be an unsigned 64-bit integer`);
  return v;
}

function varint(v: bigint): number[] {
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** A length-delimited protobuf field: tag, length varint, bytes. */
function lenField(tag: number, bytes: Uint8Array): number[] {
  return [tag, ...varint(BigInt(bytes.length)), ...bytes];
}

/**
 * Protobuf (`plexi_core.types.SignatureMessage`, proto2): every field is `required`, so zero values and
 * empty strings are still written; proto3 default-skipping would break verification of real records.
 */
function protobuf(f: SignedFields): Uint8Array {
  const ns = new TextEncoder().encode(f.namespace);
  // field 4 is a nested `Epoch { required uint64 inner = 1; }`
  const epoch = Uint8Array.from([0x08, ...varint(u64(f.epoch, 'epoch'))]);
  return Uint8Array.from([
    0x08,
    ...varint(BigInt(f.ciphersuite)),
    ...lenField(0x12, ns),
    0x18,
    ...varint(u64(f.timestamp, 'timestamp')),
    ...lenField(0x22, epoch),
    ...lenField(0x2a, f.digest),
  ]);
}

/** bincode legacy: u32le suite ‖ u64le len ‖ namespace ‖ u64le timestamp ‖ u64le epoch ‖ u64le len ‖ digest. */
function bincode(f: SignedFields): Uint8Array {
  const ns = Buffer.from(f.namespace, 'utf8');
  const out = Buffer.alloc(4 + 8 + ns.length + 8 + 8 + 8 + f.digest.length);
  let o = out.writeUInt32LE(f.ciphersuite, 0);
  o = out.writeBigUInt64LE(BigInt(ns.length), o);
  o += ns.copy(out, o);
  o = out.writeBigUInt64LE(u64(f.timestamp, 'timestamp'), o);
  o = out.writeBigUInt64LE(u64(f.epoch, 'epoch'), o);
  o = out.writeBigUInt64LE(BigInt(f.digest.length), o);
  out.set(f.digest, o);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/**
 * The exact bytes signed for a record under its ciphersuite.
 * @example
 * serializeMessage({ ciphersuite: 1, namespace: 'log1.example.com', timestamp: 1717084639921, epoch: 1, digest });
 * // 65 bytes: 08 01 12 10 6c6f… 18 b1a5e1d1fc31 22 02 08 01 2a 20 …
 */
export function serializeMessage(f: SignedFields): Uint8Array {
  switch (f.ciphersuite) {
    case kCiphersuites.protobufEd25519:
      return protobuf(f);
    case kCiphersuites.bincodeEd25519:
      return bincode(f);
    default:
      throw new RangeError(`unsupported ciphersuite ${String(f.ciphersuite)}`);
  }
}
