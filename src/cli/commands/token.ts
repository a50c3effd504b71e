import { type Command, Option } from 'commander';
import { resolve } from 'node:path';
import { TokenStore, type TokenPermission } from '../../api/index.js';
import { type CliIO, UsageError } from '../io.js';
import { escapeControls } from '../../report/index.js';

interface DataOptions {
  data: string;
}

interface CreateOptions extends DataOptions {
  name: string;
  zone?: string[];
  allZones?: boolean;
  permission: TokenPermission;
}

const collect = (value: string, prev: string[] | undefined): string[] => [...(prev ?? []), ...value.split(',').filter((z) => z !== '')];

/**
 * `leakscan token create|list|revoke`: API tokens of the Rulesets API, in the LMDB store DIR/tokens.mdb
 * shared with a running server, which sees changes on its next request. The token value is printed
 * once, by `create`, and only its hash is stored.
 */
export function registerToken(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const token = program.command('token').description('manage API tokens of the Rulesets API (`leakscan serve`)');
  const dataOption = () => new Option('-d, --data <dir>', 'data directory of the service').default('.leakscan');
  /** Runs `fn` on the data directory's token store, closed afterwards. */
  const withStore = async <T>(opts: DataOptions, fn: (store: TokenStore) => Promise<T>): Promise<T> => {
    const store = new TokenStore(resolve(io.cwd, opts.data));
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  };

  token
    .command('create')
    .description('create a token and print it (shown once)')
    .requiredOption('-n, --name <name>', 'a name to recognise the token by')
    .option('-z, --zone <id,…>', 'zone ids the token may act on (repeatable)', collect)
    .option('--all-zones', 'every zone')
    .addOption(new Option('-p, --permission <permission>', 'read: GET only; edit: every call').choices(['read', 'edit']).default('read'))
    .addOption(dataOption())
    .action(async (opts: CreateOptions) => {
      const zones = opts.allZones === true ? ['*'] : (opts.zone ?? []);
      if (zones.length === 0) throw new UsageError('give --zone ID (repeatable) or --all-zones');
      for (const z of zones) if (z !== '*' && !/^[0-9a-f]{32}$/.test(z)) throw new UsageError(`${JSON.stringify(z)} is not a 32-character hexadecimal zone id`);
      if (opts.allZones === true && opts.zone !== undefined) throw new UsageError('--zone and --all-zones exclude each other');
      const { token: value, info } = await withStore(opts, (s) => s.create({ name: opts.name, zones, permission: opts.permission }));
      io.stdout.write(`${value}\n`);
      io.stderr.write(`token ${info.id} (${info.permission}, ${zones.includes('*') ? 'all zones' : zones.join(',')}): store it now, it is not shown again\n`);
      setExit(0);
    });

  token
    .command('list')
    .description('list tokens (never their values)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(dataOption())
    .action(async (opts: DataOptions & { format: 'text' | 'json' }) => {
      const tokens = await withStore(opts, (s) => s.list());
      if (opts.format === 'json') {
        io.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`);
      } else {
        for (const t of tokens) {
          io.stdout.write(`${[t.id, t.permission, t.zones.includes('*') ? '*' : t.zones.join(','), t.created_on, escapeControls(t.name)].join('  ')}\n`);
        }
        if (tokens.length === 0) io.stderr.write('no tokens\n');
      }
      setExit(0);
    });

  token
    .command('revoke')
    .description('revoke a token by id')
    .argument('<id>', 'token id (from `leakscan token list`)')
    .addOption(dataOption())
    .action(async (id: string, opts: DataOptions) => {
      if (!(await withStore(opts, (s) => s.revoke(id)))) throw new UsageError(`no token has id ${JSON.stringify(id)}`);
      io.stderr.write(`token ${id} revoked\n`);
      setExit(0);
    });
}
