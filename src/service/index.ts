/**
 * `leakscan serve` as a library call: the one place that assembles the service (Rulesets API,
 * dashboard, epoch audit log, scanning proxy, events in batches signed as epochs, fleet publishers,
 * alerts, Logpush) from the parts its capability folders export. See docs/serve.md.
 * @example
 * import { startServe } from './service/index.js';
 * const svc = await startServe({ dataDir: '.leakscan', origin: 'http://127.0.0.1:3000' });
 * await svc.close();
 */
export { startServe, type ServeOptions, type ServeHandle, type ServeStats, type PortHandler } from './service.js';
