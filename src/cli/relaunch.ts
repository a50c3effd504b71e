/**
 * `leakscan scan` runs under V8's `--single-threaded-gc` when its worker pool takes every core.
 *
 * V8 collects each isolate's young generation with helper threads by default (parallel scavenging,
 * concurrent marking and sweeping). When every core already runs a scan worker, those helpers can only
 * take CPU from the workers: on the 2-core bench machine, 2 workers scanned about 5% more MB/s with
 * the flag than without, and 1 worker (which has an idle core for its helpers) about 5% less
 * (`npm run bench`, pool section, measures both). The flag cannot be set once V8 runs (flipping it at
 * run time aborts the process) and `NODE_OPTIONS` refuses it, so the command line starts itself again
 * with it. Opt out with `LEAKSCAN_V8_GC=default`; the in-process scanner (`--workers 0`) and a pool
 * smaller than the machine are left alone.
 *
 * Only `scan` is relaunched: `serve` owns its signals (the first SIGINT drains, a second one stops
 * at once), which a parent forwarding them would double. Start it as
 * `node --single-threaded-gc $(command -v leakscan) serve …` for the same effect.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, constants } from 'node:os';

const kFlag = '--single-threaded-gc';
/** Set on the relaunched process, so it never relaunches again whatever its flags say. */
const kRelaunchedEnv = 'LEAKSCAN_RELAUNCHED';

/** The `--workers` value of a `scan` command line: undefined when absent or not a whole number. */
function workersOption(args: readonly string[]): number | undefined {
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--workers') value = args[i + 1];
    else if (a.startsWith('--workers=')) value = a.slice('--workers='.length);
  }
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * The Node arguments to start `argv` again with, or null when this process should run it itself:
 * not `scan`, already under the flag, relaunched before, opted out, or a pool that leaves cores idle.
 */
export function relaunchArgs(
  argv: readonly string[],
  execArgv: readonly string[],
  script: string,
  env: NodeJS.ProcessEnv,
  cores: number = availableParallelism(),
): string[] | null {
  if (argv[0] !== 'scan' || argv.includes('--help') || argv.includes('-h')) return null;
  if (execArgv.includes(kFlag) || env[kRelaunchedEnv] === '1' || env.LEAKSCAN_V8_GC === 'default') return null;
  const workers = workersOption(argv) ?? cores;
  if (workers === 0 || workers < cores) return null;
  return [kFlag, ...execArgv, script, ...argv];
}

/**
 * Runs the command line in a child Node started with `nodeArgs`, standard streams shared, and
 * resolves with its exit code. SIGINT, SIGTERM and SIGHUP sent to this process are passed on (a
 * terminal's Ctrl-C reaches both; a scan ends on the first either way). A child ended by a signal
 * gives 128 + its number, as a shell reports it.
 */
export async function relaunch(nodeArgs: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, nodeArgs, { stdio: 'inherit', env: { ...process.env, [kRelaunchedEnv]: '1' } });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (code !== null) return code;
    return 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0));
  } finally {
    for (const s of signals) process.off(s, forward);
  }
}
