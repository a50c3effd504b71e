/**
 * RFC 9162 (Certificate Transparency 2.0) Merkle tree hashing, §2.1: the tree over n leaves, the
 * audit path of one leaf, and the check of such a path against a root. The same hashing as RFC 6962,
 * so a third party can check a proof with any CT library (e.g. transparency-dev/merkle).
 *
 *   leaf hash  = SHA-256(0x00 || leaf bytes)
 *   node hash  = SHA-256(0x01 || left || right)
 *   MTH(D[n])  = node(MTH(D[0:k]), MTH(D[k:n])), k the largest power of two below n
 */
import { createHash } from 'node:crypto';

/** Bytes of every hash of the tree (SHA-256). */
export const kHashBytes = 32;

/** SHA-256(0x00 || leaf): the hash of one leaf's bytes. */
export function leafHash(leaf: Uint8Array): Buffer {
  return createHash('sha256').update(Uint8Array.of(0)).update(leaf).digest();
}

/** SHA-256(0x01 || left || right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(Uint8Array.of(1)).update(left).update(right).digest();
}

/** k of RFC 9162 §2.1.1: the largest power of two smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH over leaf hashes (not leaf bytes); the empty tree's root is SHA-256 of nothing. */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Buffer {
  if (leafHashes.length === 0) return createHash('sha256').digest();
  return subtreeRoot(leafHashes, 0, leafHashes.length);
}

function subtreeRoot(h: readonly Uint8Array[], from: number, to: number): Buffer {
  const n = to - from;
  if (n === 1) return Buffer.from(h[from]!);
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(h, from, from + k), subtreeRoot(h, from + k, to));
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1: the sibling hashes from leaf `index` up to the root, bottom first. */
export function inclusionPath(leafHashes: readonly Uint8Array[], index: number): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) throw new RangeError(`leaf ${index} is not in a tree of ${leafHashes.length}`);
  const out: Buffer[] = [];
  let from = 0;
  let to = leafHashes.length;
  // Walk down from the root, noting each sibling subtree; the path lists them bottom-up.
  while (to - from > 1) {
    const k = splitPoint(to - from);
    if (index < from + k) {
      out.push(subtreeRoot(leafHashes, from + k, to));
      to = from + k;
    } else {
      out.push(subtreeRoot(leafHashes, from, from + k));
      from += k;
    }
  }
  return out.reverse();
}

/**
 * The root that leaf hash `hash` at `index` of a tree of `size` leaves leads to along `path`
 * (RFC 9162 §2.1.3.2), or null when the path cannot belong to such a tree (wrong length, index out of
 * range, a hash that is not 32 bytes).
 */
export function rootFromInclusion(index: number, size: number, hash: Uint8Array, path: readonly Uint8Array[]): Buffer | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  if (hash.length !== kHashBytes || path.some((p) => p.length !== kHashBytes)) return null;
  // fn, sn as BigInt: bit operations on numbers are 32-bit, indexes are not.
  let fn = BigInt(index);
  let sn = BigInt(size - 1);
  let r: Buffer = Buffer.from(hash);
  for (const p of path) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

/** Whether `path` proves leaf hash `hash` at `index` in the tree of `size` leaves with root `root`. */
export function verifyInclusion(index: number, size: number, hash: Uint8Array, path: readonly Uint8Array[], root: Uint8Array): boolean {
  const r = rootFromInclusion(index, size, hash, path);
  return r !== null && root.length === kHashBytes && r.equals(root);
}
