import { type Command, Option } from 'commander';
import { resolve } from 'node:path';
import { formatVerifyReport, ServeError, verifyDataDir } from '../../serve/index.js';
import { type CliIO, UsageError } from '../io.js';

interface VerifyCliOptions {
  data: string;
  zone?: string;
  publicKey?: string;
  format: 'text' | 'json';
}

/**
 * `leakscan verify`: checks every stored event batch of DIR against the signed epochs of its audit
 * log. Exit codes: 0 everything verifies, 1 something does not (the report says what), 2 usage error,
 * no data in DIR, or DIR in use by a running `leakscan serve`. See docs/serve.md.
 */
export function registerVerify(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('verify')
    .description('check every stored event batch against the signed epochs of the audit log (run it while serve is stopped)')
    .addOption(new Option('-d, --data <dir>', 'data directory of the service').default('.leakscan'))
    .option('-z, --zone <zone>', 'only this zone: its id, or a host name (its derived zone id)')
    .option('-k, --public-key <hex>', "check signatures with this Ed25519 public key only, instead of the log's key list")
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: VerifyCliOptions) => {
      let report;
      try {
        report = await verifyDataDir(resolve(io.cwd, opts.data), {
          ...(opts.zone === undefined ? {} : { zone: opts.zone }),
          ...(opts.publicKey === undefined ? {} : { publicKey: opts.publicKey }),
        });
      } catch (e) {
        if (e instanceof ServeError) throw new UsageError(`${e.code}: ${e.message}`);
        throw e;
      }
      io.stdout.write(opts.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report));
      setExit(report.ok ? 0 : 1);
    });
}
