/** Inclusion proofs under a signed epoch: a good one checks, and each kind of tampering has its own code. */
import { describe, expect, it } from 'vitest';
import { recordMessage, signingKeyFromSeed, signMessage, type EpochRecord } from '../../src/audit/index.js';
import { buildInclusionProof, checkInclusionProof, treeDigest, type InclusionProof } from '../../src/proofs/index.js';

const signer = signingKeyFromSeed(Buffer.alloc(32, 7));
const other = signingKeyFromSeed(Buffer.alloc(32, 9));
const keys = [{ public_key: signer.public.hex, not_before: 0 }];
const lines = Array.from({ length: 6 }, (_, i) => Buffer.from(JSON.stringify({ batch: 3, seq: i, id: `r-${i}`, redacted: '****1111' })));

function signed(digest: string, key = signer): EpochRecord {
  const r = { version: 1, ciphersuite: 1, namespace: 'events.z', timestamp: 1_700_000_000_000, epoch: 3, digest } as const;
  return { ...r, signature: Buffer.from(signMessage(key, recordMessage(r))).toString('hex') };
}

describe('inclusion proofs', () => {
  const record = signed(treeDigest(lines));
  const proof = buildInclusionProof(lines, 4, record);

  it('carries only the one leaf and hashes, and checks', () => {
    expect(proof.leaf).toBe(lines[4]!.toString());
    expect(JSON.stringify(proof)).not.toContain('r-3');
    const r = checkInclusionProof(JSON.parse(JSON.stringify(proof)), keys, { namespace: 'events.z', epoch: 3 });
    expect(r.valid).toBe(true);
  });

  it('every leaf of the tree has a proof that checks', () => {
    for (let i = 0; i < lines.length; i++) expect(checkInclusionProof(buildInclusionProof(lines, i, record), keys).valid, `leaf ${i}`).toBe(true);
  });

  const tampered: [string, (p: InclusionProof) => unknown, string][] = [
    ['an altered leaf', (p) => ({ ...p, leaf: p.leaf.replace('****', '4111') }), 'SDD_ERR_PROOF_PATH'],
    ['another index', (p) => ({ ...p, index: 3 }), 'SDD_ERR_PROOF_PATH'],
    ['an altered path hash', (p) => ({ ...p, path: p.path.map((h, i) => (i === 1 ? `${h[0] === '0' ? '1' : '0'}${h.slice(1)}` : h)) }), 'SDD_ERR_PROOF_PATH'],
    ['a shortened path', (p) => ({ ...p, path: p.path.slice(1) }), 'SDD_ERR_PROOF_PATH'],
    ['another digest in the record', (p) => ({ ...p, record: { ...p.record, digest: 'ab'.repeat(32) } }), 'SDD_ERR_PROOF_SIGNATURE'],
    ['a record signed by another key', (p) => ({ ...p, record: signed(p.record.digest, other) }), 'SDD_ERR_PROOF_SIGNATURE'],
    ['another epoch', (p) => ({ ...p, epoch: 4 }), 'SDD_ERR_PROOF_SIGNATURE'],
    ['a missing path', (p) => ({ ...p, path: undefined }), 'SDD_ERR_PROOF_MALFORMED'],
    ['an upper-case hash', (p) => ({ ...p, path: p.path.map((h) => h.toUpperCase()) }), 'SDD_ERR_PROOF_MALFORMED'],
    ['another scheme', (p) => ({ ...p, scheme: 'sha1' }), 'SDD_ERR_PROOF_MALFORMED'],
  ];
  for (const [what, change, code] of tampered) {
    it(`fails with ${code} for ${what}`, () => {
      const r = checkInclusionProof(change(structuredClone(proof)), keys);
      expect(r.valid).toBe(false);
      if (!r.valid) expect(r.code).toBe(code);
    });
  }

  it('fails with SDD_ERR_PROOF_EVENT when it is for another epoch than the one asked about', () => {
    const r = checkInclusionProof(proof, keys, { epoch: 2 });
    expect(r.valid ? null : r.code).toBe('SDD_ERR_PROOF_EVENT');
  });
});
