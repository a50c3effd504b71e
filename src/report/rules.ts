import type { Confidence, RuleDef } from '../rules/index.js';

/**
 * How sure a rule's findings are, as `leakscan rules --format json` and docs/rules.md show it. Derived
 * from the rule's definition, never stored apart from it, so the catalogue cannot drift from the engine.
 */
export interface RuleConfidence {
  /** Level of a match that passes every check the rule has, its context words included (default `high`). */
  confidence: Confidence;
  /**
   * Level of a match found without the rule's context words, reported when the scan's threshold
   * (`minConfidence`, `--min-confidence`, a zone's `sensitivity_level`) reaches it; `null` when the
   * rule has no context words or always requires them.
   */
  withoutContext: Confidence | null;
  /** A checksum or structural check (the rule's validator) backs every match. */
  checksum: boolean;
  /** The rule asks for context words near its match. */
  context: boolean;
}

export function ruleConfidence(rule: RuleDef): RuleConfidence {
  return {
    confidence: rule.confidence ?? 'high',
    withoutContext: rule.context?.without ?? null,
    checksum: rule.validate !== undefined,
    context: rule.context !== undefined,
  };
}

/** `high`, or `high/medium` for a rule whose matches without their context words are reported at medium. */
export function confidenceText(c: RuleConfidence): string {
  return c.withoutContext === null ? c.confidence : `${c.confidence}/${c.withoutContext}`;
}
