/**
 * A small HTTPS client of the audit log (used by `leakscan audit` and the checks in scripts/): trusts
 * the given CA, presents the owner's client certificate when given one, and treats only 404 as "absent"
 * (plexi's rule).
 */
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import type { EpochRecord, AuditorInfo } from './record.js';
import type { NamespaceInfo } from './log.js';

export interface AuditClientOptions {
  /** Base URL, e.g. `https://127.0.0.1:8788`. */
  url: string;
  /** PEM of the CA that signed the server certificate (DIR/tls/ca.pem); default: the system's CAs. */
  ca?: string | Buffer;
  /** The log owner's client certificate and key (DIR/tls/client.pem, client-key.pem), for writes. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Per-request timeout in ms (default 30 s). */
  timeoutMs?: number;
}

/** A non-2xx answer: `status`, the server's `audit-error` code and its text body. */
export class AuditHttpError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: string;
  constructor(status: number, code: string | undefined, body: string) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}: ${body.slice(0, 500)}`);
    this.name = 'AuditHttpError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Reads `DIR/tls` files into client options. */
export function clientTlsFromFiles(paths: { ca?: string; cert?: string; key?: string }): Pick<AuditClientOptions, 'ca' | 'cert' | 'key'> {
  const out: Pick<AuditClientOptions, 'ca' | 'cert' | 'key'> = {};
  if (paths.ca !== undefined) out.ca = readFileSync(paths.ca);
  if (paths.cert !== undefined) out.cert = readFileSync(paths.cert);
  if (paths.key !== undefined) out.key = readFileSync(paths.key);
  return out;
}

const enc = encodeURIComponent;

export class AuditClient {
  readonly #o: AuditClientOptions;
  readonly #base: URL;

  constructor(options: AuditClientOptions) {
    this.#o = options;
    this.#base = new URL(options.url);
    if (this.#base.protocol !== 'https:') throw new TypeError(`the audit log URL must be https: ${options.url}`);
  }

  /** One request; resolves with any status (no throwing on 4xx/5xx). */
  raw(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
    const url = new URL(path, this.#base);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          ...(this.#o.ca === undefined ? {} : { ca: this.#o.ca }),
          ...(this.#o.cert === undefined ? {} : { cert: this.#o.cert }),
          ...(this.#o.key === undefined ? {} : { key: this.#o.key }),
          // A fresh connection per request: the client certificate is bound to the TLS session.
          agent: false,
          timeout: this.#o.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${this.#o.timeoutMs ?? 30_000} ms: ${method} ${url.href}`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  async #json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.raw(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (r.status < 200 || r.status > 299) {
      const code = r.headers['audit-error'];
      throw new AuditHttpError(r.status, typeof code === 'string' ? code : undefined, r.body);
    }
    return JSON.parse(r.body) as T;
  }

  /** `GET /info`: the signing keys with `not_before`. */
  info(): Promise<AuditorInfo> {
    return this.#json('GET', '/info');
  }

  /** B1. Rejects with `AuditHttpError` (status 404 when absent). */
  record(namespace: string, epoch: number | 'latest'): Promise<EpochRecord> {
    return this.#json('GET', `/namespaces/${enc(namespace)}/audits/${epoch === 'latest' ? 'latest' : String(epoch)}`);
  }

  /** B2 (needs the owner's client certificate). */
  publish(namespace: string, epoch: number, digest: string): Promise<EpochRecord> {
    return this.#json('POST', `/namespaces/${enc(namespace)}/audits`, { epoch, digest });
  }

  namespaces(): Promise<{ namespaces: NamespaceInfo[] }> {
    return this.#json('GET', '/namespaces');
  }

  namespace(namespace: string): Promise<NamespaceInfo> {
    return this.#json('GET', `/namespaces/${enc(namespace)}`);
  }

  /** Owner only. `root` is `"<epoch>/<hex digest>"`. */
  createNamespace(input: { name: string; root?: string; ciphersuite?: number; log_directory?: string }): Promise<NamespaceInfo> {
    return this.#json('POST', '/namespaces', input);
  }

  /** Owner only; final. */
  disableNamespace(namespace: string): Promise<NamespaceInfo> {
    return this.#json('PATCH', `/namespaces/${enc(namespace)}`, { status: 'Disabled' });
  }
}
