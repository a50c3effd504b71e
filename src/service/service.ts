/**
 * `leakscan serve` as a library call: the Rulesets API, the epoch audit log, and (with an origin) the
 * scanning proxy, on one data directory, with the event pipeline between them:
 *
 *   proxy ─tap─► body queue (the pool's) ─► scanner pool ─► findings × effective rules ─► events
 *         ─► EventLog: per-zone batches in DIR/events (NDJSON) ─► epoch n of `events.{zone}` (in-process publish)
 *
 * The audit log is published to in-process (`AuditLog.publish`, the same code and per-namespace queue
 * the mutual-TLS endpoint B2 runs), because the two live in one process that holds the log's store:
 * going through TLS to itself would add a handshake and a failure mode, and prove nothing more.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createApiHandler, kApiPrefix, openApi, sendNoRoute, tokenAllows, type TokenInfo } from '../api/index.js';
import { batchOfKey, executeEventsQuery, indexOnPut, openEventIndex, storedBatches } from '../events/index.js';
import { createDashboardHandler, Detections } from '../dashboard/index.js';
import { startAuditServer, type AuditServer } from '../audit/index.js';
import { createScanner } from '../scanner.js';
import { openBucket, type LocalBucket, type StoreBucket } from '../storage/index.js';
import { openLogpush, type LogpushStats } from '../logpush/index.js';
import { BodyQueue, isPooled, type PoolScannerOptions } from '../pool/index.js';
import type { RulesetService } from '../rulesets/index.js';
import type { Scanner } from '../types.js';
import { createEventProofHandler, dataLockedError, EventLog, namespaceOf, proveEvent, ServeError, ZoneResolver, type BatchOptions, type EventLogStats, type ZoneMapping } from '../eventlog/index.js';
import { LevelledScanner, ScanBacklog, startProxy, type BacklogOptions, type BacklogStats, type ProxyServer, type ProxyStats, type RemoteBody, type ScanQueue } from '../serve/index.js';
import { Alerts, alertOptionsFromEnv, type AlertingCall, type AlertOptions } from '../alerts/index.js';
import { Batcher, BodyPublisher, kBodiesMaxBytesDefault, openS3Url, connectBus, ensureBodiesStream, ensureEventsStream, EventPublisher, type BatcherStats, type BodyPublisherStats, type BusLogin, type PublisherStats } from '../fleet/index.js';

/** Handles a request on the API port; resolves false when the path is not its own (next handler). */
export type PortHandler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<boolean>;

export interface ServeOptions {
  /** Data directory (created if missing): admin-token, tokens.mdb (+ tokens.mdb-lock), rulesets/, tls/, audit/, events/. */
  dataDir: string;
  /** Listen address of every port. Default 127.0.0.1. */
  host?: string;
  /** Rulesets API (and dashboard). Default 8787; 0 picks a free port. */
  port?: number;
  /** Epoch audit log (HTTPS). Default 8788; 0 picks a free port. */
  auditPort?: number;
  /** Proxy, started only with `origin`. Default 8080; 0 picks a free port. */
  proxyPort?: number;
  /** Origin the proxy forwards to (`http://` or `https://` URL). */
  origin?: string;
  /** CA certificate(s) (PEM) trusted for an https origin instead of the system's CAs. */
  originCa?: string | Buffer;
  /** CA certificate(s) (PEM) trusted for Logpush `https://` destinations, in addition to the system's CAs. */
  logpushCa?: string | Buffer;
  /** Host → zone mapping (see zones.ts). */
  zones?: ZoneMapping;
  /** Worker threads of the scanner pool; default one per core. */
  workers?: number;
  batch?: BatchOptions;
  backlog?: BacklogOptions;
  /** Spike alerts' thresholds, retries and account id (src/alerts); `LEAKSCAN_ALERT_*` variables override them. */
  alerts?: AlertOptions;
  /** How long `close()` lets proxied exchanges in progress finish. Default 10 s. */
  drainMs?: number;
  /**
   * A NATS server with JetStream (`nats://HOST:PORT`): events and each response's outcome are published
   * to the stream (`events.<zone>`, src/fleet) instead of being batched here, and a batcher in this
   * process writes them, competing with any `leakscan batcher` on the same stores (docs/fleet.md).
   */
  nats?: string;
  /** With `nats`: how to log in to it (credentials and TLS; `busLogin` in src/fleet). Default none. */
  natsLogin?: BusLogin;
  /**
   * An S3 bucket (`http(s)://HOST[:PORT]/BUCKET[?region=R&if-match=unquoted]`, credentials from the
   * AWS_* variables) holding the events' batches and the audit log instead of DIR/events and
   * DIR/audit/log: the fleet's shared bucket (docs/fleet.md). The signing key, TLS material, tokens and
   * rulesets stay in DIR, and DIR/events is still opened for its lock (what `leakscan stop` trusts).
   */
  s3?: string;
  /**
   * Where captured bodies are scanned (with `nats`): `local` (default) in this process; `remote` all
   * of them by `leakscan scan-worker`s, through the bodies stream; `overflow` here, and by the workers
   * when the backlog's queue is full.
   */
  scan?: 'local' | 'remote' | 'overflow';
  /** Bytes the bodies stream holds before refusing bodies (created with it). Default 256 MiB. */
  bodiesMaxBytes?: number;
  /**
   * With `nats`: run a batcher in this process on its own stores (default true). False leaves batching
   * to `leakscan batcher` processes on the fleet's S3 bucket.
   */
  batcher?: boolean;
  /** More handlers on the API port, tried after the Rulesets API (the dashboard mounts here). */
  handlers?: readonly PortHandler[];
  /** Scanner factory (tests); default the library's `createScanner`. */
  createScanner?: (options: PoolScannerOptions) => Promise<Scanner>;
  /** Progress lines (what `leakscan serve` prints). */
  log?: (line: string) => void;
  /** Unexpected errors; default: printed by `log` as `error: …`. */
  onError?: (err: unknown) => void;
}

export interface ServeStats {
  proxy: ProxyStats | null;
  backlog: BacklogStats | null;
  events: EventLogStats;
  /** With `nats`: what was published to the stream, and what this process's batcher wrote. */
  bus: { publisher: PublisherStats; batcher: BatcherStats | null; bodies: BodyPublisherStats | null } | null;
  /** Events buffered, not yet written. */
  eventsBuffered: number;
  logpush: LogpushStats;
}

export interface ServeHandle {
  readonly api: { url: string; port: number };
  readonly audit: { url: string; port: number };
  readonly proxy: { url: string; port: number } | null;
  /** The admin API token, and whether this start created it. */
  readonly admin: { token: string; created: boolean };
  /** Files this start created (TLS material, signing key). */
  readonly created: string[];
  /** Hex public key of the audit log's signer. */
  readonly publicKey: string;
  /** Batches published by the start-up repair (written but unpublished at the last stop). */
  readonly recovered: number;
  /** The account id of the Notifications API (`/accounts/{accountId}/alerting/v3`). */
  readonly accountId: string;
  readonly rulesets: RulesetService;
  stats(): ServeStats;
  /** Writes and publishes every event accepted so far (tests; the service does it by size and time). */
  flush(): Promise<void>;
  /** Drains and stops: no new connections, exchanges finish, every accepted event is written and published. */
  close(): Promise<void>;
}

async function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new ServeError('SERVE_ERR_LISTEN', `${what} on ${host}:${port}: ${e.code ?? e.message}`, { cause: e })));
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function checkOrigin(origin: string): URL {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    throw new ServeError('SERVE_ERR_INVALID_OPTION', `--origin ${JSON.stringify(origin)} is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ServeError('SERVE_ERR_INVALID_OPTION', `--origin ${JSON.stringify(origin)}: only http:// and https:// origins are supported`);
  if (u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '') {
    throw new ServeError('SERVE_ERR_INVALID_OPTION', `--origin ${JSON.stringify(origin)}: give scheme, host, port and an optional path only`);
  }
  return u;
}

/** The alert options with `LEAKSCAN_ALERT_*` applied; a bad value is a bad option of the start. */
function checkAlertOptions(base: AlertOptions | undefined): AlertOptions {
  try {
    return alertOptionsFromEnv(process.env, base);
  } catch (e) {
    throw new ServeError('SERVE_ERR_INVALID_OPTION', (e as Error).message, { cause: e });
  }
}

/**
 * `nats`: the events stream, the publisher the proxy hands events and outcomes to, and a batcher on
 * this process's stores. `close()` waits for every publish to be acknowledged, lets the batcher make
 * its last pass, then closes the connection.
 */
async function startBus(
  url: string,
  o: {
    login: BusLogin | undefined;
    bucket: import('../storage/index.js').StoreBucket;
    log: import('../audit/index.js').AuditLog;
    batch: BatchOptions | undefined;
    /** Create the bodies stream and a body publisher (`--scan remote|overflow`), with this byte bound. */
    bodiesMaxBytes: number | null;
    batcher: boolean;
    onError: (err: unknown) => void;
    onPublished: (zone: string, n: number) => void;
  },
): Promise<{ publisher: EventPublisher; bodies: BodyPublisher | null; batcher: Batcher | null; close(): Promise<void> }> {
  const nc = await connectBus(url, 'leakscan-serve', o.login);
  try {
    await ensureEventsStream(nc);
    if (o.bodiesMaxBytes !== null) await ensureBodiesStream(nc, o.bodiesMaxBytes);
  } catch (e) {
    await nc.close();
    throw e;
  }
  const publisher = new EventPublisher(nc, { onError: o.onError });
  const bodies = o.bodiesMaxBytes === null ? null : new BodyPublisher(nc, { onError: o.onError });
  const batcher = o.batcher
    ? new Batcher({
        nc,
        bucket: o.bucket,
        log: o.log,
        ...(o.batch?.size === undefined ? {} : { size: o.batch.size }),
        ...(o.batch?.intervalMs === undefined ? {} : { intervalMs: o.batch.intervalMs }),
        onError: o.onError,
        onPublished: o.onPublished,
      })
    : null;
  await batcher?.start();
  return {
    publisher,
    bodies,
    batcher,
    close: async () => {
      await publisher.idle();
      await batcher?.close();
      await nc.drain().catch(o.onError);
    },
  };
}

/**
 * Starts the whole service on `dataDir`. Resolves once every listener accepts connections.
 * @example
 * const svc = await startServe({ dataDir: '.leakscan', origin: 'http://127.0.0.1:3000' });
 * if (svc.admin.created) console.log(`admin token: ${svc.admin.token}`);
 * // … on SIGTERM:
 * await svc.close();
 */
export async function startServe(options: ServeOptions): Promise<ServeHandle> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const onError = options.onError ?? ((e: unknown) => log(`error: ${(e as Error)?.message ?? String(e)}`));
  const origin = options.origin === undefined ? null : checkOrigin(options.origin);
  const alertOptions = checkAlertOptions(options.alerts);
  if ((options.scan ?? 'local') !== 'local' && options.nats === undefined) throw new ServeError('SERVE_ERR_INVALID_OPTION', `--scan ${options.scan} needs --nats (the scan workers take bodies from the bus)`);
  const zones = new ZoneResolver(options.zones);
  const cleanup: Array<() => Promise<void>> = [];
  const unwind = async (): Promise<void> => {
    for (const c of cleanup.reverse()) await c().catch(onError);
  };

  try {
    const { service, tokens, admin } = await openApi(options.dataDir);
    cleanup.push(() => tokens.close());
    // Closed last: the audit log and the events live on it.
    const s3 = options.s3 === undefined ? null : await openS3Url(options.s3);
    if (s3 !== null) cleanup.push(() => s3.close());
    let audit: AuditServer;
    try {
      audit = await startAuditServer({ dataDir: options.dataDir, port: options.auditPort ?? 8788, host, onError, ...(s3 === null ? {} : { bucket: s3 }) });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException)?.code;
      if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
        throw new ServeError('SERVE_ERR_LISTEN', `audit log on ${host}:${options.auditPort ?? 8788}: ${code}`, { cause: e });
      }
      throw dataLockedError(e);
    }
    cleanup.push(() => audit.close());

    let local: LocalBucket;
    try {
      local = await openBucket({ dir: join(options.dataDir, 'events') });
    } catch (e) {
      throw dataLockedError(e);
    }
    cleanup.push(() => local.close());
    const bucket: StoreBucket = s3 ?? local;
    // Logpush jobs (src/logpush) push each zone's batches up to its latest epoch, woken as each is published.
    const logpush = await openLogpush({
      dir: join(options.dataDir, 'logpush'),
      source: { read: storedBatches(bucket).read, published: (zone) => audit.log.latest(namespaceOf(zone)).then((r) => r.epoch, () => 0) },
      onError,
      ...(options.logpushCa === undefined ? {} : { ca: options.logpushCa }),
    });
    cleanup.push(() => logpush.close());
    // The events index (src/events): every batch is indexed as it is written, and a start indexes the
    // batches it lacks (a new or deleted index, a crash between writing and indexing).
    const index = openEventIndex(join(options.dataDir, 'events-index.mdb'), { log });
    cleanup.push(() => index.close());
    const indexedBucket = indexOnPut(bucket, index, batchOfKey, onError);
    const events = new EventLog({ bucket: indexedBucket, log: audit.log, ...options.batch, onError, onPublished: (zone, n) => logpush.notify(zone, n) });
    const recovered = await events.recover();
    const scanMode = options.scan ?? 'local';
    const bus =
      options.nats === undefined
        ? null
        : await startBus(options.nats, {
            login: options.natsLogin,
            bucket: indexedBucket,
            log: audit.log,
            batch: options.batch,
            bodiesMaxBytes: scanMode === 'local' ? null : (options.bodiesMaxBytes ?? kBodiesMaxBytesDefault),
            batcher: options.batcher ?? true,
            onError,
            onPublished: (zone, n) => logpush.notify(zone, n),
          });
    if (bus !== null) cleanup.push(() => bus.close());
    logpush.start();
    const indexed = await index.catchUp(storedBatches(bucket));
    if (indexed.batches > 0) log(`indexed: ${indexed.events} events of ${indexed.batches} stored batches`);
    cleanup.push(() => events.close());
    // Spike alerts (src/alerts): fed every zone's new events below; closed after the proxy has drained.
    const alerts = await Alerts.open(options.dataDir, alertOptions, onError);
    cleanup.push(() => alerts.close());
    log(`alerting account: ${alerts.accountId}`);

    const graphql = (body: unknown, token: TokenInfo) => executeEventsQuery(index, body, { canRead: (zone) => tokenAllows(token, zone, false) }, onError);
    const apiHandle = createApiHandler({ service, tokens, onError, graphql, alerting: (call) => alerts.answer(call), logpush: logpush.api });
    // Security › Events on the dashboard: the same index, proofs and Notifications API as the API's.
    const securityEvents = {
      index,
      prove: (zone: string, id: string, batch?: number) => proveEvent(bucket, audit.log, zone, id, audit.log.info().keys, batch === undefined ? {} : { batch }),
      alerts: { accountId: alerts.accountId, answer: (call: AlertingCall) => alerts.answer(call) },
    };
    const dashboard = createDashboardHandler({ service, tokens, onError, detections: new Detections(bucket, audit.log), events: securityEvents, ...(options.zones === undefined ? {} : { zones: options.zones }) });
    const proofs = createEventProofHandler({ bucket, log: audit.log, tokens, onError, index });
    const handlers: PortHandler[] = [proofs, apiHandle, dashboard, ...(options.handlers ?? [])];
    const apiServer = createServer((req, res) => {
      void (async () => {
        for (const h of handlers) if (await h(req, res)) return;
        req.resume();
        sendNoRoute(res);
      })().catch((e: unknown) => {
        onError(e);
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    apiServer.requestTimeout = 30_000;
    apiServer.headersTimeout = 10_000;
    const apiPort = await listen(apiServer, options.port ?? 8787, host, 'Rulesets API');
    cleanup.push(() => closeServer(apiServer));

    let backlog: ScanQueue | null = null;
    let proxy: ProxyServer | null = null;
    if (origin !== null) {
      const make = options.createScanner ?? createScanner;
      // Every managed rule, once per worker: each response's effective rules then select the findings
      // (rule ids, and each rule's threshold from the zone's sensitivity_level). At the default level
      // until a zone keeps findings below it; then at `low` (levels.ts).
      const workers = options.workers;
      const poolOptions = { allRules: true, ...(workers === undefined ? {} : { workers }) };
      const scanner = new LevelledScanner(await make(poolOptions), 'high', (minConfidence) => make({ ...poolOptions, minConfidence }));
      cleanup.push(() => scanner.close());
      // One queue between capture and scan: a pooled scanner's own (src/pool/body-queue.ts), each body
      // copied once into the workers' shared memory and handed to them as they have room, several small
      // ones to a task (docs/pool.md, "Queued bodies travel together"). A scanner in this thread
      // (`workers: 0`, or a test's, which may wrap a pool) has the in-thread backlog in front: two bodies
      // at a time in this thread, eight per worker thread otherwise.
      const threads = workers === 0 ? 1 : (workers ?? availableParallelism());
      backlog = isPooled(scanner.current)
        ? new BodyQueue(() => scanner.current, { ...options.backlog, onError })
        : new ScanBacklog(scanner, { concurrency: (workers === 0 ? 2 : 8) * threads, ...options.backlog, onError });
      const b = backlog;
      cleanup.push(() => b.idle());
      try {
        proxy = await startProxy({
          origin,
          port: options.proxyPort ?? 8080,
          host,
          zones,
          rules: (zone, traffic) => service.effectiveRules(zone, traffic),
          backlog,
          onEvents: (zone, list) => {
            if (bus === null) events.add(zone, list);
            else void bus.publisher.events(zone, list);
            alerts.observe(zone, list);
          },
          onCoverage: (zone, outcome, truncated, requestId) => {
            if (bus === null) events.count(zone, outcome, truncated);
            else void bus.publisher.outcome(zone, { requestId, outcome, truncated });
          },
          reach: (level) => scanner.reach(level),
          ...(bus?.bodies == null || scanMode === 'local'
            ? {}
            : { remote: { mode: scanMode, send: (b: RemoteBody) => bus.bodies!.publish({ info: b.info, thresholds: b.thresholds, overflowed: b.overflowed }, b.chunks) } }),
          scanFields: (text) => scanner.scan(text, { contentType: 'text/plain' }),
          onError,
          ...(options.originCa === undefined ? {} : { originCa: options.originCa }),
        });
      } catch (e) {
        throw new ServeError('SERVE_ERR_LISTEN', `proxy on ${host}:${options.proxyPort ?? 8080}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
      }
      const p = proxy;
      cleanup.push(() => p.close(options.drainMs ?? 10_000));
    }

    let closing: Promise<void> | null = null;
    return {
      api: { url: `http://${host}:${apiPort}${kApiPrefix}`, port: apiPort },
      audit: { url: audit.url, port: audit.port },
      proxy: proxy === null ? null : { url: proxy.url, port: proxy.port },
      admin,
      created: audit.material.created,
      publicKey: audit.material.signing.signer.public.hex,
      recovered: recovered.published,
      accountId: alerts.accountId,
      rulesets: service,
      stats: () => ({
        proxy: proxy?.stats() ?? null,
        backlog: backlog?.stats() ?? null,
        events: { ...events.stats },
        bus: bus === null ? null : { publisher: { ...bus.publisher.stats }, batcher: bus.batcher === null ? null : { ...bus.batcher.stats }, bodies: bus.bodies === null ? null : { ...bus.bodies.stats } },
        eventsBuffered: events.buffered,
        logpush: logpush.stats(),
      }),
      flush: async () => {
        await backlog?.idle();
        await events.flush();
        if (bus !== null) {
          await bus.publisher.idle();
          await bus.batcher?.pass();
        }
        await alerts.idle();
      },
      // Reverse start order: proxy drains, the backlog empties, events are written and published,
      // the scanner stops, then the API, the events bucket and the audit log close.
      close: () => (closing ??= unwind()),
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}
