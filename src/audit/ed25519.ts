/**
 * Ed25519 with the strictness of ed25519-dalek's `verify_strict`, which plexi verifies with. Node's
 * `crypto.verify` (OpenSSL 3) accepts the identity public key with R = identity, S = 0 over any message
 * (reference section 9), so keys and R are screened here: canonical encodings only and no point of small
 * order. Signing and the curve equation check itself stay with node:crypto.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';

const P = 2n ** 255n - 19n;
/** Order of the prime subgroup (RFC 8032 section 5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function mod(a: bigint): bigint {
  const r = a % P;
  return r < 0n ? r + P : r;
}

function pow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b = mod(b);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}

const D = mod(-121665n * pow(121666n, P - 2n));
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

function leToBigint(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = b.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

interface Point {
  x: bigint;
  y: bigint;
  z: bigint;
}

/** RFC 8032 section 5.1.3 decoding, refusing non-canonical encodings (y ≥ p, or x = 0 with the sign bit set). */
function decodePoint(bytes: Uint8Array): Point | undefined {
  if (bytes.length !== 32) return undefined;
  const sign = (bytes[31]! >> 7) & 1;
  const copy = Uint8Array.from(bytes);
  copy[31]! &= 0x7f;
  const y = leToBigint(copy);
  if (y >= P) return undefined;
  const u = mod(y * y - 1n);
  const v = mod(D * y * y + 1n);
  let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  if (vx2 !== u) {
    if (vx2 !== mod(-u)) return undefined;
    x = mod(x * SQRT_M1);
  }
  if (x === 0n && sign === 1) return undefined;
  if (Number(x & 1n) !== sign) x = P - x;
  return { x, y, z: 1n };
}

/** Doubling in projective coordinates on −x² + y² = 1 + d·x²·y² (a = −1). */
function double(p: Point): Point {
  const a = mod(p.x * p.x);
  const b = mod(p.y * p.y);
  const c = mod(2n * p.z * p.z);
  const d = mod(-a);
  const e = mod((p.x + p.y) * (p.x + p.y) - a - b);
  const g = mod(d + b);
  const f = mod(g - c);
  const h = mod(d - b);
  return { x: mod(e * f), y: mod(g * h), z: mod(f * g) };
}

/** True when [8]P is the identity, i.e. P lies in the torsion subgroup (the 8 "weak" points). */
function isSmallOrder(p: Point): boolean {
  const q = double(double(double(p)));
  return q.x === 0n && q.y === q.z;
}

export type KeyProblem = 'length' | 'encoding' | 'small-order';

/** Why a 32-byte Ed25519 public key would be refused by a strict verifier, or undefined if it is fine. */
export function publicKeyProblem(raw: Uint8Array): KeyProblem | undefined {
  if (raw.length !== 32) return 'length';
  const point = decodePoint(raw);
  if (!point) return 'encoding';
  if (isSmallOrder(point)) return 'small-order';
  return undefined;
}

export type SignatureProblem = 'length' | 'r-encoding' | 'r-small-order' | 's-range';

/** Why a 64-byte signature is malformed in the sense of `verify_strict`, or undefined. */
export function signatureProblem(sig: Uint8Array): SignatureProblem | undefined {
  if (sig.length !== 64) return 'length';
  const r = decodePoint(sig.subarray(0, 32));
  if (!r) return 'r-encoding';
  if (isSmallOrder(r)) return 'r-small-order';
  if (leToBigint(sig.subarray(32)) >= L) return 's-range';
  return undefined;
}

export class WeakKeyError extends Error {
  readonly problem: KeyProblem;
  constructor(problem: KeyProblem) {
    super(`Ed25519 public key refused: ${problem === 'length' ? 'not 32 bytes' : problem === 'encoding' ? 'not a canonical point encoding' : 'a point of small order'}`);
    this.name = 'WeakKeyError';
    this.problem = problem;
  }
}

/** A public key that passed the strict checks. */
export interface VerifyingKey {
  readonly raw: Uint8Array;
  readonly hex: string;
  /** plexi's key id: the last byte of the public key. */
  readonly keyId: number;
  readonly key: KeyObject;
}

/** plexi's `key_id`: the last byte of the 32-byte public key (so 1 in 256 keys collide). */
export function keyIdOf(raw: Uint8Array): number {
  if (raw.length !== 32) throw new RangeError('an Ed25519 public key is 32 bytes');
  return raw[31]!;
}

/**
 * Loads a raw public key, refusing the encodings a strict verifier refuses.
 * @example
 * const key = verifyingKey(Buffer.from('606a878700158d92b3a14a0fd37ec82e0f05f92fcf23146abfda2e3a2f10a9bc', 'hex'));
 * key.keyId; // 188
 */
export function verifyingKey(raw: Uint8Array): VerifyingKey {
  const problem = publicKeyProblem(raw);
  if (problem) throw new WeakKeyError(problem);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
  return { raw: Uint8Array.from(raw), hex: Buffer.from(raw).toString('hex'), keyId: keyIdOf(raw), key };
}

/** Strict verification: key already screened, signature screened here, then the curve check by OpenSSL. */
export function verifyStrict(key: VerifyingKey, message: Uint8Array, signature: Uint8Array): boolean {
  if (signatureProblem(signature) !== undefined) return false;
  return nodeVerify(null, message, key.key, signature);
}

/** A private signing key and its public half. */
export interface SigningKey {
  readonly public: VerifyingKey;
  readonly key: KeyObject;
}

function fromPrivate(key: KeyObject): SigningKey {
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError(`the signing key must be Ed25519, not ${String(key.asymmetricKeyType)}`);
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return { public: verifyingKey(Buffer.from(String(jwk.x), 'base64url')), key };
}

/** A signing key from its 32-byte RFC 8032 seed (test vectors give seeds). */
export function signingKeyFromSeed(seed: Uint8Array): SigningKey {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): fixed 16-byte header.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return fromPrivate(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

/** A signing key from a PKCS#8 PEM file's text. */
export function signingKeyFromPem(pem: string): SigningKey {
  return fromPrivate(createPrivateKey({ key: pem, format: 'pem' }));
}

/** Pure Ed25519 (no prehash, no context) over the message bytes. */
export function signMessage(key: SigningKey, message: Uint8Array): Uint8Array {
  return new Uint8Array(nodeSign(null, message, key.key));
}
