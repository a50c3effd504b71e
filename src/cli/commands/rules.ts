import { type Command, Option } from 'commander';
import { allRuleDefs, managedRuleset, type ManagedRuleInfo } from '../../rules/index.js';
import type { CliIO } from '../io.js';
import { confidenceText, escapeControls, ruleConfidence, type RuleConfidence } from '../../report/index.js';

interface RulesOptions {
  format: 'text' | 'json';
}

/** One rule as `leakscan rules --format json` prints it: the managed rule and its confidence behaviour. */
export type RuleListing = ManagedRuleInfo & RuleConfidence;

/** The rules array of `--format json`, in catalogue order. */
export function rulesListing(): RuleListing[] {
  const defs = new Map(allRuleDefs.map((d) => [d.id, d]));
  return managedRuleset.rules.map((r) => ({ ...r, ...ruleConfidence(defs.get(r.id)!) }));
}

/**
 * `leakscan rules`: the managed rules. `--format json` prints the rules array
 * (`[{ id, description, tags, enabledByDefault, confidence, withoutContext, checksum, context }]`),
 * ready for `jq '.[] | select(.enabledByDefault)'`; the ruleset's own id and version are in the text
 * header and in `managedRuleset`.
 */
export function registerRules(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('rules')
    .description('list the managed rules: id, description, tags, enabled by default, confidence')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((opts: RulesOptions) => {
      io.stdout.write(opts.format === 'json' ? `${JSON.stringify(rulesListing(), null, 2)}\n` : rulesText());
      setExit(0);
    });
}

export function rulesText(): string {
  const rules = rulesListing();
  const rows = rules.map((r) => [r.id, r.enabledByDefault ? 'on' : 'off', confidenceText(r), r.checksum ? 'yes' : 'no', r.tags.join(','), r.description].map(escapeControls));
  const header = ['ID', 'DEFAULT', 'CONFIDENCE', 'CHECKSUM', 'TAGS', 'DESCRIPTION'];
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
    'CONFIDENCE: the level of a finding with its context; after a slash, the level of one without its',
    'context words (reported from --min-confidence at that level). CHECKSUM: a checksum or structure check backs it.',
    '',
  ].join('\n');
}
