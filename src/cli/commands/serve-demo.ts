import { type Command, Option } from 'commander';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { zoneIdOfHost } from '../../eventlog/index.js';
import type { ServeHandle } from '../../service/index.js';
import { type CliIO, UsageError } from '../io.js';
import { ApiClient, apiBase } from '../zone/api.js';
import { deployZone } from '../zone/procedure.js';
import { integer, serveUntilStopped } from './serve.js';

/**
 * `leakscan demo` (what `npm start` runs): the service on a data directory, with a demo origin on
 * loopback serving a folder of sample files, every host mapped to one demo zone, and Sensitive Data
 * Detection deployed on that zone through the service's own Rulesets API (once: a restart finds it
 * deployed). It prints the dashboard, where the admin token is, a `curl` through the proxy and how to
 * stop; then it is `leakscan serve` (pid file, `leakscan stop`, Ctrl-C).
 */

/** The demo zone: every host sent through the demo's proxy belongs to it. */
export const kDemoHost = 'demo.localhost';
export const kDemoZone = zoneIdOfHost(kDemoHost);

const kTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.rss': 'application/rss+xml; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.env': 'text/plain; charset=utf-8',
};

interface DemoOrigin {
  url: string;
  files: string[];
  close(): Promise<void>;
}

/** A static server of the folder's files (its top level only; names are looked up, never joined from the request). */
async function startDemoOrigin(dir: string, port: number): Promise<DemoOrigin> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile()).sort();
  } catch (e) {
    throw new UsageError(`cannot read the samples folder ${dir}: ${(e as Error).message}`);
  }
  if (files.length === 0) throw new UsageError(`the samples folder ${dir} has no files`);
  const known = new Set(files);
  const server: Server = createServer((req, res) => {
    req.resume();
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://demo').pathname);
    if (path === '/') {
      const links = files.map((f) => `<li><a href="/${encodeURIComponent(f)}">${f}</a></li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>leakscan demo origin</title><h1>Sample files</h1><ul>${links}</ul>\n`);
      return;
    }
    const name = path.slice(1);
    if (!known.has(name)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such sample\n');
      return;
    }
    let body: Buffer;
    try {
      body = readFileSync(join(dir, name));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such sample\n');
      return;
    }
    res.writeHead(200, { 'content-type': kTypes[extname(name)] ?? 'text/plain; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => fail(new UsageError(`SERVE_ERR_LISTEN: demo origin on 127.0.0.1:${port}: ${e.code ?? e.message}`)));
    server.listen(port, '127.0.0.1', () => ok());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

interface DemoCliOptions {
  data: string;
  samples: string;
  port: string;
  auditPort: string;
  proxyPort: string;
  originPort: string;
  workers?: string;
  batchInterval: string;
}

export function registerDemo(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('demo')
    .description('run the service with a demo origin serving sample files, Sensitive Data Detection deployed on its zone (what `npm start` runs)')
    .addOption(new Option('-d, --data <dir>', 'data directory (created on first start)').default('.leakscan').env('LEAKSCAN_DATA'))
    .addOption(new Option('--samples <dir>', 'folder of files the demo origin serves').default('corpus/samples'))
    .addOption(new Option('-p, --port <port>', 'Rulesets API and dashboard port (0: any free port)').default('8787').env('LEAKSCAN_PORT'))
    .addOption(new Option('--audit-port <port>', 'epoch audit log port (HTTPS)').default('8788').env('LEAKSCAN_AUDIT_PORT'))
    .addOption(new Option('--proxy-port <port>', 'proxy port').default('8080').env('LEAKSCAN_PROXY_PORT'))
    .addOption(new Option('--origin-port <port>', 'demo origin port (0: any free port)').default('0').env('LEAKSCAN_ORIGIN_PORT'))
    .option('--workers <n>', 'scanner worker threads (default: one per core)')
    .addOption(new Option('--batch-interval <ms>', 'write a batch this long after its first event').default('1000'))
    .action(async (opts: DemoCliOptions) => {
      const dataDir = resolve(io.cwd, opts.data);
      const samples = resolve(io.cwd, opts.samples);
      const ports = {
        port: integer('--port', opts.port, 0, 65535),
        auditPort: integer('--audit-port', opts.auditPort, 0, 65535),
        proxyPort: integer('--proxy-port', opts.proxyPort, 0, 65535),
      };
      const workers = opts.workers === undefined ? undefined : integer('--workers', opts.workers, 1, 256);
      const intervalMs = integer('--batch-interval', opts.batchInterval, 1, 3_600_000);
      const origin = await startDemoOrigin(samples, integer('--origin-port', opts.originPort, 0, 65535));
      const started = async (svc: ServeHandle): Promise<string[]> => {
        // The same procedure as `leakscan zone deploy`: a rule left disabled is enabled, never doubled.
        const { action } = await deployZone(new ApiClient(apiBase(svc.api.url), svc.admin.token), { zone: kDemoZone, host: null });
        const state = action === 'unchanged' ? 'already deployed' : action === 'enabled' ? 'enabled again' : 'deployed';
        const tokenFile = join(dataDir, 'admin-token');
        const dashboard = new URL('/', svc.api.url).href;
        const sample = origin.files.includes('user.json') ? 'user.json' : origin.files[0]!;
        return [
          `demo origin: ${origin.url} serving ${samples} (${origin.files.length} files; / lists them)`,
          `demo zone: ${kDemoZone} (every host through the proxy): Sensitive Data Detection ${state}`,
          // The value goes to a terminal only, never into a log file or a CI transcript.
          io.stdoutIsTTY ? `admin token: ${svc.admin.token} (saved in ${tokenFile})` : `admin token: saved in ${tokenFile}`,
          `open the dashboard: ${dashboard} and sign in with the admin token`,
          `send traffic through the proxy: curl -s ${svc.proxy!.url}/${sample}`,
          `stop: Ctrl-C, or npx leakscan stop --data ${opts.data}`,
        ];
      };
      await serveUntilStopped(
        io,
        setExit,
        { dataDir, ...ports, origin: origin.url, zones: { defaultZone: kDemoZone }, ...(workers === undefined ? {} : { workers }), batch: { intervalMs }, printToken: false },
        { started, stopped: () => origin.close() },
      );
    });
}
