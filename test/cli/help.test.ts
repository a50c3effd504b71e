import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandPath, kHelp } from '../../src/cli/help.js';
import { buildProgram, loadCommands } from '../../src/cli/program.js';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from './helpers.js';

const kRoot = join(import.meta.dirname, '../..');

function io(): CliIO {
  return { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, columns: 80, cwd: kRoot };
}

/** Every command path of the program (`''`, `scan`, `token create`…), commander's `help` left out. */
/** Every command module, loaded once for the file (the program loads only what a command line needs). */
const allCommands = await loadCommands();

function commandPaths(): string[] {
  const out: string[] = [];
  const visit = (c: Command): void => {
    out.push(commandPath(c));
    for (const sub of c.commands) if (sub.name() !== 'help') visit(sub);
  };
  visit(buildProgram(io(), () => {}, allCommands));
  return out;
}

/** The `leakscan …` part of an example line as argv: after any pipe, before a comment, `&&` or a pipe. */
function exampleArgv(line: string): string[][] {
  const code = line.replace(/\s+#.*$/, '');
  return code
    .split(/\s*(?:\||&&)\s*/)
    .filter((part) => part.startsWith('leakscan '))
    .map((part) => [...part.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!).slice(1));
}

describe('--help', () => {
  const paths = commandPaths();

  it('has exit codes and examples for the program and every command, and no entry for a command that does not exist', () => {
    expect(paths.length).toBeGreaterThan(20);
    expect(Object.keys(kHelp).sort()).toEqual([...paths].sort());
  });

  it.each(commandPaths())('leakscan %s --help lists exit codes and examples (exit 0)', async (path) => {
    const r = await runCli([...path.split(' ').filter(Boolean), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nExit codes:\n {2}0 +\S/);
    expect(r.stdout).toMatch(/\nExamples:\n {2}\S/);
    const examples = r.stdout.slice(r.stdout.indexOf('\nExamples:\n')).split('\n').slice(2).filter(Boolean);
    expect(examples.length).toBeGreaterThan(0);
    // Each example runs this command (the program's may run any).
    for (const e of examples) expect(e, e).toContain(`leakscan ${path}`.trim());
  });

  it('examples use paths that exist in the repository and options the command accepts', async () => {
    let checked = 0;
    for (const help of Object.values(kHelp)) {
      for (const example of help.examples) {
        for (const m of example.matchAll(/(?:^|\s)((?:corpus|test|docs|src|bench)\/\S+)/g)) expect(existsSync(join(kRoot, m[1]!)), `${m[1]} in "${example}"`).toBe(true);
        for (const argv of exampleArgv(example)) {
          if (argv.some((a) => a.startsWith('<'))) continue;
          // Parsed by the real program with every action replaced: an unknown option or bad choice throws.
          const program = buildProgram(io(), () => {}, allCommands);
          const stub = (c: Command): void => {
            if (c.commands.length === 0) c.action(() => {});
            c.commands.forEach(stub);
          };
          program.commands.forEach(stub);
          await expect(program.parseAsync(argv, { from: 'user' }), example).resolves.toBeDefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
