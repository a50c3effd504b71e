#!/usr/bin/env node
import { processIo, run } from './run.js';

// `leakscan … | head` closes the pipe early; that is the reader's choice, not an error to report.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await run(process.argv.slice(2), processIo());
