import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditClient, clientTlsFromFiles, ensureTlsMaterial, startAuditServer, type AuditServer, type AuditServerOptions, type RawResponse } from '../../src/audit/index.js';

export const digestOf = (s: string): string => createHash('sha256').update(s).digest('hex');

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Clients {
  /** The log owner: client certificate from the server's own CA. */
  owner: AuditClient;
  /** No client certificate. */
  anon: AuditClient;
  /** A client certificate from another CA (made by the same code in another directory). */
  stranger: AuditClient;
  /** The server's own certificate (same CA, but server-auth only) used as a client certificate. */
  impostor: AuditClient;
}

export async function clientsFor(server: AuditServer, strangerDir: string): Promise<Clients> {
  const tls = server.material.tls;
  const other = await ensureTlsMaterial(strangerDir);
  return {
    owner: new AuditClient({ url: server.url, ...clientTlsFromFiles({ ca: tls.ca, cert: tls.client, key: tls.clientKey }) }),
    anon: new AuditClient({ url: server.url, ...clientTlsFromFiles({ ca: tls.ca }) }),
    stranger: new AuditClient({ url: server.url, ...clientTlsFromFiles({ ca: tls.ca, cert: other.paths.client, key: other.paths.clientKey }) }),
    impostor: new AuditClient({ url: server.url, ...clientTlsFromFiles({ ca: tls.ca, cert: tls.server, key: tls.serverKey }) }),
  };
}

export async function startIn(dir: string, extra: Partial<AuditServerOptions> = {}): Promise<AuditServer> {
  return startAuditServer({ dataDir: dir, port: 0, onError: (e) => console.error(e), ...extra });
}

/** POST a JSON value (or raw text) and return the raw answer. */
export function post(c: AuditClient, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return c.raw('POST', path, typeof body === 'string' ? body : JSON.stringify(body), headers);
}

export function errorOf(r: RawResponse): { status: number; code: unknown; body: string } {
  return { status: r.status, code: r.headers['audit-error'], body: r.body };
}
