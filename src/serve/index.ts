/**
 * `leakscan serve` and `leakscan verify` as library calls: the whole service on one data directory
 * (Rulesets API, epoch audit log, scanning proxy, events in batches signed as epochs) and the offline
 * check of its stored batches against the signed epochs. See docs/serve.md.
 * @example
 * import { startServe, verifyDataDir } from './serve/index.js';
 * const svc = await startServe({ dataDir: '.leakscan', origin: 'http://127.0.0.1:3000' });
 * await svc.close();
 * const report = await verifyDataDir('.leakscan'); // report.ok
 */
export { startServe, type ServeOptions, type ServeHandle, type ServeStats, type PortHandler } from './service.js';
export { verifyDataDir, verifyStores, proveEventInDataDir, formatVerifyReport, formatCoverage, type VerifyOptions, type VerifyReport, type VerifyProblem, type ZoneVerification } from './verify.js';
export { EventLog, batchKey, namespaceOf, sha256Hex, kBatchDefaults, type BatchOptions, type EventLogStats } from './batches.js';
export { ScanBacklog, kBacklogDefaults, type BacklogOptions, type BacklogStats } from './backlog.js';
export { kScanBytes, type ProxyStats } from './proxy.js';
export { eventsOf, batchBytes, type LogEvent, type PendingEvent, type ExchangeInfo } from './events.js';
export { storedFields, type RequestFields, type StoredFields } from './request-fields.js';
export { batchDigest, batchFormatOf, batchLeaves, kBatchFormat, readBatchLines, type BatchHeader, type Coverage, type CoverageOutcome, type SkipCounts } from './batch-format.js';
export { Detections, type DetectionBatch } from './detections.js';
export { storedBatches, batchOfKey } from './batch-source.js';
export { ZoneResolver, parseZoneArgs, zoneIdOfHost, zoneOfIdOrHost, hostName, isZoneId, type ZoneMapping } from './zones.js';
export { writePidFile, readPidFile, removePidFile, runningService, stopService, pidFilePath, kPidFileName, type PidFile, type StopOptions, type StopResult } from './lifecycle.js';
export { ServeError, dataLockedError, kServeErrors, kVerifyProblems, type ServeErrorCode, type VerifyProblemCode } from './errors.js';
export { proveEvent, checkEventProof, createEventProofHandler, batchHint, kEventIdPattern, type EventProof, type EventProofCheck, type EventProofHandlerDeps, type EventBatchFinder } from './event-proof.js';
