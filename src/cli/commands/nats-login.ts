import type { Command } from 'commander';
import { LeakscanError } from '../../errors.js';
import { UsageError } from '../io.js';
import { busLogin, kNatsPasswordEnv, kNatsTokenEnv, type BusLogin, type BusLoginFlags } from '../../fleet/index.js';

/**
 * The login flags every fleet role takes (`serve --nats`, `scan-worker`, `batcher`; docs/fleet.md).
 * The password and the token are read from the environment only: a flag would show them in `ps`.
 */
export function addNatsLoginOptions(cmd: Command): Command {
  return cmd
    .option('--nats-creds <file>', 'NATS credentials file (user JWT and NKey seed) to log in with')
    .option('--nats-user <name>', `NATS user to log in as; the password from ${kNatsPasswordEnv} (a token: ${kNatsTokenEnv})`)
    .option('--nats-tls-ca <file>', 'PEM CA certificate(s) the NATS server\'s certificate must chain to (requires TLS)')
    .option('--nats-tls-cert <file>', 'PEM client certificate to present to the NATS server (with --nats-tls-key)')
    .option('--nats-tls-key <file>', 'PEM private key of --nats-tls-cert');
}

/** The login of the parsed flags and `process.env`; throws SDD_ERR_FLEET_OPTION (see busLogin). */
export function natsLoginOf(opts: BusLoginFlags, cwd: string): BusLogin {
  return busLogin(opts, process.env, cwd);
}

/** As natsLoginOf, a conflict or an unreadable file a usage error (exit 2). */
export function loginOrUsage(opts: BusLoginFlags, cwd: string): BusLogin {
  try {
    return natsLoginOf(opts, cwd);
  } catch (e) {
    if (e instanceof LeakscanError) throw new UsageError(`${e.code}: ${e.message}`);
    throw e;
  }
}
