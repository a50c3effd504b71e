import { type Command, Option } from 'commander';
import { managedRuleset } from '../../rules/index.js';
import type { CliIO } from '../io.js';
import { escapeControls } from '../../report/index.js';

interface RulesOptions {
  format: 'text' | 'json';
}

/**
 * `leakscan rules`: the managed rules. `--format json` prints the rules array
 * (`[{ id, description, tags, enabledByDefault }]`), ready for `jq '.[] | select(.enabledByDefault)'`;
 * the ruleset's own id and version are in the text header and in `managedRuleset`.
 */
export function registerRules(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('rules')
    .description('list the managed rules: id, description, tags, enabled by default')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((opts: RulesOptions) => {
      io.stdout.write(opts.format === 'json' ? `${JSON.stringify(managedRuleset.rules, null, 2)}\n` : rulesText());
      setExit(0);
    });
}

export function rulesText(): string {
  const rules = managedRuleset.rules;
  const rows = rules.map((r) => [r.id, r.enabledByDefault ? 'on' : 'off', r.tags.join(','), r.description].map(escapeControls));
  const header = ['ID', 'DEFAULT', 'TAGS', 'DESCRIPTION'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]): string => cells.map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  const on = rules.filter((r) => r.enabledByDefault).length;
  return [
    `${managedRuleset.name} (ruleset ${managedRuleset.id}, version ${managedRuleset.version})`,
    '',
    line(header),
    ...rows.map(line),
    '',
    `${rules.length} rules, ${on} enabled by default`,
    '',
  ].join('\n');
}
