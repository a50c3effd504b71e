import { type Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEngineBackends, engineBackends } from '../../engine/index.js';
import { LeakscanError } from '../../errors.js';
import { parseZoneArgs, ServeError } from '../../eventlog/index.js';
import { removePidFile, writePidFile } from '../../serve/index.js';
import { startServe, type ServeHandle, type ServeOptions as LibServeOptions, type ServeStats } from '../../service/index.js';

/** The library's options, and whether to print a newly created admin token (the demo prints its own line). */
export type ServeOptions = LibServeOptions & { printToken?: boolean };
import { type CliIO, UsageError } from '../io.js';
import type { BusLoginFlags } from '../../fleet/index.js';
import { addNatsLoginOptions, loginOrUsage } from './nats-login.js';

interface ServeCliOptions extends BusLoginFlags {
  data: string;
  port: string;
  auditPort: string;
  proxyPort: string;
  origin?: string;
  originCa?: string;
  logpushCa?: string;
  zone?: string[];
  workers?: string;
  batchSize: string;
  batchInterval: string;
  backlogMb: string;
  drainTimeout: string;
  nats?: string;
  scan: 'local' | 'remote' | 'overflow';
  bodiesMb: string;
  batcher: boolean;
  s3?: string;
}

const collect = (value: string, prev: string[] | undefined): string[] => [...(prev ?? []), value];

export function integer(name: string, v: string, min: number, max: number): number {
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return n;
}

/** Counters that mean work was not done, worth a warning when they grow. */
function losses(s: ServeStats): Record<string, number> {
  return {
    'bodies not scanned (capture budget spent)': s.backlog?.bodiesSkipped ?? 0,
    'bodies not scanned (backlog full)': s.backlog?.bodiesDropped ?? 0,
    'scan errors': s.backlog?.scanErrors ?? 0,
    'events dropped (buffer full)': s.events.eventsDropped,
    'batch write errors': s.events.writeErrors,
    'epoch publish errors': s.events.publishErrors,
    // A failed delivery is retried from the stored batch; a dropped notice is recovered by the sweep.
    'logpush delivery errors': s.logpush.deliveryErrors,
    // With --nats: events and outcomes the stream never acknowledged (after every retry), or refused
    // because 10,000 were waiting for an acknowledgement.
    'bus publish errors': s.bus?.publisher.publishErrors ?? 0,
    'bus publishes dropped (too many waiting)': s.bus?.publisher.dropped ?? 0,
    'malformed bus messages skipped': s.bus?.batcher?.malformed ?? 0,
    'bodies not sent to scan workers': (s.bus?.bodies?.refused ?? 0) + (s.bus?.bodies?.publishErrors ?? 0),
  };
}

/**
 * Resolves on the first SIGINT or SIGTERM; a second one ends the process at once. A repeat within
 * `kRepeatMs` is the same request delivered twice, not a second one: a Ctrl-C under `npm start`
 * reaches the server from the terminal (its whole process group) and again from npm, which forwards it.
 */
const kRepeatMs = 1000;
function stopSignal(io: CliIO): Promise<string> {
  return new Promise((resolveStop) => {
    let first = 0;
    const on = (sig: NodeJS.Signals): void => {
      if (first !== 0) {
        if (Date.now() - first < kRepeatMs) return;
        io.stderr.write(`leakscan: ${sig} again: stopping now, events not yet written are lost\n`);
        process.exit(130);
      }
      first = Date.now();
      resolveStop(sig);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** What a command built on the service adds around it (`leakscan demo`). */
export interface ServeHooks {
  /** Runs once the service is up, before the pid file and `ready`; its lines are printed before `ready`. */
  started?: (svc: ServeHandle) => Promise<string[]>;
  /** Runs after the service has stopped (its own resources: the demo origin). */
  stopped?: () => Promise<void>;
}

/**
 * Starts the service, writes DIR/serve.pid, prints its addresses and `ready`, and drains on
 * SIGINT/SIGTERM: the lines `leakscan serve` prints, shared with `leakscan demo`.
 */
export async function serveUntilStopped(io: CliIO, setExit: (code: number) => void, options: ServeOptions, hooks: ServeHooks = {}): Promise<void> {
  const dataDir = options.dataDir;
  const out = (line: string): void => void io.stdout.write(`${line}\n`);
  const err = (line: string): void => void io.stderr.write(`${line}\n`);
  let svc: ServeHandle;
  try {
    svc = await startServe({ log: err, onError: (e) => err(`leakscan: error: ${(e as Error)?.message ?? String(e)}`), ...options });
  } catch (e) {
    await hooks.stopped?.();
    if (e instanceof ServeError) throw new UsageError(`${e.code}: ${e.message}`);
    // --nats: a bad URL, no NATS server with JetStream there, or one that refuses the login.
    if (e instanceof LeakscanError && (e.code === 'SDD_ERR_FLEET_OPTION' || e.code === 'SDD_ERR_BUS_UNREACHABLE' || e.code === 'SDD_ERR_BUS_AUTH')) throw new UsageError(`${e.code}: ${e.message}`);
    throw e;
  }
  const stop = stopSignal(io);
  let extra: string[] = [];
  try {
    extra = (await hooks.started?.(svc)) ?? [];
  } catch (e) {
    await svc.close();
    await hooks.stopped?.();
    throw e;
  }
  if (svc.admin.created && options.printToken !== false) {
    const file = resolve(dataDir, 'admin-token');
    // The value on a terminal only: a log file or a CI transcript must not keep it.
    out(io.stdoutIsTTY ? `admin token: ${svc.admin.token} (saved in ${file}; shown once)` : `admin token: saved in ${file} (the value is shown on a terminal only)`);
  }
  for (const p of svc.created) out(`created ${p}`);
  out(`engine: ${describeEngineBackends(engineBackends())}`);
  out(`audit signing key: ${svc.publicKey}`);
  out(`rulesets API: ${svc.api.url}`);
  const dashboard = new URL('/', svc.api.url).href;
  out(`dashboard: ${dashboard}`);
  out(`audit log: ${svc.audit.url}`);
  if (svc.proxy) out(`proxy: ${svc.proxy.url} -> ${options.origin}`);
  if (svc.recovered > 0) out(`recovered: published ${svc.recovered} batch${svc.recovered === 1 ? '' : 'es'} written before the last stop`);
  for (const line of extra) out(line);
  const pidFile = writePidFile(dataDir, { started: new Date().toISOString(), api: svc.api, dashboard, audit: svc.audit, proxy: svc.proxy });
  out(`pid ${process.pid} (in ${pidFile}; stop with: leakscan stop --data ${dataDir})`);
  out('ready');

  let reported = losses(svc.stats());
  const watch = setInterval(() => {
    const now = losses(svc.stats());
    for (const [what, n] of Object.entries(now)) {
      if (n > (reported[what] ?? 0)) err(`leakscan: warning: ${what}: ${n} since start`);
    }
    reported = now;
  }, 10_000);
  watch.unref();

  const sig = await stop;
  clearInterval(watch);
  err(`leakscan: ${sig}: draining`);
  await svc.close();
  await hooks.stopped?.();
  removePidFile(dataDir);
  const s = svc.stats();
  const lost = Object.entries(losses(s)).filter(([, n]) => n > 0).map(([what, n]) => `${what} ${n}`);
  const written = s.bus?.batcher == null ? s.events : { eventsWritten: s.bus.batcher.eventsWritten, batchesWritten: s.bus.batcher.batchesWritten, epochsPublished: s.bus.batcher.epochsPublished };
  err(`leakscan: stopped: ${written.eventsWritten} events in ${written.batchesWritten} batches written, ${written.epochsPublished} epochs published${lost.length > 0 ? `; ${lost.join(', ')}` : ''}`);
  setExit(0);
}

/**
 * `leakscan serve`: the Rulesets API, the epoch audit log and (with --origin) the scanning proxy on
 * one data directory; prints `ready` once every listener accepts connections and drains on
 * SIGINT/SIGTERM. Exit codes: 0 after a clean stop, 2 when it cannot start (bad option, port in use,
 * data directory in use). See docs/serve.md.
 */
export function registerServe(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const cmd = program
    .command('serve')
    .description('run the service: Rulesets API, epoch audit log and, with --origin, the scanning proxy')
    .addOption(new Option('-d, --data <dir>', 'data directory (created on first start)').default('.leakscan'))
    .addOption(new Option('-p, --port <port>', 'Rulesets API port (0: any free port)').default('8787'))
    .addOption(new Option('--audit-port <port>', 'epoch audit log port (HTTPS)').default('8788'))
    .addOption(new Option('--proxy-port <port>', 'proxy port (with --origin)').default('8080'))
    .option('--origin <url>', 'origin the proxy forwards to (http:// or https://); no proxy without it')
    .option('--origin-ca <file>', 'PEM CA certificate(s) to trust for an https origin, instead of the system CAs')
    .option('--logpush-ca <file>', 'PEM CA certificate(s) to trust for Logpush https:// destinations, in addition to the system CAs')
    .option('-z, --zone <ID|HOST=ID>', 'zone of every host (ID) or of one host or *.suffix (HOST=ID); repeatable. Default: derived from the Host header', collect)
    .option('--workers <n>', 'scanner worker threads (default: one per core)')
    .addOption(new Option('--batch-size <n>', 'write a zone\'s batch once it holds this many events').default('1000'))
    .addOption(new Option('--batch-interval <ms>', '…or this long after its first event').default('2000'))
    .addOption(new Option('--backlog-mb <n>', 'memory for bodies waiting to be scanned; beyond it bodies are skipped and counted').default('64'))
    .addOption(new Option('--drain-timeout <ms>', 'on stop, how long exchanges in progress may take to finish').default('10000'))
    .option('--nats <url>', 'publish events to NATS JetStream (nats://HOST:PORT, or tls://HOST:PORT to require TLS) and batch them from there (docs/fleet.md)')
    .addOption(new Option('--scan <where>', 'with --nats: scan bodies here, by scan-workers (remote), or by them when the backlog is full (overflow)').choices(['local', 'remote', 'overflow']).default('local'))
    .option('--s3 <url>', "keep the events' batches and the audit log on this S3 bucket (http(s)://HOST[:PORT]/BUCKET[?region=R&if-match=unquoted]; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
    .option('--no-batcher', 'with --nats: leave batching to `leakscan batcher` processes (on the fleet\'s S3 bucket)')
    .addOption(new Option('--bodies-mb <n>', 'with --scan remote|overflow: bytes the bodies stream holds; beyond it bodies are skipped and counted').default('256'));
  addNatsLoginOptions(cmd)
    .action(async (opts: ServeCliOptions) => {
      const dataDir = resolve(io.cwd, opts.data);
      if (opts.origin === undefined && opts.zone !== undefined) throw new UsageError('--zone needs --origin (zones only matter to the proxy)');
      const loginFlag = (['natsCreds', 'natsUser', 'natsTlsCa', 'natsTlsCert', 'natsTlsKey'] as const).find((k) => opts[k] !== undefined);
      if (opts.nats === undefined && loginFlag !== undefined) throw new UsageError(`--${loginFlag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --nats`);
      let zones;
      try {
        zones = parseZoneArgs(opts.zone ?? []);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      let originCa: Buffer | undefined;
      if (opts.originCa !== undefined) {
        if (opts.origin === undefined) throw new UsageError('--origin-ca needs --origin');
        try {
          originCa = readFileSync(resolve(io.cwd, opts.originCa));
        } catch (e) {
          throw new UsageError(`cannot read --origin-ca ${opts.originCa}: ${(e as Error).message}`);
        }
      }
      let logpushCa: Buffer | undefined;
      if (opts.logpushCa !== undefined) {
        try {
          logpushCa = readFileSync(resolve(io.cwd, opts.logpushCa));
        } catch (e) {
          throw new UsageError(`cannot read --logpush-ca ${opts.logpushCa}: ${(e as Error).message}`);
        }
      }
      await serveUntilStopped(io, setExit, {
        dataDir,
        port: integer('--port', opts.port, 0, 65535),
        auditPort: integer('--audit-port', opts.auditPort, 0, 65535),
        proxyPort: integer('--proxy-port', opts.proxyPort, 0, 65535),
        ...(opts.origin === undefined ? {} : { origin: opts.origin }),
        ...(originCa === undefined ? {} : { originCa }),
        ...(logpushCa === undefined ? {} : { logpushCa }),
        zones,
        ...(opts.workers === undefined ? {} : { workers: integer('--workers', opts.workers, 1, 256) }),
        batch: { size: integer('--batch-size', opts.batchSize, 1, 100_000), intervalMs: integer('--batch-interval', opts.batchInterval, 1, 3_600_000) },
        backlog: { maxBytes: integer('--backlog-mb', opts.backlogMb, 1, 65_536) * 1024 * 1024 },
        drainMs: integer('--drain-timeout', opts.drainTimeout, 0, 3_600_000),
        ...(opts.nats === undefined ? {} : { nats: opts.nats, natsLogin: loginOrUsage(opts, io.cwd) }),
        scan: opts.scan,
        batcher: opts.batcher,
        ...(opts.s3 === undefined ? {} : { s3: opts.s3 }),
        bodiesMaxBytes: integer('--bodies-mb', opts.bodiesMb, 1, 1_048_576) * 1024 * 1024,
      });
    });
}
