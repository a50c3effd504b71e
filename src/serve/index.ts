/**
 * The scanning side of `leakscan serve`, as parts src/service assembles: the proxy that taps response
 * bodies, the scan backlog between capture and the scanner, confidence levels, and the pid file that
 * `leakscan stop` and `leakscan zone` find a running service by. See docs/serve.md.
 * @example
 * import { readPidFile } from './serve/index.js';
 * const pid = readPidFile('.leakscan'); // undefined when no service runs there
 */
export { ScanBacklog, kBacklogDefaults, type BacklogOptions, type BacklogStats, type ScanQueue } from './backlog.js';
export { kScanBytes, startProxy, type ProxyServer, type ProxyStats, type RemoteBody } from './proxy.js';
export { LevelledScanner } from './levels.js';
export { writePidFile, readPidFile, removePidFile, runningService, stopService, pidFilePath, kPidFileName, type PidFile, type StopOptions, type StopResult } from './lifecycle.js';
