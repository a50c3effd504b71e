import type { Command } from 'commander';
import { LeakscanError } from '../../errors.js';
import { connectBus, type BusLoginFlags, ScanWorker, type ScanWorkerStats } from '../../fleet/index.js';
import { createScanner } from '../../scanner.js';
import { LevelledScanner } from '../../serve/levels.js';
import { type CliIO, UsageError } from '../io.js';
import { integer } from './serve.js';
import { faultKill } from './fault.js';
import { addNatsLoginOptions, loginOrUsage } from './nats-login.js';

interface ScanWorkerCliOptions extends BusLoginFlags {
  nats: string;
  workers?: string;
  concurrency?: string;
  ackWait: string;
}

/** Exit code when the bus cannot be reached (as `leakscan batcher`). */
const kExitUnreachable = 3;
/** Exit code when the server refuses the login or the TLS handshake (as `leakscan zone` uses 4). */
const kExitAuth = 4;

function summary(s: ScanWorkerStats): string {
  return `${s.bodies} bodies scanned, ${s.events} events published, ${s.scanErrors} scan errors, ${s.retried} given back, ${s.malformed} malformed messages terminated`;
}

/**
 * `leakscan scan-worker --nats URL`: scans the bodies `serve --scan remote|overflow` publishes and
 * publishes their events (src/fleet/scan-worker.ts). Runs until SIGINT/SIGTERM; exit 0 after a clean
 * stop, 2 on a bad option, 3 when the bus cannot be reached, 4 when it refuses the login. See
 * docs/fleet.md.
 */
export function registerScanWorker(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const cmd = program
    .command('scan-worker')
    .description('scan the bodies published to NATS JetStream by `serve --scan remote|overflow` and publish their events')
    .requiredOption('--nats <url>', 'NATS server with JetStream (nats://HOST:PORT, or tls://HOST:PORT to require TLS)')
    .option('--workers <n>', 'scanner worker threads (default: one per core)')
    .option('--concurrency <n>', 'bodies in hand at once (default: 8 per worker thread)')
    .option('--ack-wait <ms>', 'how long a body may stay unacknowledged before another worker gets it (set by the first worker, which creates the shared consumer)', '60000');
  addNatsLoginOptions(cmd)
    .action(async (opts: ScanWorkerCliOptions) => {
      const err = (line: string): void => void io.stderr.write(`${line}\n`);
      const workers = opts.workers === undefined ? undefined : integer('--workers', opts.workers, 1, 256);
      const login = loginOrUsage(opts, io.cwd);
      let nc;
      try {
        nc = await connectBus(opts.nats, 'leakscan-scan-worker', login);
      } catch (e) {
        if (e instanceof LeakscanError && e.code === 'SDD_ERR_FLEET_OPTION') throw new UsageError(`${e.code}: ${e.message}`);
        err(`leakscan: ${(e as LeakscanError).code ?? 'error'}: ${(e as Error).message}`);
        setExit((e as LeakscanError).code === 'SDD_ERR_BUS_AUTH' ? kExitAuth : kExitUnreachable);
        return;
      }
      // Every rule, at `high` until a body's zone keeps findings below it, then at `low` (as serve's
      // local scan, serve/levels.ts); each body's own thresholds then pick the findings it keeps.
      const poolOptions = { allRules: true, ...(workers === undefined ? {} : { workers }) };
      const scanner = new LevelledScanner(await createScanner(poolOptions), 'high', (minConfidence) => createScanner({ ...poolOptions, minConfidence }));
      const threads = workers ?? (await import('node:os')).availableParallelism();
      const concurrency = opts.concurrency === undefined ? 8 * threads : integer('--concurrency', opts.concurrency, 1, 4096);
      const beforeAck = faultKill(process.env, 'LEAKSCAN_FAULT_KILL_BEFORE_ACK');
      const ackWaitMs = integer('--ack-wait', opts.ackWait, 100, 3_600_000);
      const worker = new ScanWorker({ nc, scanner, reach: (level) => scanner.reach(level), concurrency, ackWaitMs, onError: (e) => err(`leakscan: error: ${(e as Error)?.message ?? String(e)}`), ...(beforeAck === undefined ? {} : { beforeAck }) });
      // Before start and `ready`: a SIGTERM sent as soon as `ready` appears (or during start) is a
      // clean stop, never Node's default exit that leaves the bodies in hand unacknowledged.
      const stop = new Promise<string>((r) => {
        process.once('SIGINT', () => r('SIGINT'));
        process.once('SIGTERM', () => r('SIGTERM'));
      });
      await worker.start();
      io.stdout.write(`scan-worker: ${opts.nats}, ${threads} threads, ${concurrency} bodies at once\n`);
      io.stdout.write('ready\n');
      const sig = await stop;
      err(`leakscan: ${sig}: stopping`);
      await worker.close();
      await scanner.close();
      await nc.drain().catch(() => {});
      err(`leakscan: stopped: ${summary(worker.stats)}`);
      setExit(0);
    });
}
