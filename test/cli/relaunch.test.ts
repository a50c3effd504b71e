import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relaunchArgs } from '../../src/cli/relaunch.js';

describe('relaunchArgs: scan with a pool on every core runs under single-threaded GC', () => {
  const exec = ['--import', 'tsx'];
  const at = (argv: string[], opts: { execArgv?: string[]; env?: NodeJS.ProcessEnv; cores?: number } = {}) =>
    relaunchArgs(argv, opts.execArgv ?? exec, '/x/main.js', opts.env ?? {}, opts.cores ?? 2);

  it('relaunches scan by default (one worker per core) and with as many workers as cores or more', () => {
    expect(at(['scan', 'dir'])).toEqual(['--single-threaded-gc', '--import', 'tsx', '/x/main.js', 'scan', 'dir']);
    expect(at(['scan', '--workers', '2', '-'])).not.toBeNull();
    expect(at(['scan', '--workers=8', '-'], { cores: 4 })).not.toBeNull();
    expect(at(['scan'], { cores: 1 })).not.toBeNull();
  });

  it('leaves alone the in-process scanner, pools smaller than the machine, other commands and help', () => {
    expect(at(['scan', '--workers', '0', '-'])).toBeNull();
    expect(at(['scan', '--workers=1', '-'])).toBeNull();
    expect(at(['scan', '--workers', '3'], { cores: 4 })).toBeNull();
    expect(at(['serve', '--origin', 'http://x'])).toBeNull();
    expect(at(['rules'])).toBeNull();
    expect(at([])).toBeNull();
    expect(at(['scan', '--help'])).toBeNull();
    // A path after `--` named like the option is not the option.
    expect(at(['scan', '--', '--workers', '0'])).not.toBeNull();
  });

  it('never relaunches twice, and honours LEAKSCAN_V8_GC=default', () => {
    expect(at(['scan'], { execArgv: ['--single-threaded-gc'] })).toBeNull();
    expect(at(['scan'], { env: { LEAKSCAN_RELAUNCHED: '1' } })).toBeNull();
    expect(at(['scan'], { env: { LEAKSCAN_V8_GC: 'default' } })).toBeNull();
  });
});

describe('the relaunched scan (real processes)', () => {
  const main = join(process.cwd(), 'src/cli/main.ts');

  it('runs in a child with the flag, and SIGTERM to the parent ends both with 143', async () => {
    // Reads a standard input that never ends, so the scan is still running when the signal comes.
    const parent = spawn(process.execPath, ['--import', 'tsx', main, 'scan', '--workers', '2', '-'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LEAKSCAN_V8_GC: '' },
    });
    parent.stdin.write('still writing ');
    let child = '';
    for (let i = 0; i < 200 && child === ''; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        child = execFileSync('pgrep', ['-P', String(parent.pid)], { encoding: 'utf8' }).trim();
      } catch {
        // no child yet
      }
    }
    expect(child).toMatch(/^\d+$/);
    expect(execFileSync('ps', ['-o', 'args=', '-p', child], { encoding: 'utf8' })).toContain('--single-threaded-gc');
    parent.kill('SIGTERM');
    const [code] = await once(parent, 'exit');
    expect(code).toBe(143);
    expect(() => process.kill(Number(child), 0)).toThrow();
  }, 60_000);
});
