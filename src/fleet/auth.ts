/**
 * How a role logs in to the NATS server: one of a credentials file (a user JWT and its NKey seed, as
 * `nsc` writes them), a user and password, or a token; and TLS, with a private CA and a client
 * certificate when the server asks for one. Secrets never come from the command line, where `ps`
 * and shell histories show them: the password and the token come from `LEAKSCAN_NATS_PASSWORD` and
 * `LEAKSCAN_NATS_TOKEN`, and a `user:pass@` in the `--nats` URL is refused.
 *
 * Files are read here, before connecting, so a path that cannot be read is a usage error
 * (SDD_ERR_FLEET_OPTION, exit 2) rather than a connection failure.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { credsAuthenticator, type ConnectionOptions } from '@nats-io/transport-node';
import { LeakscanError } from '../errors.js';

/** What the CLI flags (`--nats-creds`, `--nats-user`, `--nats-tls-*`) name; relative paths from `cwd`. */
export interface BusLoginFlags {
  natsCreds?: string;
  natsUser?: string;
  natsTlsCa?: string;
  natsTlsCert?: string;
  natsTlsKey?: string;
}

/** The options `connectBus` gives the client, read from the flags and the environment. */
export interface BusLogin {
  /** Connection options of @nats-io/transport-node: `authenticator` or `user`/`pass` or `token`, and `tls`. */
  options: Pick<ConnectionOptions, 'authenticator' | 'user' | 'pass' | 'token' | 'tls'>;
  /** Values that must never be printed: an error message naming one has it masked. */
  secrets: readonly string[];
}

export const kNatsPasswordEnv = 'LEAKSCAN_NATS_PASSWORD';
export const kNatsTokenEnv = 'LEAKSCAN_NATS_TOKEN';

function option(detail: string): LeakscanError {
  return new LeakscanError('SDD_ERR_FLEET_OPTION', detail);
}

function readFlagFile(flag: string, path: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (e) {
    throw option(`cannot read ${flag} ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * The login the flags and `LEAKSCAN_NATS_PASSWORD`/`LEAKSCAN_NATS_TOKEN` describe; SDD_ERR_FLEET_OPTION
 * when they conflict (two ways of logging in, a user without a password, a certificate without its
 * key) or a file cannot be read.
 * @example
 * const login = busLogin({ natsUser: 'scanner', natsTlsCa: 'ca.pem' }, process.env, process.cwd());
 * const nc = await connectBus('tls://10.0.0.5:4222', 'leakscan-scan-worker', login);
 */
export function busLogin(flags: BusLoginFlags, env: NodeJS.ProcessEnv, cwd: string): BusLogin {
  const password = env[kNatsPasswordEnv] || undefined;
  const token = env[kNatsTokenEnv] || undefined;
  const ways = [flags.natsCreds !== undefined && '--nats-creds', (flags.natsUser !== undefined || password !== undefined) && '--nats-user', token !== undefined && kNatsTokenEnv].filter(Boolean);
  if (ways.length > 1) throw option(`log in one way only: ${ways.join(' or ')}`);
  if (flags.natsUser !== undefined && password === undefined) throw option(`--nats-user needs the password in ${kNatsPasswordEnv}`);
  if (flags.natsUser === undefined && password !== undefined) throw option(`${kNatsPasswordEnv} needs --nats-user`);
  if ((flags.natsTlsCert === undefined) !== (flags.natsTlsKey === undefined)) throw option('--nats-tls-cert and --nats-tls-key go together');

  const options: BusLogin['options'] = {};
  const secrets: string[] = [];
  if (flags.natsCreds !== undefined) {
    const creds = readFlagFile('--nats-creds', flags.natsCreds, cwd);
    if (!/-----BEGIN NATS USER JWT-----/.test(creds) || !/-----BEGIN USER NKEY SEED-----/.test(creds)) throw option(`--nats-creds ${flags.natsCreds} is not a NATS credentials file (a user JWT and an NKey seed)`);
    options.authenticator = credsAuthenticator(new TextEncoder().encode(creds));
  } else if (flags.natsUser !== undefined && password !== undefined) {
    options.user = flags.natsUser;
    options.pass = password;
    secrets.push(password);
  } else if (token !== undefined) {
    options.token = token;
    secrets.push(token);
  }
  const tls = {
    ...(flags.natsTlsCa === undefined ? {} : { ca: readFlagFile('--nats-tls-ca', flags.natsTlsCa, cwd) }),
    ...(flags.natsTlsCert === undefined ? {} : { cert: readFlagFile('--nats-tls-cert', flags.natsTlsCert, cwd) }),
    ...(flags.natsTlsKey === undefined ? {} : { key: readFlagFile('--nats-tls-key', flags.natsTlsKey, cwd) }),
  };
  // An object, even empty, makes the client refuse a connection without TLS.
  if (Object.keys(tls).length > 0) options.tls = tls;
  return { options, secrets };
}
