import { type Command, Option } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  AuditClient,
  AuditHttpError,
  clientTlsFromFiles,
  parseEpochText,
  tlsPaths,
  verifyRecord,
  verifyRecordWithKey,
  type AuditClientOptions,
  type VerifyResult,
} from '../../audit/index.js';
import { type CliIO, UsageError } from '../io.js';

interface ConnOptions {
  url: string;
  data: string;
  ca?: string;
  cert?: string;
  key?: string;
}

const kDefaultUrl = 'https://127.0.0.1:8788';

function epochArg(v: string | undefined): number | 'latest' {
  if (v === undefined || v === 'latest') return 'latest';
  try {
    return parseEpochText(v);
  } catch {
    throw new UsageError(`${JSON.stringify(v)} is not an epoch (an integer from 1 to 9007199254740991, or "latest")`);
  }
}

/**
 * `leakscan audit get|publish|verify|namespaces|namespace`: a client of the epoch audit log served by
 * `leakscan serve` (https://127.0.0.1:8788). The CA and the owner's client certificate default to the
 * files `serve` created in DIR/tls. Exit codes: 0 done (or valid), 1 refused by the log / not found /
 * not valid, 2 usage or connection error.
 */
export function registerAudit(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const audit = program.command('audit').description('read, publish and verify signed epochs of the audit log (`leakscan serve`)');
  const conn = (cmd: Command, owner: boolean): Command => {
    cmd
      .addOption(new Option('-u, --url <url>', 'base URL of the audit log').default(kDefaultUrl))
      .addOption(new Option('-d, --data <dir>', 'data directory of the service (for its tls/ files)').default('.leakscan'))
      .option('--ca <file>', 'CA certificate of the server (default DIR/tls/ca.pem if present, else the system CAs)');
    if (owner) {
      cmd
        .option('--cert <file>', "log owner's client certificate (default DIR/tls/client.pem)")
        .option('--key <file>', "log owner's client key (default DIR/tls/client-key.pem)");
    }
    return cmd;
  };
  const client = (opts: ConnOptions, owner: boolean): AuditClient => {
    const tls = tlsPaths(resolve(io.cwd, opts.data));
    const at = (p: string | undefined, fallback: string, required: boolean): string | undefined => {
      if (p !== undefined) {
        const abs = resolve(io.cwd, p);
        if (!existsSync(abs)) throw new UsageError(`no such file: ${p}`);
        return abs;
      }
      if (existsSync(fallback)) return fallback;
      if (required) throw new UsageError(`no client certificate: give --cert and --key, or --data with the directory \`leakscan serve\` uses (${fallback} is missing)`);
      return undefined;
    };
    const files: { ca?: string; cert?: string; key?: string } = {};
    const ca = at(opts.ca, tls.ca, false);
    if (ca !== undefined) files.ca = ca;
    if (owner) {
      files.cert = at(opts.cert, tls.client, true)!;
      files.key = at(opts.key, tls.clientKey, true)!;
    }
    const o: AuditClientOptions = { url: opts.url, ...clientTlsFromFiles(files) };
    try {
      return new AuditClient(o);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  };
  /** Server refusals exit 1 with the log's own message; connection failures are usage errors (2). */
  const call = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof AuditHttpError) {
        io.stderr.write(`leakscan: ${e.message}\n`);
        setExit(1);
        return undefined;
      }
      throw new UsageError(`cannot reach the audit log: ${(e as Error).message}`);
    }
  };
  /** Prints the log's answer as JSON and exits 0 (a refusal was already reported by `call`). */
  const show = async (fn: () => Promise<unknown>): Promise<void> => {
    const r = await call(fn);
    if (r === undefined) return;
    io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    setExit(0);
  };

  conn(
    audit
      .command('get')
      .description('print a signed epoch record (B1); no client certificate needed')
      .argument('<namespace>', 'log namespace')
      .argument('[epoch]', 'epoch number, or "latest"', 'latest'),
    false,
  ).action(async (ns: string, epoch: string, opts: ConnOptions) => {
    const e = epochArg(epoch);
    await show(() => client(opts, false).record(ns, e));
  });

  conn(
    audit
      .command('publish')
      .description("publish the next epoch (B2) with the log owner's client certificate; prints the signed record")
      .argument('<namespace>', 'log namespace')
      .argument('<epoch>', 'epoch number')
      .argument('<digest>', '32-byte digest as 64 hex digits'),
    true,
  ).action(async (ns: string, epoch: string, digest: string, opts: ConnOptions) => {
    const e = epochArg(epoch);
    if (e === 'latest') throw new UsageError('publish needs an epoch number');
    if (!/^[0-9a-fA-F]{64}$/.test(digest)) throw new UsageError('the digest must be 64 hex digits (32 bytes)');
    await show(() => client(opts, true).publish(ns, e, digest));
  });

  conn(
    audit
      .command('verify')
      .description("verify a record's signature against the log's published keys (GET /info) or one key given out of band")
      .argument('<namespace>', 'log namespace')
      .argument('[epoch]', 'epoch number, or "latest"', 'latest')
      .option('-k, --public-key <hex>', 'verify with this Ed25519 public key only (64 hex digits); /info is not used')
      .option('-r, --record <file>', 'verify a saved record (JSON) instead of fetching it'),
    false,
  ).action(async (ns: string, epoch: string, opts: ConnOptions & { publicKey?: string; record?: string }) => {
    const e = epochArg(epoch);
    let record: unknown;
    if (opts.record !== undefined) {
      try {
        record = JSON.parse(readFileSync(resolve(io.cwd, opts.record), 'utf8'));
      } catch (err) {
        throw new UsageError(`cannot read the record ${opts.record}: ${(err as Error).message}`);
      }
    } else {
      record = await call(() => client(opts, false).record(ns, e));
      if (record === undefined) return;
    }
    const expect = { namespace: ns, ...(e === 'latest' ? {} : { epoch: e }) };
    let result: VerifyResult;
    if (opts.publicKey !== undefined) {
      result = verifyRecordWithKey(record, opts.publicKey.toLowerCase());
      if (result.valid && (result.record.namespace !== ns || (e !== 'latest' && result.record.epoch !== e))) {
        result = { valid: false, reason: `the record is for ${result.record.namespace} epoch ${result.record.epoch}` };
      }
    } else {
      const info = await call(() => client(opts, false).info());
      if (info === undefined) return;
      result = verifyRecord(record, info, expect);
    }
    if (result.valid) {
      io.stdout.write(`valid: ${result.record.namespace} epoch ${result.record.epoch} digest ${result.record.digest} signed by ${result.key.public_key}\n`);
      setExit(0);
    } else {
      io.stdout.write(`NOT valid: ${result.reason}\n`);
      setExit(1);
    }
  });

  conn(audit.command('namespaces').description('list the namespaces with their status and latest epoch'), false).action(async (opts: ConnOptions) => {
    await show(() => client(opts, false).namespaces());
  });

  const namespace = audit.command('namespace').description("create or disable a namespace (log owner's client certificate)");
  conn(
    namespace
      .command('create')
      .description('create a namespace')
      .argument('<name>', 'namespace name (A-Z a-z 0-9 . _ -)')
      .option('--root <epoch/digest>', 'the first epoch must equal this "<epoch>/<64 hex>"')
      .addOption(new Option('--ciphersuite <n>', '1 = ed25519(protobuf), 2 = ed25519(bincode)').choices(['1', '2']).default('1')),
    true,
  ).action(async (name: string, opts: ConnOptions & { root?: string; ciphersuite: string }) => {
    await show(() => client(opts, true).createNamespace({ name, ciphersuite: Number(opts.ciphersuite), ...(opts.root === undefined ? {} : { root: opts.root }) }));
  });
  conn(namespace.command('disable').description('disable a namespace: it stays readable and takes no more epochs (final)').argument('<name>', 'namespace name'), true).action(
    async (name: string, opts: ConnOptions) => {
      await show(() => client(opts, true).disableNamespace(name));
    },
  );
}
