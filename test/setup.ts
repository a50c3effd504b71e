/** Runs before every test file: a watchdog that turns a blocked event loop into a failure, not a hung run. */
import { expect } from 'vitest';
import { startStallWatchdog } from './stall-watchdog.js';

const file = expect.getState().testPath ?? 'a test file';
// Far above any test's own 30 s timeout: only a loop blocked past every timer trips it.
startStallWatchdog({ label: file.replace(`${process.cwd()}/`, ''), stallMs: 120_000, killMs: 30_000 });
