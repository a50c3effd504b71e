import { CommanderError } from 'commander';
import { type CliIO, UsageError, kExitUsage } from './io.js';
import { buildProgram, loadCommands, type RegisterCommand } from './program.js';

export { processIo, UsageError, kExitClean, kExitFindings, kExitUsage } from './io.js';
export type { CliIO } from './io.js';

/**
 * Runs the command line with `argv` (without `node` and the script) and returns the exit code.
 * Never calls `process.exit`, so it can run inside tests.
 *
 * @example
 * const code = await run(['scan', 'fixtures/'], processIo());
 */
export async function run(argv: readonly string[], io: CliIO, commands?: readonly RegisterCommand[]): Promise<number> {
  let exit = 0;
  const program = buildProgram(io, (code) => (exit = code), commands ?? (await loadCommands(argv)));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version exit 0; every parse error (already printed by commander) is a usage error.
      return err.exitCode === 0 ? 0 : kExitUsage;
    }
    if (err instanceof UsageError) {
      io.stderr.write(`leakscan: ${err.message}\n`);
      return kExitUsage;
    }
    io.stderr.write(`leakscan: ${(err as Error)?.stack ?? String(err)}\n`);
    return kExitUsage;
  }
}
