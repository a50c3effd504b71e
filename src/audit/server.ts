import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openBucket, type StoreBucket } from '../storage/index.js';
import { createAuditHandler } from './handler.js';
import { auditDir } from './keys.js';
import { AuditLog } from './log.js';
import { ensureAuditMaterial, type AuditMaterial } from './material.js';

export interface AuditServerOptions {
  /** Data directory: `tls/` (certificates), `audit/` (signing key, keys.json, `log/` store). */
  dataDir: string;
  /** Default 8788; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (the server certificate names 127.0.0.1, ::1 and localhost). */
  host?: string;
  /** Clock in ms (tests). */
  now?: () => number;
  onError?: (err: unknown) => void;
  /**
   * The store the log is kept on instead of DIR/audit/log (the fleet's S3 bucket, docs/fleet.md); the
   * caller closes it. The signing key and TLS material stay in DIR.
   */
  bucket?: StoreBucket;
}

export interface AuditServer {
  /** `https://127.0.0.1:8788` (plexi's `--remote-url`). */
  readonly url: string;
  readonly port: number;
  readonly log: AuditLog;
  readonly material: AuditMaterial;
  readonly server: Server;
  close(): Promise<void>;
}

/** The store directory of the audit log inside a data directory. */
export function auditStoreDir(dataDir: string): string {
  return join(auditDir(dataDir), 'log');
}

/**
 * Opens the audit log of a data directory without serving it (material created when missing). The
 * store directory is held by this process until `close()`.
 * @example
 * const { log, close } = await openAuditLog('.leakscan');
 * await log.publish('my.log', { epoch: 1, digest: '11'.repeat(32) });
 * await close();
 */
export async function openAuditLog(
  dataDir: string,
  options: { now?: () => number; onError?: (err: unknown) => void; bucket?: StoreBucket } = {},
): Promise<{ log: AuditLog; material: AuditMaterial; bucket: StoreBucket; close(): Promise<void> }> {
  const material = await ensureAuditMaterial(dataDir, options.now);
  // Its own store unless one is given (then the caller closes that one).
  const own = options.bucket === undefined ? await openBucket({ dir: auditStoreDir(dataDir) }) : null;
  const bucket: StoreBucket = own ?? options.bucket!;
  const log = new AuditLog({
    bucket,
    signer: material.signing.signer,
    keys: material.signing.keys,
    notBefore: material.signing.notBefore,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  return {
    log,
    material,
    bucket,
    close: async () => {
      await log.idle();
      await own?.close();
    },
  };
}

/**
 * Starts the epoch audit log on `https://host:port` with mutual TLS for writes. Creates the TLS
 * material and signing key on first start. Resolves once the port accepts connections.
 * @example
 * const audit = await startAuditServer({ dataDir: '.leakscan', port: 8788 });
 * for (const p of audit.material.created) console.log(`created ${p}`);
 * await audit.close();
 */
export async function startAuditServer(options: AuditServerOptions): Promise<AuditServer> {
  const opened = await openAuditLog(options.dataDir, options);
  const { tls } = opened.material;
  const handle = createAuditHandler({ log: opened.log, ...(options.onError === undefined ? {} : { onError: options.onError }) });
  const host = options.host ?? '127.0.0.1';
  let server: Server;
  try {
    server = createServer(
      {
        key: readFileSync(tls.serverKey),
        cert: readFileSync(tls.server),
        ca: readFileSync(tls.ca),
        // Every client may connect (B1 is public); writes check `socket.authorized` per route.
        requestCert: true,
        rejectUnauthorized: false,
        minVersion: 'TLSv1.2',
      },
      (req, res) => void handle(req, res),
    );
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8788, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await opened.close();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    log: opened.log,
    material: opened.material,
    server,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      await opened.close();
    },
  };
}
