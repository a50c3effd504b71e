import { type Command, Option } from 'commander';
import { resolve } from 'node:path';
import { ServeError } from '../../eventlog/index.js';
import { stopService } from '../../serve/index.js';
import { type CliIO, UsageError } from '../io.js';

/**
 * `leakscan stop`: stops the `leakscan serve` (or `leakscan demo`) running on a data directory, found
 * through its pid file, by sending it SIGTERM and waiting for it to exit, so that it drains as on
 * Ctrl-C. Signalling the server itself matters: a `kill` of the `npm`/`npx` wrapper does not reach it.
 * Exit codes: 0 stopped; 1 still running after --timeout (SERVE_ERR_STOP_TIMEOUT), or exited without
 * closing its stores; 2 nothing runs there (SERVE_ERR_NOT_RUNNING) or a usage error. See docs/serve.md.
 */
export function registerStop(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('stop')
    .description('stop the service running on a data directory: it drains, writes its events and releases the directory')
    .addOption(new Option('-d, --data <dir>', 'data directory of the running service').default('.leakscan'))
    .addOption(new Option('-t, --timeout <seconds>', 'how long to wait for it to exit').default('30'))
    .action(async (opts: { data: string; timeout: string }) => {
      const dataDir = resolve(io.cwd, opts.data);
      const seconds = /^[0-9]{1,6}(\.[0-9]+)?$/.test(opts.timeout) ? Number(opts.timeout) : Number.NaN;
      if (!(seconds > 0)) throw new UsageError(`--timeout must be a number of seconds above 0 (got ${JSON.stringify(opts.timeout)})`);
      const out = (line: string): void => void io.stdout.write(`${line}\n`);
      try {
        const r = await stopService(dataDir, {
          timeoutMs: seconds * 1000,
          onSignal: (info) => out(`sent SIGTERM to pid ${info.pid} (leakscan serve on ${dataDir}, API ${info.api.url}); waiting up to ${seconds} s for it to drain`),
        });
        if (!r.clean) {
          io.stderr.write(`leakscan: warning: pid ${r.pid} exited without closing ${dataDir} (killed?); the next start repairs it\n`);
          setExit(1);
          return;
        }
        out(`stopped pid ${r.pid} in ${(r.ms / 1000).toFixed(1)} s; ${dataDir} is free`);
        setExit(0);
      } catch (e) {
        if (!(e instanceof ServeError)) throw e;
        io.stderr.write(`leakscan: ${e.code}: ${e.message}\n`);
        setExit(e.code === 'SERVE_ERR_STOP_TIMEOUT' ? 1 : 2);
      }
    });
}
