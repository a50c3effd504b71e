import { Command, CommanderError } from 'commander';
import { packageVersion } from '../report/index.js';
import { describeEngineBackends, engineBackends } from '../engine/index.js';
import type { CliIO } from './io.js';
import { registerScan } from './commands/scan.js';
import { registerRules } from './commands/rules.js';
import { registerToken } from './commands/token.js';
import { registerAudit } from './commands/audit.js';
import { registerServe } from './commands/serve.js';
import { registerVerify } from './commands/verify.js';
import { registerStop } from './commands/stop.js';
import { registerDemo } from './commands/serve-demo.js';
import { registerZone } from './commands/zone.js';
import { registerEvents } from './commands/events.js';
import { registerBatcher } from './commands/batcher.js';
import { registerScanWorker } from './commands/scan-worker.js';
import { addHelp } from './help.js';

/** A command module: adds its subcommand to the program. `serve`, `verify`, `audit`, `token` plug in here. */
export type RegisterCommand = (program: Command, io: CliIO, setExit: (code: number) => void) => void;

export const kCommands: readonly RegisterCommand[] = [registerScan, registerRules, registerToken, registerAudit, registerServe, registerStop, registerDemo, registerVerify, registerZone, registerEvents, registerBatcher, registerScanWorker];

/** A fresh program per run (commander keeps parsed values on the instance). */
export function buildProgram(io: CliIO, setExit: (code: number) => void, commands: readonly RegisterCommand[] = kCommands): Command {
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
