/**
 * The worker pool: `createScanner()` without `workers: 0` scans on Piscina worker threads, one body
 * per task, with the same reports as the in-thread scanner. See docs/pool.md.
 */
export { PoolScanner, kDefaultTaskTimeoutMs, kDefaultQueuePerThread, type PoolScannerOptions } from './pool-scanner.js';
export { keptBytes } from './protocol.js';
export { BodyQueue, QueueBudget, handOverQueue, isPooled, kBacklogDefaults, type BacklogOptions, type BacklogStats, type ScanJob, type ScanQueue } from './body-queue.js';
