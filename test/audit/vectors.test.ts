/**
 * The plexi message layouts and Ed25519 signatures, byte for byte against the published test vectors
 * (../shared/reference/audit-log.md section 7: plexi_core/tests/test-vectors.json and the WhatsApp
 * production record of plexi's README), and the strictness plexi's `verify_strict` has.
 */
import { describe, expect, it } from 'vitest';
import {
  keyIdOf,
  publicKeyProblem,
  serializeMessage,
  signatureProblem,
  signingKeyFromSeed,
  signMessage,
  verifyingKey,
  verifyRecord,
  verifyRecordWithKey,
  verifyStrict,
  WeakKeyError,
  type Ciphersuite,
} from '../../src/audit/index.js';

const hex = (s: string) => Buffer.from(s.replace(/[\s|]/g, ''), 'hex');
const D11 = '11'.repeat(32);

const SEED = 'd6af1bca3db4fc2766b0c483706c20bf4837a46d54c1d39c2a34a9088572d712';
const TEST_KEY = '606a878700158d92b3a14a0fd37ec82e0f05f92fcf23146abfda2e3a2f10a9bc';
const WHATSAPP_KEY = '2bbfbb39997fdb95feee40ef9f8827de0256732be06f64ed6408cc7e97c7f4d4';

interface Vector {
  name: string;
  ciphersuite: Ciphersuite;
  namespace: string;
  timestamp: number;
  epoch: number;
  digest: string;
  publicKey: string;
  seed?: string;
  message: string;
  signature: string;
}

const kVectors: Vector[] = [
  {
    name: 'TV1 protobuf',
    ciphersuite: 1,
    namespace: 'log1.example.com',
    timestamp: 1717084639921,
    epoch: 1,
    digest: D11,
    publicKey: TEST_KEY,
    seed: SEED,
    message: `08 01 | 12 10 6c6f67312e6578616d706c652e636f6d | 18 b1a5e1d1fc31 | 22 02 08 01 | 2a 20 ${D11}`,
    signature: '769d1ae73792dd8da1515793ba29f2f33f2fca84ba7386f9a01d8272e67c4379bdcfd91ea4fa49eafd8f243ac36fe3a7aae90ae92f1729c3c468ddf4e6d2a309',
  },
  {
    name: 'TV2 bincode',
    ciphersuite: 2,
    namespace: 'log2.example.com',
    timestamp: 1717084639921,
    epoch: 1,
    digest: D11,
    publicKey: TEST_KEY,
    seed: SEED,
    message: `02000000 | 1000000000000000 | 6c6f67322e6578616d706c652e636f6d | b15238ca8f010000 | 0100000000000000 | 2000000000000000 | ${D11}`,
    signature: 'a73807da5d7e12f7ed6328c918e2071173793fea3af96d98f0a649a5f498b5bfebbe96ce7b21b027ccc04e69ac8cf40c2ed2d45ee23b0c30c00abca9753f7909',
  },
  {
    name: 'TV3 WhatsApp production record',
    ciphersuite: 1,
    namespace: 'whatsapp.key-transparency.v1',
    timestamp: 1727110425630,
    epoch: 489193,
    digest: 'cbe5097ae832a3ae51ad866104ffd4aa1f7479e873fd18df9cb96a02fc91ebfe',
    publicKey: WHATSAPP_KEY,
    message:
      '0801121c77686174736170702e6b65792d7472616e73706172656e63792e7631189ed8b6fea132220408e9ed1d2a20cbe5097ae832a3ae51ad866104ffd4aa1f7479e873fd18df9cb96a02fc91ebfe',
    signature: 'fe94973e19da826487b637c019d3ce52f0c08093ada00b4fe6563e2f8117b4345121342bc33aae249be47979dfe704478e2c18aed86e674df9f934b718949c08',
  },
];

const fields = (v: Vector) => ({ ciphersuite: v.ciphersuite, namespace: v.namespace, timestamp: v.timestamp, epoch: v.epoch, digest: hex(v.digest) });
const record = (v: Vector, extra: Record<string, unknown> = {}) => ({
  ciphersuite: v.ciphersuite,
  namespace: v.namespace,
  timestamp: v.timestamp,
  epoch: v.epoch,
  digest: v.digest,
  signature: v.signature,
  ...extra,
});

describe('test vectors', () => {
  it.each(kVectors)('$name: message bytes are exactly the reference layout', (v) => {
    const msg = serializeMessage(fields(v));
    expect(Buffer.from(msg).toString('hex')).toBe(hex(v.message).toString('hex'));
  });

  it.each(kVectors.filter((v) => v.seed))('$name: signing with the seed gives the published public key and signature', (v) => {
    const key = signingKeyFromSeed(hex(v.seed!));
    expect(key.public.hex).toBe(v.publicKey);
    expect(Buffer.from(signMessage(key, serializeMessage(fields(v)))).toString('hex')).toBe(v.signature);
  });

  it.each(kVectors)('$name: verifies under its key, and not after any one-bit change', (v) => {
    const key = verifyingKey(hex(v.publicKey));
    const msg = serializeMessage(fields(v));
    expect(verifyStrict(key, msg, hex(v.signature))).toBe(true);
    const flipped = Uint8Array.from(msg);
    flipped[flipped.length - 1]! ^= 1;
    expect(verifyStrict(key, flipped, hex(v.signature))).toBe(false);
    // As a record verified against a key list (what /info gives), and with the wrong suite.
    const keys = [{ public_key: v.publicKey, not_before: 0 }];
    expect(verifyRecord(record(v), keys)).toMatchObject({ valid: true });
    expect(verifyRecord(record(v, { ciphersuite: v.ciphersuite === 1 ? 2 : 1 }), keys)).toMatchObject({ valid: false });
    expect(verifyRecord(record(v, { timestamp: v.timestamp + 1 }), keys)).toEqual({ valid: false, reason: 'the signature does not verify' });
    expect(verifyRecordWithKey(record(v), v.publicKey)).toMatchObject({ valid: true });
  });

  it('key ids are the last byte of the public key', () => {
    expect(keyIdOf(hex(TEST_KEY))).toBe(188);
    expect(keyIdOf(hex(WHATSAPP_KEY))).toBe(212);
    expect(keyIdOf(hex('d1036a00000000000000000000000000000000000000000000000000003a2f4a'))).toBe(74);
  });
});

describe('protobuf encoding (proto2: every field required)', () => {
  const base = { ciphersuite: 1 as const, timestamp: 0, epoch: 1, digest: new Uint8Array(32) };
  it('writes an empty namespace and a zero timestamp', () => {
    const msg = Buffer.from(serializeMessage({ ...base, namespace: '' })).toString('hex');
    expect(msg.startsWith('0801' + '1200' + '1800' + '22020801' + '2a20')).toBe(true);
  });
  it('uses a two-byte length varint for a 200-byte namespace', () => {
    const msg = Buffer.from(serializeMessage({ ...base, namespace: 'a'.repeat(200) }));
    expect(msg.subarray(2, 5).toString('hex')).toBe('12c801');
  });
  it('encodes epoch 2^53 as an 8-byte varint nested in Epoch', () => {
    const msg = Buffer.from(serializeMessage({ ...base, namespace: '', epoch: 2n ** 53n })).toString('hex');
    expect(msg).toContain('2209' + '08' + '8080808080808010');
  });
  it('refuses epochs that a number cannot hold exactly, and unknown suites', () => {
    expect(() => serializeMessage({ ...base, namespace: '', epoch: 2 ** 53 })).toThrow(RangeError);
    expect(() => serializeMessage({ ...base, namespace: '', epoch: -1 })).toThrow(RangeError);
    expect(() => serializeMessage({ ...base, namespace: '', ciphersuite: 3 as Ciphersuite })).toThrow(RangeError);
  });
});

describe('weak keys and malformed signatures (verify_strict)', () => {
  // Encodings of points of small order (the 8-torsion; published in libsodium's and dalek's blocklists)
  // and a non-canonical encoding (y = p).
  const weak: [string, string][] = [
    ['identity (0, 1)', '0100000000000000000000000000000000000000000000000000000000000000'],
    ['order 2 (0, -1)', 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'],
    ['order 4 (y = 0)', '0000000000000000000000000000000000000000000000000000000000000000'],
    ['order 8', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'],
    ['order 8', 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'],
    ['order 8 (other sign)', '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85'],
  ];
  it.each(weak)('refuses the %s public key', (_name, k) => {
    expect(publicKeyProblem(hex(k))).toBe('small-order');
    expect(() => verifyingKey(hex(k))).toThrow(WeakKeyError);
  });

  it('refuses non-canonical and wrong-length keys', () => {
    expect(publicKeyProblem(hex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'))).toBe('encoding');
    expect(publicKeyProblem(hex(TEST_KEY).subarray(0, 31))).toBe('length');
    expect(publicKeyProblem(hex(TEST_KEY))).toBeUndefined();
  });

  it('refuses the identity key with R = identity, S = 0 (OpenSSL 3 alone accepts it over any message)', () => {
    const identity = hex(weak[0]![1]);
    const sig = Buffer.concat([identity, Buffer.alloc(32)]);
    expect(signatureProblem(sig)).toBe('r-small-order');
    expect(verifyRecordWithKey({ ciphersuite: 1, namespace: 'n', timestamp: 1, epoch: 1, digest: D11, signature: sig.toString('hex') }, identity.toString('hex'))).toMatchObject({
      valid: false,
    });
    expect(verifyRecord({ ciphersuite: 1, namespace: 'n', timestamp: 1, epoch: 1, digest: D11, signature: sig.toString('hex') }, [{ public_key: identity.toString('hex'), not_before: 0 }])).toMatchObject({
      valid: false,
      reason: 'no usable key was valid at the record timestamp',
    });
  });

  it('refuses S ≥ L (a malleated copy of a valid signature)', () => {
    const v = kVectors[0]!;
    const sig = hex(v.signature);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
    const s2 = s + L;
    const out = Buffer.from(sig);
    for (let i = 0; i < 32; i++) out[32 + i] = Number((s2 >> BigInt(8 * i)) & 0xffn);
    expect(signatureProblem(out)).toBe('s-range');
    expect(verifyStrict(verifyingKey(hex(v.publicKey)), serializeMessage(fields(v)), out)).toBe(false);
  });

  it('refuses signatures that are not 64 bytes of hex', () => {
    const v = kVectors[0]!;
    const keys = [{ public_key: v.publicKey, not_before: 0 }];
    expect(signatureProblem(hex(v.signature).subarray(0, 63))).toBe('length');
    for (const signature of [v.signature.slice(0, 126), `${v.signature}00`, `${v.signature.slice(0, 126)}zz`, '']) {
      expect(verifyRecord(record(v, { signature }), keys)).toEqual({ valid: false, reason: 'signature is not 64 bytes of hex' });
    }
  });

  it('a record without version or ciphersuite does not parse, as in plexi', () => {
    const v = kVectors[0]!;
    const { ciphersuite: _c, ...bare } = record(v);
    expect(verifyRecord(bare, [{ public_key: v.publicKey, not_before: 0 }])).toEqual({ valid: false, reason: 'either version or ciphersuite must be provided' });
    expect(verifyRecord({ ...bare, version: 1 }, [{ public_key: v.publicKey, not_before: 0 }])).toMatchObject({ valid: true });
  });

  it('key selection: key_id must match and not_before must not be after the timestamp', () => {
    const v = kVectors[0]!;
    expect(verifyRecord(record(v, { key_id: 188 }), [{ public_key: v.publicKey, not_before: 0 }])).toMatchObject({ valid: true });
    expect(verifyRecord(record(v, { key_id: 187 }), [{ public_key: v.publicKey, not_before: 0 }])).toMatchObject({ valid: false });
    expect(verifyRecord(record(v), [{ public_key: v.publicKey, not_before: v.timestamp + 1 }])).toMatchObject({ valid: false });
    // The right key among others is found.
    expect(verifyRecord(record(v), [{ public_key: WHATSAPP_KEY, not_before: 0 }, { public_key: v.publicKey, not_before: v.timestamp }])).toMatchObject({
      valid: true,
      key: { public_key: v.publicKey },
    });
  });
});
