import { kConfidenceLevels, type Confidence, type RuleDef } from './types.js';
import { LeakscanError } from '../errors.js';
import { piiRules } from './pii/index.js';
import { financialRules } from './financial/index.js';
import { secretRules } from './secrets/index.js';
import { contactRules } from './contact.js';

export type { RuleDef, Family, Trigger, RuleExample, ContextRequirement, Confidence } from './types.js';
export { kConfidenceRank, kConfidenceLevels, kConfidenceByRank, reaches } from './types.js';
export { isPlaceholder, knownSampleValues } from './placeholders.js';

/** Every managed rule, in catalogue order. */
export const allRuleDefs: readonly RuleDef[] = [...piiRules, ...contactRules, ...financialRules, ...secretRules];

/** The published id of the Sensitive Data Detection managed ruleset. */
export const kManagedRulesetId = 'e22d83c647c64a3eae91b71b499d988e';

export interface ManagedRuleInfo {
  id: string;
  description: string;
  tags: string[];
  enabledByDefault: boolean;
}

export interface ManagedRuleset {
  id: string;
  name: string;
  description: string;
  version: string;
  rules: ManagedRuleInfo[];
}

/** Tags of a rule as exposed to users: the family first, then the rule's own tags. */
export function ruleTags(rule: RuleDef): string[] {
  return [rule.family, ...rule.tags];
}

/** The managed ruleset as the Rulesets API and `leakscan rules` describe it. */
export const managedRuleset: ManagedRuleset = {
  id: kManagedRulesetId,
  name: 'Cloudflare Sensitive Data Detection',
  description: 'Detects personal data, financial information and secrets in HTTP response bodies.',
  version: '1',
  rules: allRuleDefs.map((r) => ({
    id: r.id,
    description: r.description,
    tags: ruleTags(r),
    enabledByDefault: r.enabledByDefault,
  })),
};

/**
 * Which rules run: the defaults (or all with `allRules`), then `enable`, then `disable` (which wins).
 * Each selector is a rule id or a tag. Unknown selectors throw, so typos are not silent.
 */
export function selectRules(opts: { allRules?: boolean | undefined; enable?: readonly string[] | undefined; disable?: readonly string[] | undefined }): RuleDef[] {
  const known = new Set<string>();
  for (const r of allRuleDefs) {
    known.add(r.id);
    for (const t of ruleTags(r)) known.add(t);
  }
  for (const s of [...(opts.enable ?? []), ...(opts.disable ?? [])]) {
    if (!known.has(s)) throw new UnknownRuleSelectorError(s);
  }
  const hit = (r: RuleDef, sel: readonly string[] | undefined) =>
    sel !== undefined && sel.some((s) => s === r.id || ruleTags(r).includes(s));
  return allRuleDefs.filter((r) => {
    if (hit(r, opts.disable)) return false;
    return opts.allRules === true || r.enabledByDefault || hit(r, opts.enable);
  });
}

/** An `enable`/`disable` selector that is neither a rule id nor a tag. */
export class UnknownRuleSelectorError extends LeakscanError {
  readonly selector: string;
  constructor(selector: string) {
    super('SDD_ERR_UNKNOWN_RULE', `${JSON.stringify(selector)} (see \`leakscan rules\`)`);
    this.name = 'UnknownRuleSelectorError';
    this.selector = selector;
  }
}

/** `minConfidence` as given (default `high`); anything else is an option error. */
export function checkConfidence(value: unknown): Confidence {
  if (value === undefined) return 'high';
  if (typeof value === 'string' && (kConfidenceLevels as readonly string[]).includes(value)) return value as Confidence;
  throw new LeakscanError('SDD_ERR_INVALID_OPTION', `minConfidence must be one of ${kConfidenceLevels.join(', ')}`);
}
