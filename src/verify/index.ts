/**
 * `leakscan verify` as library calls: the offline check of a data directory's stored batches against
 * the audit log's signed epochs, one batch's check (shared with the dashboard), and an event's
 * inclusion proof found in a data directory. See docs/serve.md.
 * @example
 * import { verifyDataDir } from './verify/index.js';
 * const report = await verifyDataDir('.leakscan'); // report.ok
 */
export { verifyDataDir, verifyStores, checkBatch, proveEventInDataDir, formatVerifyReport, formatCoverage, type VerifyOptions, type VerifyReport, type VerifyProblem, type ZoneVerification } from './verify.js';
