import { type Command, Option } from 'commander';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { auditDir, type KeyInfo } from '../../audit/index.js';
import { LeakscanError } from '../../errors.js';
import { checkEventProof, ServeError, zoneOfIdOrHost, type LogEvent } from '../../eventlog/index.js';
import { formatVerifyReport, proveEventInDataDir, verifyDataDir, verifyStores, type VerifyReport } from '../../verify/index.js';
import { openFleetStore } from '../../fleet/index.js';
import type { InclusionProof } from '../../proofs/index.js';
import { type CliIO, UsageError } from '../io.js';

interface VerifyCliOptions {
  data: string;
  zone?: string;
  publicKey?: string;
  event?: string;
  proof?: string;
  s3?: string;
  format: 'text' | 'json';
}

/**
 * `leakscan verify`: checks every stored event batch of DIR against the signed epochs of its audit
 * log; with `--event ID`, proves that one event is in its signed batch; with `--proof FILE`, checks such
 * a proof (a third party's check: only the file and the log's public key). Exit codes: 0 everything
 * verifies, 1 something does not (the report or the code says what), 2 usage error, no data in DIR, or
 * DIR in use by a running `leakscan serve`. See docs/serve.md and docs/audit.md.
 */
export function registerVerify(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('verify')
    .description('check every stored event batch against the signed epochs of the audit log (run it while serve is stopped)')
    .addOption(new Option('-d, --data <dir>', 'data directory of the service').default('.leakscan'))
    .option('-z, --zone <zone>', 'only this zone: its id, or a host name (its derived zone id)')
    .option('-k, --public-key <hex>', "check signatures with this Ed25519 public key only, instead of the log's key list")
    .option('-e, --event <id>', "prove one event's inclusion in its signed batch (--format json prints the proof)")
    .option('--s3 <url>', "the fleet's S3 bucket (batches and audit log) instead of DIR's stores; DIR/audit/keys.json gives the keys (docs/fleet.md)")
    .option('--proof <file>', 'check an inclusion proof (from --event --format json or the API) instead of DIR; with --event, also that it is for that event')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: VerifyCliOptions) => {
      const common = {
        ...(opts.zone === undefined ? {} : { zone: opts.zone }),
        ...(opts.publicKey === undefined ? {} : { publicKey: opts.publicKey }),
      };
      try {
        if (opts.proof !== undefined) {
          setExit(await checkProofFile(io, opts));
          return;
        }
        if (opts.event !== undefined) {
          const { event, proof, keys } = await proveEventInDataDir(resolve(io.cwd, opts.data), opts.event, common);
          io.stdout.write(opts.format === 'json' ? `${JSON.stringify({ ok: true, event, proof }, null, 2)}\n` : formatProven(event, proof, keys));
          setExit(0);
          return;
        }
        const report = opts.s3 !== undefined ? await verifyFleet(io, opts, opts.s3) : await verifyDataDir(resolve(io.cwd, opts.data), common);
        io.stdout.write(opts.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report));
        setExit(report.ok ? 0 : 1);
      } catch (e) {
        if (e instanceof ServeError) throw new UsageError(`${e.code}: ${e.message}`);
        if (e instanceof LeakscanError) {
          io.stderr.write(`leakscan: ${e.code}: ${e.message}\n`);
          if (opts.format === 'json') io.stdout.write(`${JSON.stringify({ ok: false, code: e.code, message: e.message }, null, 2)}\n`);
          setExit(1);
          return;
        }
        throw e;
      }
    });
}

/** `--s3 URL`: the batches and epochs the fleet's batchers wrote on one bucket, with DIR's published keys. */
async function verifyFleet(io: CliIO, opts: VerifyCliOptions, s3: string): Promise<VerifyReport> {
  if (opts.event !== undefined) throw new UsageError('--event reads a data directory; with --s3 verify every batch instead');
  let only: string | undefined;
  if (opts.zone !== undefined) {
    only = zoneOfIdOrHost(opts.zone);
    if (only === undefined) throw new UsageError(`--zone ${JSON.stringify(opts.zone)} is neither a zone id nor a host name`);
  }
  if (opts.publicKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(opts.publicKey)) throw new UsageError('--public-key must be 64 hex digits (an Ed25519 public key)');
  let store;
  try {
    store = await openFleetStore({ s3, dataDir: resolve(io.cwd, opts.data) });
  } catch (e) {
    if (e instanceof LeakscanError) throw new UsageError(`${e.code}: ${e.message}`);
    throw e;
  }
  try {
    const keys = opts.publicKey !== undefined ? [{ public_key: opts.publicKey.toLowerCase(), not_before: 0 }] : store.keys;
    return await verifyStores(store.events, store.audit, keys, only);
  } finally {
    await store.close();
  }
}

function formatProven(event: LogEvent, proof: InclusionProof, keys: readonly KeyInfo[]): string {
  const signedBy = keys.length === 1 ? `key ${keys[0]!.public_key}` : `one of ${keys.length} keys of the log`;
  return (
    `event ${event.id} of zone ${event.zone}: batch ${event.batch}, leaf ${proof.index} of ${proof.size}, audit path of ${proof.path.length} hashes\n` +
    `  ${event.ruleId} ${event.redacted} at ${event.start}-${event.end} of ${event.method} ${event.host}${event.path} (${event.timestamp})\n` +
    `proven: epoch ${proof.epoch} of ${proof.namespace}, signed ${new Date(proof.record.timestamp).toISOString()} by ${signedBy}, has this event at leaf ${proof.index}\n`
  );
}

/** `--proof FILE`: the proof alone (or the API's answer holding it) against --public-key or DIR's keys. */
async function checkProofFile(io: CliIO, opts: VerifyCliOptions): Promise<number> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(resolve(io.cwd, opts.proof!), 'utf8'));
  } catch (e) {
    throw new UsageError(`--proof ${opts.proof}: ${(e as Error).message}`);
  }
  // Accept the proof itself, `{event, proof}` (verify --event --format json) or the API's v4 envelope.
  const inner = (value as { result?: unknown })?.result ?? value;
  const proof = (inner as { proof?: unknown })?.proof ?? inner;
  let keys: KeyInfo[];
  if (opts.publicKey !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(opts.publicKey)) throw new UsageError('SERVE_ERR_INVALID_OPTION: --public-key must be 64 hex digits (an Ed25519 public key)');
    keys = [{ public_key: opts.publicKey.toLowerCase(), not_before: 0 }];
  } else {
    const file = join(auditDir(resolve(io.cwd, opts.data)), 'keys.json');
    try {
      keys = (JSON.parse(await readFile(file, 'utf8')) as { keys: KeyInfo[] }).keys;
    } catch {
      throw new UsageError(`no --public-key and no key list in ${file}: give the log's public key (leakscan serve prints it)`);
    }
  }
  const expect = { ...(opts.event === undefined ? {} : { id: opts.event }), ...(opts.zone === undefined ? {} : { zone: opts.zone }) };
  const r = checkEventProof(proof, keys, expect);
  if (!r.valid) {
    io.stderr.write(`leakscan: ${r.code}: ${r.reason}\n`);
    io.stdout.write(opts.format === 'json' ? `${JSON.stringify({ ok: false, code: r.code, message: r.reason }, null, 2)}\n` : `NOT proven: ${r.code}: ${r.reason}\n`);
    return 1;
  }
  const p = proof as InclusionProof;
  io.stdout.write(opts.format === 'json' ? `${JSON.stringify({ ok: true, event: r.event, key: r.key.public_key }, null, 2)}\n` : formatProven(r.event, p, [r.key]));
  return 0;
}
