/**
 * Merkle proofs for the audit log's epochs: RFC 9162 tree hashing, and inclusion proofs of one leaf
 * (one event of a batch) checked against a signed epoch without the rest of the batch. See
 * docs/audit.md, "Inclusion proofs".
 * @example
 * import { buildInclusionProof, checkInclusionProof, treeDigest } from './proofs/index.js';
 * const digest = treeDigest(lines);                       // published as the epoch's digest
 * const proof = buildInclusionProof(lines, 3, record);    // record: that epoch, signed
 * checkInclusionProof(proof, keys).valid;                 // true
 */
export { leafHash, nodeHash, splitPoint, merkleRoot, inclusionPath, rootFromInclusion, verifyInclusion, kHashBytes } from './merkle.js';
export { buildInclusionProof, checkInclusionProof, treeDigest, proofError, kProofScheme, type InclusionProof, type ProofCheck } from './proof.js';
