/**
 * RFC 9162 tree hashing against vectors the code under test did not compute: the Certificate
 * Transparency reference leaves, tree heads and inclusion paths (published with transparency-dev/merkle,
 * proof/verify_test.go, and Google's certificate-transparency tests; used here as data), and a second
 * implementation written differently (an iterative stack of perfect subtrees instead of the recursive split).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inclusionPath, leafHash, merkleRoot, rootFromInclusion, splitPoint, verifyInclusion } from '../../src/proofs/index.js';

const unhex = (s: string): Buffer => Buffer.from(s, 'hex');
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
// Tree heads for sizes 0..8 of the leaves above.
const CT_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// Inclusion paths (leaf index from 0, tree size, path bottom first).
const CT_PATHS: { index: number; size: number; path: string[] }[] = [
  { index: 0, size: 1, path: [] },
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];

/** A second root: leaf hashes pushed on a stack of perfect subtrees (merged while two of one height meet), then folded right to left. */
function stackRoot(leaves: readonly Uint8Array[]): string {
  const h = (prefix: number, ...parts: Uint8Array[]): Buffer => {
    const c = createHash('sha256').update(Buffer.of(prefix));
    for (const p of parts) c.update(p);
    return c.digest();
  };
  if (leaves.length === 0) return createHash('sha256').digest('hex');
  const stack: { hash: Buffer; height: number }[] = [];
  for (const leaf of leaves) {
    let node = { hash: h(0, leaf), height: 0 };
    while (stack.length > 0 && stack[stack.length - 1]!.height === node.height) {
      const left = stack.pop()!;
      node = { hash: h(1, left.hash, node.hash), height: node.height + 1 };
    }
    stack.push(node);
  }
  let acc = stack.pop()!.hash;
  while (stack.length > 0) acc = h(1, stack.pop()!.hash, acc);
  return acc.toString('hex');
}

const many = Array.from({ length: 70 }, (_, i) => Buffer.from(`{"seq":${i},"v":"${'x'.repeat(i % 7)}"}`));

describe('RFC 9162 Merkle tree', () => {
  it('gives the CT reference tree head for every size 0..8', () => {
    const hashes = CT_LEAVES.map(leafHash);
    for (let n = 0; n <= 8; n++) expect(hex(merkleRoot(hashes.slice(0, n))), `size ${n}`).toBe(CT_ROOTS[n]);
  });

  it('gives the CT reference inclusion paths, and they verify', () => {
    const hashes = CT_LEAVES.map(leafHash);
    for (const v of CT_PATHS) {
      const tree = hashes.slice(0, v.size);
      expect(inclusionPath(tree, v.index).map(hex), `${v.index} of ${v.size}`).toEqual(v.path);
      expect(verifyInclusion(v.index, v.size, tree[v.index]!, v.path.map(unhex), unhex(CT_ROOTS[v.size]!))).toBe(true);
    }
  });

  it('splits at the largest power of two below n, not the midpoint', () => {
    expect([2, 3, 4, 5, 6, 7, 8, 9, 1000].map(splitPoint)).toEqual([1, 2, 2, 4, 4, 4, 4, 8, 512]);
  });

  it('agrees with an iterative stack-based implementation for every size up to 70', () => {
    for (let n = 0; n <= many.length; n++) expect(hex(merkleRoot(many.slice(0, n).map(leafHash))), `size ${n}`).toBe(stackRoot(many.slice(0, n)));
  });

  it("every leaf's path verifies; another leaf, index, size or root does not", () => {
    for (const n of [1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 33]) {
      const hashes = many.slice(0, n).map(leafHash);
      const root = merkleRoot(hashes);
      expect(hex(root)).toBe(stackRoot(many.slice(0, n)));
      for (let i = 0; i < n; i++) {
        const path = inclusionPath(hashes, i);
        expect(verifyInclusion(i, n, hashes[i]!, path, root), `${i} of ${n}`).toBe(true);
        for (let j = 0; j < n; j++) if (j !== i) expect(verifyInclusion(j, n, hashes[i]!, path, root), `${i} proven at ${j} of ${n}`).toBe(false);
        if (n > 1) expect(verifyInclusion(i, n, hashes[(i + 1) % n]!, path, root)).toBe(false);
        expect(verifyInclusion(i, n, hashes[i]!, path, unhex(CT_ROOTS[0]!))).toBe(false);
      }
    }
  });

  it('fails when any byte of the leaf, the path or the root changes, or the path is longer or shorter', () => {
    const n = 11;
    const hashes = many.slice(0, n).map(leafHash);
    const root = merkleRoot(hashes);
    for (let i = 0; i < n; i++) {
      const path = inclusionPath(hashes, i);
      const leaf = Buffer.from(many[i]!);
      for (let b = 0; b < leaf.length; b++) {
        const bad = Buffer.from(leaf);
        bad[b]! ^= 1;
        expect(verifyInclusion(i, n, leafHash(bad), path, root)).toBe(false);
      }
      for (let p = 0; p < path.length; p++) {
        for (let b = 0; b < 32; b++) {
          const bad = path.map((x) => Buffer.from(x));
          bad[p]![b]! ^= 0x80;
          expect(verifyInclusion(i, n, hashes[i]!, bad, root)).toBe(false);
        }
      }
      for (let b = 0; b < 32; b++) {
        const bad = Buffer.from(root);
        bad[b]! ^= 4;
        expect(verifyInclusion(i, n, hashes[i]!, path, bad)).toBe(false);
      }
      expect(verifyInclusion(i, n, hashes[i]!, [...path, root], root)).toBe(false);
      expect(verifyInclusion(i, n, hashes[i]!, [root, ...path], root)).toBe(false);
      expect(verifyInclusion(i, n, hashes[i]!, path.slice(1), root)).toBe(false);
    }
  });

  it('refuses impossible positions and hashes that are not 32 bytes', () => {
    const h = leafHash(Buffer.from('a'));
    expect(rootFromInclusion(0, 0, h, [])).toBeNull();
    expect(rootFromInclusion(1, 1, h, [])).toBeNull();
    expect(rootFromInclusion(-1, 2, h, [h])).toBeNull();
    expect(rootFromInclusion(0, 2, h, [h.subarray(1)])).toBeNull();
    expect(rootFromInclusion(0, 1, h.subarray(1), [])).toBeNull();
    expect(() => inclusionPath([h], 1)).toThrow(RangeError);
  });
});
