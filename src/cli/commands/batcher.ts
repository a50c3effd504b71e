import { type Command, Option } from 'commander';
import { resolve } from 'node:path';
import { LeakscanError } from '../../errors.js';
import { Batcher, connectBus, openFleetStore, type BatcherStats, type BusLoginFlags } from '../../fleet/index.js';
import { dataLockedError, ServeError } from '../../eventlog/index.js';
import { type CliIO, UsageError } from '../io.js';
import { integer } from './serve.js';
import { faultKill } from './fault.js';
import { addNatsLoginOptions, loginOrUsage } from './nats-login.js';

interface BatcherCliOptions extends BusLoginFlags {
  nats: string;
  s3?: string;
  data: string;
  batchSize: string;
  batchInterval: string;
}

/** Exit code when the bus cannot be reached (as `leakscan zone` uses 3 for an unreachable API). */
const kExitUnreachable = 3;
/** Exit code when the server refuses the login or the TLS handshake (as `leakscan zone` uses 4). */
const kExitAuth = 4;

function summary(s: BatcherStats): string {
  return (
    `${s.eventsWritten} events in ${s.batchesWritten} batches written, ${s.epochsPublished} epochs published, ` +
    `${s.epochsRepaired} repaired, ${s.racesLost} races lost, ${s.malformed} malformed messages skipped, ${s.errors} errors`
  );
}

/**
 * `leakscan batcher --nats URL [--s3 URL] [--data DIR]`: events from the stream to batches and epochs,
 * stateless and competing (src/fleet/batcher.ts). Runs until SIGINT/SIGTERM; exit 0 after a clean
 * stop, 2 on a bad option, 3 when the bus cannot be reached, 4 when it refuses the login. See
 * docs/fleet.md.
 */
export function registerBatcher(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const cmd = program
    .command('batcher')
    .description('write the events of the NATS stream as batches and signed epochs (stateless; run any number)')
    .requiredOption('--nats <url>', 'NATS server with JetStream (nats://HOST:PORT, or tls://HOST:PORT to require TLS)')
    .option('--s3 <url>', 'S3 bucket for batches and the audit log: http(s)://HOST[:PORT]/BUCKET[?region=R&if-match=unquoted]; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY')
    .addOption(new Option('-d, --data <dir>', "the audit log's signing key (DIR/audit/); without --s3 also the embedded stores").default('.leakscan'))
    .addOption(new Option('--batch-size <n>', 'events per batch at most').default('1000'))
    .addOption(new Option('--batch-interval <ms>', 'pause between passes over the zones').default('2000'));
  addNatsLoginOptions(cmd)
    .action(async (opts: BatcherCliOptions) => {
      const err = (line: string): void => void io.stderr.write(`${line}\n`);
      const size = integer('--batch-size', opts.batchSize, 1, 100_000);
      const intervalMs = integer('--batch-interval', opts.batchInterval, 1, 3_600_000);
      const login = loginOrUsage(opts, io.cwd);
      let store;
      let nc;
      try {
        store = await openFleetStore({ dataDir: resolve(io.cwd, opts.data), ...(opts.s3 === undefined ? {} : { s3: opts.s3 }) });
      } catch (e) {
        if (e instanceof LeakscanError) throw new UsageError(`${e.code}: ${e.message}`);
        // The embedded stores are held by a running `serve` on DIR (SERVE_ERR_DATA_LOCKED).
        const locked = dataLockedError(e, '; a batcher on the embedded stores runs while serve is stopped, or use --s3');
        if (locked instanceof ServeError) throw new UsageError(`${locked.code}: ${locked.message}`);
        throw e;
      }
      try {
        nc = await connectBus(opts.nats, 'leakscan-batcher', login);
      } catch (e) {
        await store.close();
        if (e instanceof LeakscanError && e.code === 'SDD_ERR_FLEET_OPTION') throw new UsageError(`${e.code}: ${e.message}`);
        err(`leakscan: ${(e as LeakscanError).code ?? 'error'}: ${(e as Error).message}`);
        setExit((e as LeakscanError).code === 'SDD_ERR_BUS_AUTH' ? kExitAuth : kExitUnreachable);
        return;
      }
      const afterBatch = faultKill(process.env, 'LEAKSCAN_FAULT_KILL_AFTER_BATCH');
      const batcher = new Batcher({
        nc,
        bucket: store.events,
        log: store.audit.log,
        size,
        intervalMs,
        onError: (e) => err(`leakscan: error: ${(e as Error)?.message ?? String(e)}`),
        ...(afterBatch === undefined ? {} : { afterBatch }),
      });
      // Before start and `ready`: a SIGTERM sent as soon as `ready` appears (or during start) is a
      // clean stop, never Node's default exit that skips the last pass.
      const stop = new Promise<string>((r) => {
        process.once('SIGINT', () => r('SIGINT'));
        process.once('SIGTERM', () => r('SIGTERM'));
      });
      const { repaired } = await batcher.start();
      io.stdout.write(`batcher: ${opts.nats} -> ${store.where}\n`);
      if (repaired > 0) io.stdout.write(`recovered: published ${repaired} batch${repaired === 1 ? '' : 'es'} left without an epoch\n`);
      io.stdout.write('ready\n');
      const sig = await stop;
      err(`leakscan: ${sig}: stopping`);
      await batcher.close();
      await nc.drain().catch(() => {});
      await store.close();
      err(`leakscan: stopped: ${summary(batcher.stats)}`);
      setExit(0);
    });
}
