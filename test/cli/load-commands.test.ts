/**
 * The command line loads only the command module it runs (src/cli/program.ts, `loadCommands`): a
 * module imports what its command needs (the service, its S3, NATS and GraphQL clients), which
 * `leakscan scan` must not pay for at every start.
 */
import { describe, expect, it } from 'vitest';
import { kCommandNames, loadCommands } from '../../src/cli/program.js';
import { runCli } from './helpers.js';

describe('loadCommands', () => {
  it('loads the named command alone, none for --version, every one for help or an unknown name', async () => {
    expect(kCommandNames).toHaveLength(12);
    expect(await loadCommands(['scan', 'x.txt', '--format', 'json'])).toHaveLength(1);
    expect(await loadCommands(['scan-worker', '--nats', 'nats://127.0.0.1:4222'])).toHaveLength(1);
    expect(await loadCommands(['--version'])).toHaveLength(0);
    for (const argv of [[], ['--help'], ['scan', '--help'], ['-h'], ['scna'], ['help', 'scan']]) expect(await loadCommands(argv), argv.join(' ')).toHaveLength(12);
    expect(await loadCommands()).toHaveLength(12);
  });

  it('a mistyped command is still a usage error with a suggestion', async () => {
    const r = await runCli(['scna']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scan');
  });
});
