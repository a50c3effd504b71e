/**
 * The audit log's HTTP routes (all at the origin root: plexi builds URLs with `Url::join("/…")`, which
 * drops any base path). Reads need no client certificate; writes need the log owner's (mutual TLS,
 * checked per route from `socket.authorized`, since the TLS layer accepts every client so that B1 stays
 * open to all).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { AuditError, kAuditErrors, type AuditErrorCode } from './errors.js';
import type { AuditLog, CreateNamespaceInput } from './log.js';
import { parseEpochText } from './validate.js';

/** Largest request body read; a publish body is about 100 bytes. */
export const kMaxBodyBytes = 16 * 1024;
/** Above this declared length the connection is closed rather than drained. */
const kDrainLimit = 1024 * 1024;
const kClientAuth = '1.3.6.1.5.5.7.3.2';

export interface AuditHandlerDeps {
  log: AuditLog;
  onError?: (err: unknown) => void;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = `${JSON.stringify(value)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

export function sendError(res: ServerResponse, code: AuditErrorCode, extra: Record<string, string> = {}): void {
  const { status, body } = kAuditErrors[code];
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'audit-error': code, ...extra });
  res.end(body);
}

/** Why this request may not write, or undefined for the log owner. */
function ownerProblem(req: IncomingMessage): AuditErrorCode | undefined {
  const socket = req.socket as TLSSocket;
  if (typeof socket.getPeerCertificate !== 'function') return 'AUDIT_ERR_CLIENT_CERT_REQUIRED';
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return 'AUDIT_ERR_CLIENT_CERT_REQUIRED';
  if (socket.authorized !== true) return 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED';
  // The owner's CA also signed the server certificate: only a client-auth certificate may write.
  if (!Array.isArray(cert.ext_key_usage) || !cert.ext_key_usage.includes(kClientAuth)) return 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED';
  return undefined;
}

function requireOwner(req: IncomingMessage): void {
  const problem = ownerProblem(req);
  if (problem) throw new AuditError(problem);
}

/** Reads a JSON object body: 415 without `application/json`, 413 past the cap, 400 if not a JSON object. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new AuditError('AUDIT_ERR_UNSUPPORTED_MEDIA_TYPE');
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > kMaxBodyBytes) throw new AuditError('AUDIT_ERR_BODY_TOO_LARGE');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > kMaxBodyBytes) throw new AuditError('AUDIT_ERR_BODY_TOO_LARGE');
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
  } catch {
    throw new AuditError('AUDIT_ERR_INVALID_JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AuditError('AUDIT_ERR_INVALID_JSON');
  return parsed as Record<string, unknown>;
}

function methodNotAllowed(allow: string): AuditError & { allow: string } {
  return Object.assign(new AuditError('AUDIT_ERR_METHOD_NOT_ALLOWED'), { allow });
}

function segments(url: string): string[] | undefined {
  const path = url.split('?')[0]!;
  if (!path.startsWith('/')) return undefined;
  try {
    return path.slice(1).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

async function route(deps: AuditHandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { log } = deps;
  const method = req.method ?? 'GET';
  const s = segments(req.url ?? '/');
  if (!s) throw new AuditError('AUDIT_ERR_NOT_FOUND');
  const [a, ns, c, d, ...rest] = s;
  if (rest.length > 0) throw new AuditError('AUDIT_ERR_NOT_FOUND');

  if (a === 'info' && ns === undefined) {
    if (method !== 'GET') throw methodNotAllowed('GET');
    return sendJson(res, 200, log.info());
  }
  if (a !== 'namespaces') throw new AuditError('AUDIT_ERR_NOT_FOUND');

  if (ns === undefined) {
    if (method === 'GET') return sendJson(res, 200, { namespaces: await log.namespaces() });
    if (method === 'POST') {
      requireOwner(req);
      const body = await readJson(req);
      return sendJson(res, 201, await log.createNamespace(body as unknown as CreateNamespaceInput));
    }
    throw methodNotAllowed('GET, POST');
  }
  if (ns === '') throw new AuditError('AUDIT_ERR_NOT_FOUND');

  if (c === undefined) {
    if (method === 'GET') return sendJson(res, 200, await log.namespace(ns));
    if (method === 'PATCH') {
      requireOwner(req);
      await log.requireNamespace(ns); // 404 before the body is judged
      const body = await readJson(req);
      if (body.status !== 'Disabled') throw new AuditError('AUDIT_ERR_INVALID_STATUS');
      return sendJson(res, 200, await log.disable(ns));
    }
    throw methodNotAllowed('GET, PATCH');
  }
  if (c !== 'audits') throw new AuditError('AUDIT_ERR_NOT_FOUND');

  if (d === undefined) {
    if (method !== 'POST') throw methodNotAllowed('POST');
    requireOwner(req);
    // 404 and the disabled answer come before anything about the body.
    await log.checkWritable(ns);
    const body = await readJson(req);
    return sendJson(res, 200, await log.publish(ns, body));
  }
  if (method !== 'GET') throw methodNotAllowed('GET');
  if (d === 'latest') return sendJson(res, 200, await log.latest(ns));
  // Namespace existence first, so an unknown namespace is 404 whatever the epoch text.
  await log.requireNamespace(ns);
  return sendJson(res, 200, await log.record(ns, parseEpochText(d)));
}

/**
 * A request handler for the audit log routes, to mount on a node:https server created with
 * `requestCert: true, rejectUnauthorized: false` and the owner's CA as `ca`.
 * @example
 * const handle = createAuditHandler({ log });
 * https.createServer({ key, cert, ca, requestCert: true, rejectUnauthorized: false }, handle);
 */
export function createAuditHandler(deps: AuditHandlerDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await route(deps, req, res);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const declared = Number(req.headers['content-length'] ?? 0);
      if (!req.complete) {
        // Unread body: drain it so the client reads our answer, unless it announced something huge.
        if (declared > kDrainLimit) res.setHeader('connection', 'close');
        else req.resume();
      }
      if (e instanceof AuditError) {
        const extra: Record<string, string> = {};
        if ('allow' in e && typeof e.allow === 'string') extra.allow = e.allow;
        sendError(res, e.code, extra);
      } else {
        deps.onError?.(e);
        sendError(res, 'AUDIT_ERR_INTERNAL');
      }
    }
  };
}
