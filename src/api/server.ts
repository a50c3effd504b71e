import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FileZoneStore, RulesetService } from '../rulesets/index.js';
import { createApiHandler, kApiPrefix, sendNoRoute } from './handler.js';
import { ensureAdminToken, TokenStore } from './tokens.js';

export interface ApiServerOptions {
  /** Data directory: `rulesets/` (one file per zone), `tokens.mdb` (with its `-lock` file), `admin-token`. */
  dataDir: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  onError?: (err: unknown) => void;
}

export interface ApiServer {
  /** `http://127.0.0.1:8787/client/v4`: the SDK's `baseURL`. */
  readonly url: string;
  readonly port: number;
  /** The admin token, and whether this start created it (print it then). */
  readonly admin: { token: string; created: boolean };
  readonly service: RulesetService;
  readonly tokens: TokenStore;
  readonly server: Server;
  close(): Promise<void>;
}

/** Builds the pieces without listening: the service and tokens of a data directory (close `tokens` when done). */
export async function openApi(dataDir: string): Promise<{ service: RulesetService; tokens: TokenStore; admin: { token: string; created: boolean } }> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const tokens = new TokenStore(dataDir);
  let admin: { token: string; created: boolean };
  try {
    await tokens.open();
    admin = await ensureAdminToken(dataDir, tokens);
  } catch (e) {
    await tokens.close();
    throw e;
  }
  return { service: new RulesetService(new FileZoneStore(join(dataDir, 'rulesets'))), tokens, admin };
}

/**
 * Starts the Rulesets API alone on `http://host:port/client/v4` (`leakscan serve` mounts the same
 * handler beside the dashboard). Resolves once the port accepts connections.
 * @example
 * const api = await startApiServer({ dataDir: '.leakscan', port: 8787 });
 * if (api.admin.created) console.log(`admin token: ${api.admin.token}`);
 * await api.close();
 */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { service, tokens, admin } = await openApi(options.dataDir);
  const handle = createApiHandler({ service, tokens, ...(options.onError === undefined ? {} : { onError: options.onError }) });
  const server = createServer((req, res) => {
    void handle(req, res).then((handled) => {
      if (!handled) {
        req.resume();
        sendNoRoute(res);
      }
    });
  });
  // Bounded waits: a client that stalls cannot hold a connection forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}${kApiPrefix}`,
    port,
    admin,
    service,
    tokens,
    server,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      await tokens.close();
    },
  };
}
