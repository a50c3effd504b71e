import { managedRuleset } from '../rules/index.js';
import { kPhase, type ManagedRulesetView, type RulesetSummary } from './types.js';

/** The managed ruleset's rules change only with a leakscan release: one fixed timestamp per build. */
const kManagedUpdated = '2024-01-01T00:00:00.000000Z';

/** The managed rule ids and every tag they carry (what `overrides.rules[].id` and `categories[].category` may name). */
export const kManagedRuleIds: ReadonlySet<string> = new Set(managedRuleset.rules.map((r) => r.id));
export const kManagedTags: ReadonlySet<string> = new Set(managedRuleset.rules.flatMap((r) => r.tags));

export function isManagedRulesetId(id: string): boolean {
  return id === managedRuleset.id;
}

/** The managed ruleset as the API shows it (kind `managed`, rules with `categories`, no expressions). */
export function managedRulesetView(tag?: string): ManagedRulesetView {
  return {
    ...managedSummary(),
    rules: managedRuleset.rules
      .filter((r) => tag === undefined || r.tags.includes(tag))
      .map((r) => ({
        id: r.id,
        version: managedRuleset.version,
        action: 'log' as const,
        categories: [...r.tags],
        description: r.description,
        last_updated: kManagedUpdated,
        ref: r.id,
        enabled: r.enabledByDefault,
      })),
  };
}

export function managedSummary(): RulesetSummary {
  return {
    id: managedRuleset.id,
    name: managedRuleset.name,
    description: managedRuleset.description,
    kind: 'managed',
    version: managedRuleset.version,
    last_updated: kManagedUpdated,
    phase: kPhase,
  };
}
