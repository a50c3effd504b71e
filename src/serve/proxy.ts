/**
 * The scanning reverse proxy: forwards each request to the origin and streams the response back
 * unchanged, while a tap copies the first bytes of the body (at most what the scanner reads) into the
 * scan backlog. The client's bytes go origin → tap → client with the client's own backpressure only;
 * the tap never waits for anything, so the scanner's speed cannot change a response's latency.
 *
 * Per response, the zone's effective rules (`RulesetService.effectiveRules`, evaluated on the request
 * and the response headers) decide whether the body is scanned at all and which findings become
 * events (their rule runs, and their confidence reaches the rule's threshold, from the zone's
 * `sensitivity_level`); a body with no rules to run, a binary Content-Type, or no body is never held.
 * What became of each response of a zone with an entry point is reported once to `onCoverage`.
 */
import { randomBytes } from 'node:crypto';
import { Agent as HttpAgent, createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { Transform, pipeline, type TransformCallback } from 'node:stream';
import { classifyContentType, parseContentEncoding } from '../content/index.js';
import { kMaxScanBytes } from '../engine/index.js';
import type { Confidence, Finding } from '../types.js';
import { keptBytes } from '../pool/index.js';
import { keepsFinding, lowestThreshold, type EffectiveRules, type Traffic } from '../rulesets/index.js';
import { eventsOf, hostName, pathOf, storedFields, type CoverageOutcome, type ExchangeInfo, type PendingEvent, type ScanText, type ZoneResolver } from '../eventlog/index.js';
import type { ScanQueue } from './backlog.js';

/** Decoded bytes the scanner reads of a body: the engine's cap (the spec's 1 MB, 1,048,576 bytes). */
export const kScanBytes = kMaxScanBytes;

export interface ProxyOptions {
  /** `http://…` or `https://…`; a path prefix is prepended to every request path. */
  origin: URL;
  port: number;
  host: string;
  zones: ZoneResolver;
  rules: (zone: string, traffic: Traffic) => Promise<EffectiveRules>;
  /** null: forward only (nothing is scanned). */
  backlog: ScanQueue | null;
  onEvents: (zone: string, events: PendingEvent[]) => void;
  /**
   * What became of a response (scanned, or why not), once per response of a zone whose rulesets have
   * an entry point: the zones someone configured, not every Host a client makes up. `requestId` is the
   * exchange's (the one its events carry), so a publisher can give the report a fixed id.
   */
  onCoverage?: (zone: string, outcome: CoverageOutcome, truncated: boolean, requestId: string) => void;
  /**
   * Scans an exchange's request fields (host, path) before they are stored in its events: see
   * request-fields.ts. Like the backlog's scanner, it reports the levels `reach` was asked for.
   */
  scanFields: ScanText;
  /**
   * Resolves once the backlog's scanner (and `scanFields`) report `level` and above; asked before a
   * body is queued with the lowest threshold of its zone's rules. Default: they report every level.
   */
  reach?: (level: Confidence) => Promise<void>;
  onError: (err: unknown) => void;
  /**
   * Scanning elsewhere (`serve --scan remote|overflow`, src/fleet): `remote` sends every captured body
   * to `send`, `overflow` only the bodies the backlog's queue has no room for. `send` resolves true
   * once the body is taken (the scan worker then reports its outcome and events); false counts it as
   * skipped over budget, as a capture the backlog could not hold. The bytes stay reserved until then.
   */
  remote?: { mode: 'remote' | 'overflow'; send: (body: RemoteBody) => Promise<boolean> };
  /** Idle time allowed on the origin connection before the exchange fails (504 before the response). Default 120 s. */
  originTimeoutMs?: number;
  /** Trust the origin's certificate only from these CAs (PEM); default: the system's. */
  originCa?: string | Buffer;
}

/** A captured body to be scanned elsewhere, with what its events need. */
export interface RemoteBody {
  info: ExchangeInfo;
  /** The zone's effective rules for this response: rule id → lowest confidence kept. */
  thresholds: Record<string, Confidence>;
  chunks: Buffer[];
  /** The body went on past what was captured, or may have (it filled the capture). */
  overflowed: boolean;
}

export interface ProxyStats {
  requests: number;
  /** Exchanges that failed at the origin (502/504 or a cut response). */
  originErrors: number;
  /** Bodiless idempotent requests sent again after the origin reset a reused keep-alive connection. */
  originRetries: number;
  /** Exchanges in progress. */
  active: number;
}

export interface ProxyServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  stats(): ProxyStats;
  /** Stops accepting, lets exchanges in progress finish for up to `drainMs`, then cuts the rest. */
  close(drainMs: number): Promise<void>;
}

/** Methods RFC 9110 §9.2.2 calls idempotent, which a proxy may send again. */
const kRetryableMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

// RFC 9110 §7.6.1: connection-specific fields are not forwarded, nor those the Connection field names.
const kHopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function hopByHop(raw: readonly string[]): Set<string> {
  const out = new Set(kHopByHop);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const t of raw[i + 1]!.split(',')) out.add(t.trim().toLowerCase());
  }
  return out;
}

/** rawHeaders without hop-by-hop fields, as a flat [name, value, …] list (names keep their case). */
function endToEnd(raw: readonly string[], drop: readonly string[] = []): string[] {
  const skip = hopByHop(raw);
  for (const d of drop) skip.add(d);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!skip.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Holds the first bytes of one body for the scanner, within the backlog's budget. */
class Capture {
  #chunks: Buffer[] = [];
  #bytes = 0;
  #state: 'open' | 'complete' | 'released' = 'open';
  /** The body went on past the limit: the scanner sees only its first part. */
  overflowed = false;
  readonly #limit: number;
  readonly #backlog: ScanQueue;
  readonly #complete: (chunks: Buffer[], bytes: number) => void;
  readonly #overBudget: () => void;

  constructor(limit: number, backlog: ScanQueue, complete: (chunks: Buffer[], bytes: number) => void, overBudget: () => void) {
    this.#limit = limit;
    this.#backlog = backlog;
    this.#complete = complete;
    this.#overBudget = overBudget;
  }

  add(chunk: Buffer): void {
    if (this.#state !== 'open') {
      if (this.#state === 'complete' && chunk.length > 0) this.overflowed = true;
      return;
    }
    const take = Math.min(chunk.length, this.#limit - this.#bytes);
    if (take < chunk.length) this.overflowed = true;
    if (!this.#backlog.reserve(take)) {
      this.#backlog.skipped();
      this.release();
      this.#overBudget();
      return;
    }
    this.#chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    this.#bytes += take;
    if (this.#bytes >= this.#limit) this.end();
  }

  /** The body ended (or was cut, or the limit reached): hand what was captured on. */
  end(): void {
    if (this.#state !== 'open') return;
    this.#state = 'complete';
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#complete(chunks, this.#bytes);
  }

  /** Gives the bytes back without scanning (no rules to run, or out of budget). */
  release(): void {
    if (this.#state !== 'open') return;
    this.#state = 'released';
    this.#chunks = [];
    this.#backlog.release(this.#bytes);
  }
}

class Tap extends Transform {
  readonly #capture: Capture;
  constructor(capture: Capture) {
    super();
    this.#capture = capture;
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#capture.add(chunk);
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    this.#capture.end();
    cb();
  }
}

/**
 * Why a request's Host header cannot be served, or null. RFC 9112 §3.2: a request with more than one
 * Host field line, or a Host with an invalid value, gets 400 (Node keeps the first of two silently).
 */
function hostProblem(raw: readonly string[]): string | null {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length !== 4 || raw[i]!.toLowerCase() !== 'host') continue;
    if (value !== undefined) return 'more than one Host header';
    value = raw[i + 1]!;
  }
  if (value === undefined || value.trim() === '') return null;
  const v = value.trim();
  const colon = v.startsWith('[') ? v.indexOf(']:') + 1 : v.lastIndexOf(':');
  if (colon > 0 && !/^:\d{0,5}$/.test(v.slice(colon))) return 'the Host header is not a host name';
  return hostName(v) === '' ? 'the Host header is not a host name' : null;
}

function plainError(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${text}\n`;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
}

/**
 * Starts the proxy on `http://host:port`. Resolves once the port accepts connections.
 * @example
 * const proxy = await startProxy({ origin: new URL('http://127.0.0.1:3000'), port: 8080, host: '127.0.0.1', zones, rules, backlog, onEvents, onError });
 */
export async function startProxy(o: ProxyOptions): Promise<ProxyServer> {
  const https = o.origin.protocol === 'https:';
  const agent = https
    ? new HttpsAgent({ keepAlive: true, maxSockets: 256, ...(o.originCa === undefined ? {} : { ca: o.originCa }) })
    : new HttpAgent({ keepAlive: true, maxSockets: 256 });
  const send = https ? httpsRequest : httpRequest;
  const prefix = o.origin.pathname.replace(/\/+$/, '');
  const originHost = o.origin.hostname.replace(/^\[|\]$/g, '');
  const originPort = o.origin.port || (https ? 443 : 80);
  // SNI carries names only (RFC 6066 §3); an IP literal origin is checked against the certificate's IP SANs.
  const sni = https && isIP(originHost) === 0 ? { servername: o.origin.hostname } : {};
  const originTimeout = o.originTimeoutMs ?? 120_000;
  const stats = { requests: 0, originErrors: 0, originRetries: 0, active: 0 };
  let drained: (() => void) | null = null;

  const exchange = (req: IncomingMessage, res: ServerResponse): void => {
    stats.requests++;
    stats.active++;
    res.once('close', () => {
      stats.active--;
      if (stats.active === 0) drained?.();
    });
    const hostHeader = req.headers.host;
    const badHost = hostProblem(req.rawHeaders);
    if (badHost !== null) {
      req.resume();
      plainError(res, 400, `leakscan: ${badHost}`);
      return;
    }
    const zone = o.zones.zoneOf(hostHeader);
    const target = req.url !== undefined && req.url.startsWith('/') ? req.url : `/${pathOf(req.url).replace(/^\/+/, '')}`;
    const forwardedFor = req.socket.remoteAddress ?? '';
    const headers: string[] = endToEnd(req.rawHeaders, ['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']);
    const priorFor = req.headers['x-forwarded-for'];
    headers.push(
      'Host', o.origin.host,
      'X-Forwarded-Host', hostHeader ?? '',
      'X-Forwarded-Proto', 'http',
      'X-Forwarded-For', priorFor ? `${Array.isArray(priorFor) ? priorFor.join(', ') : priorFor}, ${forwardedFor}` : forwardedFor,
    );
    // A bodiless request with a safe method may be sent again when the origin closed a kept-alive
    // connection just as it was reused (its keep-alive timeout raced our request: ECONNRESET before any
    // response). Node's documented remedy (http.ClientRequest#reusedSocket); one retry, new connection.
    const bodiless = req.headers['content-length'] === undefined || req.headers['content-length'] === '0';
    const retryable = bodiless && req.headers['transfer-encoding'] === undefined && kRetryableMethods.has(req.method ?? '');
    let up: ClientRequest;
    const forward = (attempt: number): void => {
      const sent = send({
        protocol: o.origin.protocol,
        hostname: originHost,
        port: originPort,
        method: req.method,
        path: prefix + target,
        headers: headers as unknown as OutgoingHttpHeaders,
        agent,
        ...sni,
      });
      up = sent;
      sent.setTimeout(originTimeout, () => sent.destroy(Object.assign(new Error(`no data from the origin for ${originTimeout} ms`), { code: 'ETIMEDOUT' })));
      sent.on('error', (err: NodeJS.ErrnoException) => {
        if (attempt === 0 && retryable && sent.reusedSocket && err.code === 'ECONNRESET' && !res.headersSent && !res.destroyed) {
          stats.originRetries++;
          forward(1);
          return;
        }
        stats.originErrors++;
        const timeout = err.code === 'ETIMEDOUT';
        plainError(res, timeout ? 504 : 502, `leakscan: ${timeout ? 'the origin did not answer in time' : `the origin could not be reached (${err.code ?? err.message})`}`);
      });
      sent.on('response', (ur: IncomingMessage) => respond(ur));
      if (retryable) sent.end();
      else req.pipe(sent);
    };
    // A client that goes away mid-exchange ends the origin side too.
    res.once('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.on('error', () => up.destroy());
    // A bodiless request's stream is drained here; one with a body is piped to the origin.
    if (retryable) req.resume();
    forward(0);

    function respond(ur: IncomingMessage): void {
      const status = ur.statusCode ?? 502;
      const contentType = typeof ur.headers['content-type'] === 'string' ? ur.headers['content-type'] : null;
      const contentEncoding = typeof ur.headers['content-encoding'] === 'string' ? ur.headers['content-encoding'] : null;
      const info: ExchangeInfo = {
        requestId: randomBytes(16).toString('hex'),
        timestamp: Date.now(),
        zone,
        method: req.method ?? 'GET',
        status,
        contentEncoding,
        fields: { host: (hostHeader ?? '').trim(), path: pathOf(req.url), contentType },
      };
      try {
        res.writeHead(status, ur.statusMessage ?? '', endToEnd(ur.rawHeaders));
      } catch (e) {
        // Headers Node refuses to send (invalid characters from a broken origin): answer 502 instead.
        o.onError(e);
        ur.destroy();
        stats.originErrors++;
        plainError(res, 502, 'leakscan: the origin sent headers that cannot be forwarded');
        return;
      }
      const capture = captureFor(info, req, ur);
      const done = (err: Error | null): void => {
        if (err && !res.writableFinished) {
          if (!ur.complete) stats.originErrors++;
          res.destroy();
        }
        // A cut body is still scanned as far as it went: the client received those bytes.
        capture?.end();
      };
      if (capture) pipeline(ur, new Tap(capture), res, done);
      else pipeline(ur, res, done);
    }
  };

  const captureFor = (info: ExchangeInfo, req: IncomingMessage, ur: IncomingMessage): Capture | null => {
    const backlog = o.backlog;
    if (backlog === null) return null;
    const noBody = req.method === 'HEAD' || info.status === 204 || info.status === 304 || (info.status >= 100 && info.status < 200);
    const binary = info.fields.contentType !== null && classifyContentType(info.fields.contentType).kind === 'binary';
    if ((noBody || binary) && o.onCoverage === undefined) return null;
    const traffic: Traffic = {
      request: {
        url: req.url ?? '/',
        method: info.method,
        headers: req.headers,
        ...(req.socket.remoteAddress === undefined ? {} : { clientIp: req.socket.remoteAddress }),
        httpVersion: `HTTP/${req.httpVersion}`,
        timestamp: info.timestamp,
      },
      response: { status: info.status, headers: ur.headers },
    };
    const effective = o.rules(info.zone, traffic).then(
      (r): EffectiveRules | null => r,
      (e: unknown) => {
        o.onError(e);
        return null;
      },
    );
    const decided = effective.then((r) => (r === null || r.ruleIds.length === 0 ? null : r));
    // Once per response, and only for zones with an entry point (a made-up Host has none).
    let covered = false;
    const cover = (outcome: CoverageOutcome, truncated = false): void => {
      if (covered || o.onCoverage === undefined) return;
      covered = true;
      const report = o.onCoverage;
      void effective.then((r) => {
        if (r !== null && r.entrypoint.id !== '') report(info.zone, outcome, truncated, info.requestId);
      });
    };
    if (noBody || binary) {
      cover(noBody ? 'noBody' : 'binary');
      return null;
    }
    const encoded = parseContentEncoding(info.contentEncoding ?? undefined).codings.length > 0;
    // Encoded bodies: enough compressed bytes to decode the scanner's 1 MB (the pool's own bound).
    const limit = keptBytes(encoded, kScanBytes);
    const overBudget = (): void => void decided.then((rules) => rules !== null && cover('overBudget'));
    const capture = new Capture(limit, backlog, (chunks, bytes) => {
      void decided.then(async (rules) => {
        if (rules === null || bytes === 0) {
          if (rules !== null) cover('noBody');
          backlog.release(bytes);
          return;
        }
        const remote = o.remote;
        if (remote !== undefined && (remote.mode === 'remote' || !backlog.hasRoom())) {
          const body: RemoteBody = { info, thresholds: rules.thresholds, chunks, overflowed: capture.overflowed || bytes >= limit };
          chunks = [];
          const sent = await remote.send(body).catch((e: unknown) => {
            o.onError(e);
            return false;
          });
          backlog.release(bytes);
          if (!sent) {
            backlog.skipped();
            cover('overBudget');
          }
          return;
        }
        // A zone that keeps findings below `high` waits, the first time, for the scanner to report them
        // (its bytes stay reserved meanwhile). Should that fail, it is scanned at the level there is.
        if (o.reach !== undefined) await o.reach(lowestThreshold(rules)).catch(o.onError);
        const queued = backlog.submit({
          chunks,
          bytes,
          meta: { ...(info.fields.contentType === null ? {} : { contentType: info.fields.contentType }), ...(info.contentEncoding === null ? {} : { contentEncoding: info.contentEncoding }) },
          done: async (report) => {
            if (report === null) {
              cover('failed');
              return;
            }
            const scanned = (): void => cover(report.contentKind === 'binary' ? 'binary' : 'scanned', report.truncated || capture.overflowed);
            // The pool runs every managed rule at the lowest threshold; the zone's effective rules pick
            // the findings, each at or above its own rule's threshold. Rules are independent in the
            // engine, so this equals a scanner built with scannerOptionsFor(ruleIds, rules), filtered alike.
            const keep = (f: Finding): boolean => keepsFinding(rules, f);
            const findings = report.findings.filter(keep);
            if (findings.length === 0) {
              scanned();
              return;
            }
            const fields = await storedFields(info.fields, o.scanFields, keep);
            // Counted just before its events, so both usually land in the same batch.
            scanned();
            o.onEvents(info.zone, eventsOf(info, fields, findings));
          },
        });
        if (!queued) cover('queueFull');
        // The job has the chunks: `done` shares this scope, and the backlog gives their bytes back to
        // the budget before it runs, so they must not stay reachable from here.
        chunks = [];
      });
    }, overBudget);
    // Nothing to run for this zone: let the bytes go as soon as that is known.
    void decided.then((rules) => {
      if (rules === null) {
        cover('filtered');
        capture.release();
      }
    });
    return capture;
  };

  const server = createServer((req, res) => {
    try {
      exchange(req, res);
    } catch (e) {
      o.onError(e);
      plainError(res, 502, 'leakscan: the request could not be forwarded');
    }
  });
  // A broken client socket must not take the service down.
  server.on('clientError', (_err, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${port}`,
    port,
    server,
    stats: () => ({ ...stats }),
    close: async (drainMs) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (stats.active > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, drainMs);
          drained = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}
