/**
 * The parts of `leakscan serve` that src/service assembles: the scanning proxy and its scan backlog,
 * confidence levels, the pid file, the event log's batches and proofs, zones, and `leakscan verify`
 * (the offline check of stored batches against the signed epochs). See docs/serve.md.
 * @example
 * import { verifyDataDir } from './serve/index.js';
 * const report = await verifyDataDir('.leakscan'); // report.ok
 */
export { verifyDataDir, verifyStores, proveEventInDataDir, formatVerifyReport, formatCoverage, type VerifyOptions, type VerifyReport, type VerifyProblem, type ZoneVerification } from './verify.js';
export { EventLog, batchKey, namespaceOf, sha256Hex, kBatchDefaults, type BatchOptions, type EventLogStats } from './batches.js';
export { ScanBacklog, kBacklogDefaults, type BacklogOptions, type BacklogStats } from './backlog.js';
export { kScanBytes, startProxy, type ProxyServer, type ProxyStats, type RemoteBody } from './proxy.js';
export { LevelledScanner } from './levels.js';
export { eventsOf, batchBytes, type LogEvent, type PendingEvent, type ExchangeInfo } from './events.js';
export { storedFields, type RequestFields, type StoredFields } from './request-fields.js';
export { batchDigest, batchFormatOf, batchLeaves, kBatchFormat, readBatchLines, type BatchHeader, type Coverage, type CoverageOutcome, type SkipCounts } from './batch-format.js';
export { Detections, type DetectionBatch } from './detections.js';
export { storedBatches, batchOfKey } from './batch-source.js';
export { ZoneResolver, parseZoneArgs, zoneIdOfHost, zoneOfIdOrHost, hostName, isZoneId, type ZoneMapping } from './zones.js';
export { writePidFile, readPidFile, removePidFile, runningService, stopService, pidFilePath, kPidFileName, type PidFile, type StopOptions, type StopResult } from './lifecycle.js';
export { ServeError, dataLockedError, kServeErrors, kVerifyProblems, type ServeErrorCode, type VerifyProblemCode } from './errors.js';
export { proveEvent, checkEventProof, createEventProofHandler, batchHint, kEventIdPattern, type EventProof, type EventProofCheck, type EventProofHandlerDeps, type EventBatchFinder } from './event-proof.js';
