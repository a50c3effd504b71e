#!/usr/bin/env node
import { relaunch, relaunchArgs } from './relaunch.js';

// `leakscan … | head` closes the pipe early; that is the reader's choice, not an error to report.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const argv = process.argv.slice(2);
// `scan` with a pool on every core runs under single-threaded GC (see relaunch.ts).
const again = relaunchArgs(argv, process.execArgv, process.argv[1] ?? '', process.env);
if (again === null) {
  // Loaded only here: a relaunching parent never loads the engine.
  const { processIo, run } = await import('./run.js');
  process.exitCode = await run(argv, processIo());
} else {
  process.exitCode = await relaunch(again);
}
