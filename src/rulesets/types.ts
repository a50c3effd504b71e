/** Wire shapes of the Rulesets API (snake_case, as Cloudflare's v4 API and its SDK use them). */

/** The only phase leakscan serves: Sensitive Data Detection runs on responses. */
export const kPhase = 'http_response_firewall_managed';

export type RuleAction = 'execute' | 'skip' | 'log';

/**
 * `sensitivity_level` of a managed ruleset override, the SDK's values: how low a confidence the
 * rules report (`default`: high only, `medium`: medium and high, `low`: every level, `eoff`: nothing).
 * See `kSensitivityThreshold` and docs/api.md, "Sensitivity".
 */
export type SensitivityLevel = 'default' | 'medium' | 'low' | 'eoff';

export const kSensitivityLevels: readonly SensitivityLevel[] = ['default', 'medium', 'low', 'eoff'];

export interface CategoryOverride {
  category: string;
  action?: 'log';
  enabled?: boolean;
  sensitivity_level?: SensitivityLevel;
}

export interface RuleOverride {
  id: string;
  action?: 'log';
  enabled?: boolean;
  sensitivity_level?: SensitivityLevel;
}

export interface Overrides {
  action?: 'log';
  enabled?: boolean;
  sensitivity_level?: SensitivityLevel;
  categories?: CategoryOverride[];
  rules?: RuleOverride[];
}

export interface ExecuteParameters {
  id: string;
  version: string;
  overrides?: Overrides;
}

export interface SkipParameters {
  ruleset?: 'current';
  rulesets?: string[];
  rules?: Record<string, string[]>;
}

export interface Rule {
  id: string;
  version: string;
  action: RuleAction;
  action_parameters?: ExecuteParameters | SkipParameters;
  expression: string;
  description: string;
  last_updated: string;
  ref: string;
  enabled: boolean;
  logging?: { enabled: boolean };
}

export type RulesetKind = 'zone' | 'custom' | 'managed';

export interface Ruleset {
  id: string;
  name: string;
  description: string;
  kind: RulesetKind;
  version: string;
  last_updated: string;
  phase: string;
  source?: string;
  rules: Rule[];
}

/** A ruleset without its rules (list and version-list entries). */
export type RulesetSummary = Omit<Ruleset, 'rules'>;

/** One rule of the managed ruleset, read-only: it carries its tags as `categories` and no expression. */
export interface ManagedRule {
  id: string;
  version: string;
  action: 'log';
  categories: string[];
  description: string;
  last_updated: string;
  ref: string;
  enabled: boolean;
}

export interface ManagedRulesetView extends Omit<Ruleset, 'rules'> {
  rules: ManagedRule[];
}

/** `position` of an added or moved rule: exactly one key. */
export type Position = { before: string } | { after: string } | { index: number };
