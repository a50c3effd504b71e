import { Command, CommanderError } from 'commander';
import { packageVersion } from '../report/index.js';
import { describeEngineBackends, engineBackends } from '../engine/index.js';
import type { CliIO } from './io.js';
import { addHelp } from './help.js';

/** A command module: adds its subcommand to the program. `serve`, `verify`, `audit`, `token` plug in here. */
export type RegisterCommand = (program: Command, io: CliIO, setExit: (code: number) => void) => void;

/**
 * Every command by name, with its module loaded on demand: a module imports what its command runs
 * (the service, its S3, NATS and GraphQL clients), and `leakscan scan` should not pay for those at
 * start. In the order `--help` lists them.
 */
const kCommandModules: ReadonlyArray<readonly [name: string, load: () => Promise<RegisterCommand>]> = [
  ['scan', async () => (await import('./commands/scan.js')).registerScan],
  ['rules', async () => (await import('./commands/rules.js')).registerRules],
  ['token', async () => (await import('./commands/token.js')).registerToken],
  ['audit', async () => (await import('./commands/audit.js')).registerAudit],
  ['serve', async () => (await import('./commands/serve.js')).registerServe],
  ['stop', async () => (await import('./commands/stop.js')).registerStop],
  ['demo', async () => (await import('./commands/serve-demo.js')).registerDemo],
  ['verify', async () => (await import('./commands/verify.js')).registerVerify],
  ['zone', async () => (await import('./commands/zone.js')).registerZone],
  ['events', async () => (await import('./commands/events.js')).registerEvents],
  ['batcher', async () => (await import('./commands/batcher.js')).registerBatcher],
  ['scan-worker', async () => (await import('./commands/scan-worker.js')).registerScanWorker],
];

/** The names of every command (`leakscan --help` lists them all). */
export const kCommandNames: readonly string[] = kCommandModules.map(([name]) => name);

/**
 * The command modules a command line needs: the named command's alone; none for `--version` alone;
 * every one for help, no command, or a name that is not a command (so commander can say so and suggest).
 * Without `argv`: every one.
 */
export async function loadCommands(argv?: readonly string[]): Promise<RegisterCommand[]> {
  let wanted = kCommandModules;
  if (argv !== undefined && !argv.includes('--help') && !argv.includes('-h')) {
    const name = argv.find((a) => !a.startsWith('-'));
    const one = kCommandModules.filter(([n]) => n === name);
    if (one.length === 1) wanted = one;
    else if (name === undefined && (argv.includes('--version') || argv.includes('-V'))) wanted = [];
  }
  return Promise.all(wanted.map(([, load]) => load()));
}

/** A fresh program per run (commander keeps parsed values on the instance), with `commands` (see `loadCommands`). */
export function buildProgram(io: CliIO, setExit: (code: number) => void, commands: readonly RegisterCommand[]): Command {
  const program = new Command();
  program
    .name('leakscan')
    .description('Find personal data, financial information and secrets in HTTP response bodies and files.')
    // The version with the engine this install runs on (native or portable prefilter and regex), so a
    // slower fallback is never silent.
    .option('-V, --version', 'output the version and the engine it runs on')
    .on('option:version', () => {
      io.stdout.write(`leakscan ${packageVersion()} (node ${process.versions.node}; ${describeEngineBackends(engineBackends())})\n`);
      throw new CommanderError(0, 'commander.version', packageVersion());
    })
    // Throw instead of process.exit, so run() decides the exit code (2 for usage errors) and tests run in-process.
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .showSuggestionAfterError(true);
  for (const register of commands) register(program, io, setExit);
  addHelp(program);
  return program;
}
