import type { Readable, Writable } from 'node:stream';
import type { Scanner, ScannerOptions } from '../types.js';

/** Everything the command line touches of its process, so tests can run it in-process. */
export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  /** The progress bar is drawn only on a terminal. */
  stderrIsTTY: boolean;
  /** Terminal width, for the progress bar. */
  columns: number;
  /** Relative paths are resolved against this directory. */
  cwd: string;
  /** Cores the default `--workers` is sized to; default: `os.availableParallelism()`. */
  cores?: number;
  /** Scanner factory; default: the library's `createScanner`. */
  createScanner?: (options: ScannerOptions) => Promise<Scanner>;
}

/** The real process. */
export function processIo(): CliIO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stderr.columns || 80, // 0 on a pty with no size set
    cwd: process.cwd(),
  };
}

/** A usage or input error: printed as `leakscan: <message>` and exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const kExitClean = 0;
export const kExitFindings = 1;
export const kExitUsage = 2;
