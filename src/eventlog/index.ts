/**
 * The event log: what a scanned exchange becomes (events, their stored request fields), how events
 * are written as per-zone batches (the batch format, keys, `EventLog`, epoch publishing), the inclusion
 * proof of one event, and zones (which log a host's events go to). The proxy, the fleet, the events
 * index, the dashboard and `leakscan verify` all build on it; it imports none of them. The error
 * catalogue of `serve`, `stop` and `verify` (SERVE_ERR_*, VERIFY_*) sits here, below all its users.
 * @example
 * import { EventLog, batchKey, zoneIdOfHost } from './eventlog/index.js';
 * const key = batchKey(zoneIdOfHost('shop.example'), 1); // events/{zone}/0000000001.ndjson
 */
export { eventsOf, pathOf, batchBytes, type LogEvent, type PendingEvent, type ExchangeInfo } from './events.js';
export { storedFields, type RequestFields, type StoredFields, type ScanText } from './request-fields.js';
export {
  addCoverage, batchDigest, batchFormatOf, batchLeaves, emptyCoverage, kBatchFormat, kSkipReasons, readBatchLines,
  type BatchHeader, type Coverage, type CoverageOutcome, type SkipCounts,
} from './batch-format.js';
export {
  EventLog, batchKey, batchNumberOf, batchPrefix, kBatchDefaults, listBatchZones, listKeys, listPrefixes, namespaceOf,
  publishBatchEpoch, publishPendingBatches, putBatch, readZoneState, sha256Hex,
  type BatchOptions, type EventLogStats, type ZoneState,
} from './batches.js';
export { proveEvent, checkEventProof, createEventProofHandler, batchHint, kEventIdPattern, type EventProof, type EventProofCheck, type EventProofHandlerDeps, type EventBatchFinder } from './event-proof.js';
export { ZoneResolver, parseZoneArgs, zoneIdOfHost, zoneOfIdOrHost, hostName, isZoneId, type ZoneMapping } from './zones.js';
export { ServeError, dataLockedError, kServeErrors, kVerifyProblems, type ServeErrorCode, type VerifyProblemCode } from './errors.js';
