/**
 * The shape of one managed rule. Rules are data: the engine compiles every enabled rule's trigger into
 * one shared prefilter pass, confirms candidates with the rule's RE2 pattern inside a bounded window,
 * then runs the cheap JavaScript checks declared here (boundaries, context, entropy, validator,
 * placeholder suppression). A rule never sees more than its window, so scanning stays linear.
 */

/** The three data classes of the spec (tags used by the Rulesets API's `categories` overrides). */
export type Family = 'pii' | 'financial-information' | 'secrets';

/**
 * What makes the prefilter hand a rule a candidate. A rule's pattern must overlap the trigger's span,
 * so a match always contains (or touches) the trigger:
 * - `keywords`: case-insensitive literals found by one Aho-Corasick pass shared by all rules
 *   (as gitleaks and trufflehog do). The span is the keyword occurrence.
 * - `digits`: a maximal run of ASCII digits in which one separator from `separators` (default ` -.`)
 *   may sit between two digits (`4111 1111-1111.1111`); fires when the run holds at least `min`
 *   digits, however long it is (one run may hold several values). The span is the run. With `max`,
 *   it fires only for a run of its own separators holding between `min` and `max` digits: for values
 *   that are always a whole run (`fi-hetu`'s DDMMYY), so millisecond timestamps do not wake them.
 * - `token`: a maximal run of ASCII letters and digits (no separators) whose length is between `min`
 *   and `max` and that holds at least one digit (`needsDigit`, default true) and, if `needsLetter`,
 *   at least one letter. The span is the token.
 */
export type Trigger =
  | {
      readonly keywords: readonly string[];
      /**
       * For a case-sensitive rule: a character-class body (ASCII, read as `boundary`'s are) holding
       * the character right after the first keyword occurrence of every match (`ghp_` is followed by
       * `[A-Za-z0-9]`). An occurrence followed by any other character is dropped before it forms a
       * group (at the end of the text received so far it is kept). Held to the pattern by
       * test/engine/lead.test.ts.
       */
      readonly next?: string;
    }
  | { readonly digits: { readonly min: number; readonly max?: number; readonly separators?: string; readonly shape?: RunShape } }
  | {
      readonly token: {
        readonly min: number;
        readonly max: number;
        readonly needsDigit?: boolean;
        readonly needsLetter?: boolean;
      };
    };

/**
 * Necessary conditions on a digit run that the shared pass checks itself, before the run reaches the
 * rule's gate: the cheap share of `runGate`, on what the pass has in hand when the run ends (its first
 * digit, up to three characters before it, two after it, where its separators sit). The run is the
 * one the gate is handed: the shared tracker's, digits joined by single separators of any digit rule,
 * not only the rule's own. A run failing its rule's shape is not reported to that rule. Each condition
 * must follow from the rule's `runGate` (whenever the gate passes, the shape does;
 * test/rules/gates.test.ts checks this on generated text), and a character the pass has not seen yet
 * (the end of the body) passes. A piece of an overlong run (see `kMaxRunSpan`) is always reported.
 */
export interface RunShape {
  /** The digits the run may start with (`'23456'`). */
  readonly first?: string;
  /**
   * The only digit counts, each within the trigger's `min`..`max`, of a sub-run that fires the rule
   * (fr-nir: 15, or the 8 after a Corsican department letter; never a 13-digit timestamp).
   */
  readonly counts?: readonly number[];
  /**
   * The `count` (default 1) characters right before the run, after one optional `skip` character
   * next to it, are all in `chars` (a character-class body of ASCII, read as `boundary`'s are: `'A-Z'`;
   * a leading `^` negates, so `^` itself goes later, as in `'=^'`).
   */
  readonly before?: { readonly chars: string; readonly skip?: string; readonly count?: 1 | 2 };
  /** The character right after the run, after one optional `skip` character, is in `chars`. */
  readonly after?: { readonly chars: string; readonly skip?: string };
  /**
   * The separators that come before the run's `within`-th digit, if any, are all one character of
   * `chars`, and the first comes after exactly `first` digits (a card's `4111 1111 1111 1111`, never
   * an order id's `6332907625 200 546` or `2024-473989 200 470`). With `required`, there is one: a run
   * with no separator before its `within`-th digit (a bare 13-digit timestamp) fails.
   */
  readonly groups?: { readonly within: number; readonly first: number; readonly chars: string; readonly required?: boolean };
  /**
   * The characters around the rule's own sub-run that fired it (with `separators: ''`, a maximal
   * block of digits), rather than around the whole run: before it and after it, each maybe across one
   * skip character. A run fires the rule when one of its sub-runs of the right length passes.
   */
  readonly block?: { readonly before?: { readonly chars: string; readonly skip?: string }; readonly after?: { readonly chars: string; readonly skip?: string } };
}

/**
 * A rule's match on a group without a pattern call (`RuleDef.runMatch`). `text` is the window the
 * pattern would search (its start is the pattern's `^`, its end the text's end), [start, end) the
 * group of trigger spans. False when unsure. True after writing to `out` the match's start (out[0]),
 * its value's start (out[1]) and the end of both (out[2], at or after `end`: a digit run's match ends
 * with the run, a token's runs on past its keyword), when a leftmost-first search of the pattern over
 * `text` would:
 * - from out[0], find exactly that match (and that value: the rule's `group`);
 * - from any position after out[0] and before `end`, find no match starting before `end`;
 * - from any position before out[0], find only matches that end by out[0] and by `start`.
 * Then the engine's loop over the window meets that match alone among those it reports for the group,
 * and the match's checks (`accept`) decide as they would. test/rules/run-match.test.ts holds every
 * rule's function to these three claims against the rule's own pattern.
 */
export type RunMatch = (text: string, start: number, end: number, out: Int32Array) => boolean;

/** A text the rule must (positive) or must not (negative) find. */
export interface RuleExample {
  readonly text: string;
  /** Content type the example is scanned as; default `text/plain`. */
  readonly contentType?: string;
  /** For positives: the exact value (the rule's `group`, decoded text) that must be found. */
  readonly match?: string;
  /**
   * For positives: the confidence the finding has (default the rule's own level). Examples are
   * scanned at the lowest threshold: a negative is found at no level at all.
   */
  readonly confidence?: Confidence;
}

/**
 * How sure a finding is (Presidio's score, Google DLP's likelihood, Cloudflare DLP's confidence):
 * `high`: format, checksum or structure, and the context the rule asks for; `medium`: format and
 * checksum without the context word (a bare NHS or BSN number, a vendor-shaped key without the
 * vendor's name); `low`: a shape with neither checksum nor context.
 */
export type Confidence = 'high' | 'medium' | 'low';

/** Order of the levels: a threshold reports every level at or above its rank. */
export const kConfidenceRank: Readonly<Record<Confidence, number>> = { low: 1, medium: 2, high: 3 };

/** The levels from the highest down. */
export const kConfidenceLevels: readonly Confidence[] = ['high', 'medium', 'low'];

/** A rank (1-3, as `kConfidenceRank` gives it) back to its level. */
export const kConfidenceByRank: readonly (Confidence | undefined)[] = [undefined, 'low', 'medium', 'high'];

/** Whether a finding of confidence `level` is reported at threshold `min`. */
export function reaches(level: Confidence, min: Confidence): boolean {
  return kConfidenceRank[level] >= kConfidenceRank[min];
}

/** Context the rule needs near its match (Presidio's context words, Macie's keywords). */
export interface ContextRequirement {
  /** Case-insensitive words; one must occur within `before` characters before the match (or `after` after it). */
  readonly words: readonly string[];
  readonly before: number;
  readonly after?: number;
  /**
   * The confidence of a match found without any of the words. Unset, such a match is dropped. Set, it
   * is reported at this level when the scan's threshold (`minConfidence`) reaches it; below the
   * threshold the words stay a hard requirement, so the default scan does no extra work.
   */
  readonly without?: 'medium' | 'low';
}

export interface RuleDef {
  /** Stable kebab-case id, never reused or renamed (e.g. `us-ssn`, `aws-access-key-id`). */
  readonly id: string;
  /** One sentence shown in findings and in the dashboard. */
  readonly description: string;
  readonly family: Family;
  /** Extra tags: lower-case ISO 3166 alpha-2 country codes (`us`, `gb`…) and topic tags (`card`, `aws`…). */
  readonly tags: readonly string[];
  /** Noisy rules are off by default (spec part 1A); they run with `allRules` or when enabled by id/tag. */
  readonly enabledByDefault: boolean;
  readonly trigger: Trigger;
  /**
   * The confirming pattern in the common subset of RE2 and JavaScript (`u` flag) syntax: no
   * lookaround, no backreferences, no inline flags. Lead with literals; keep counted repeats bounded.
   * Word boundaries are better expressed with `boundary` than with a leading `\b`.
   */
  readonly pattern: string;
  /** Case-insensitive matching. */
  readonly ignoreCase?: boolean;
  /** Capture group holding the sensitive value (reported span, validated, redacted); default 0. */
  readonly group?: number;
  /**
   * Longest possible whole match in characters; the confirmation window is the trigger span ± this,
   * and longer matches are rejected. Because the bound is enforced here, patterns should use open
   * repeats (`{20,}`) rather than large counted ones (`{20,1000}`): RE2 expands counted repeats into
   * that many states, which makes compiling slow and memory-hungry.
   */
  readonly maxLength: number;
  /**
   * At most how many characters a match can start before the first trigger occurrence it overlaps
   * (default: `maxLength`). A rule whose keyword is its match's own prefix (`eyJ` of a JWT) sets 0,
   * so its window does not reach `maxLength` back for nothing; test/engine/lead.test.ts checks the
   * claim on every example.
   */
  readonly lead?: number;
  /**
   * For a keyword rule whose matches start before their keyword by a stretch of unbounded length (a
   * name ending with it: `<DbPassword>`, `key="jdbc.password"`): how far before the trigger at
   * `start` of `text` a match overlapping it can start, worked out from the text before it (the
   * engine takes at most `lead`). `text` holds at least `lead` characters before `start` where the
   * body has them. The engine asks about a group's first trigger only, so a later trigger's answer may
   * not reach further back than an earlier one's. test/engine/lead.test.ts checks both claims.
   */
  readonly leadAt?: (text: string, start: number) => number;
  /**
   * For a digit-run or token rule: a cheap necessary condition on the run or token that woke it,
   * `text[start, end)` (a run's own text is digits and single separators; `text` is the engine's kept
   * text). False means
   * no value the rule accepts lies in that run, and the engine drops the trigger before any pattern
   * call or screen. It must never be false for a run holding an accepted value (the conformance
   * oracle compares against the reference matcher, which has no gates; test/rules/gates.test.ts runs
   * every example). Rules that share one gate function are asked once per run.
   */
  readonly runGate?: (text: string, start: number, end: number) => boolean;
  /**
   * For a keyword rule: a cheap necessary condition on its hits, asked of each group of them before
   * any pattern call or screen. `text[start, end)` holds the group (its keyword hits and what lies
   * between them) with the rule's window around it (at least `lead`, or `leadAt`'s, characters
   * before). False means
   * no match the rule accepts contains a hit of the group. It must never be false for a group holding
   * an accepted match's hit (test/rules/gates.test.ts holds it to the reference matcher, which has
   * none, on every example and on generated text).
   */
  readonly hitGate?: (text: string, start: number, end: number) => boolean;
  /**
   * The value is always exactly the digit run or token that woke the rule: `wholeRun` rules whose
   * body is digits and separators only (the lead-in starts the value at the run's first digit; the
   * optional tail, with `validate` anchoring the shape, ends it at the last), or a token rule whose
   * value is a whole token. The engine then asks `validate` about the run or token itself before any
   * pattern call: the run gate these rules share by construction.
   */
  readonly valueIsRun?: boolean;
  /**
   * The pattern's match on a group, worked out without searching the window (see `RunMatch`): from
   * a digit run itself, or a keyword rule's token asked at its hit (`matchFromHit`). Only where the
   * rule can prove the search would find that match and no other; unset, or false for a group, the
   * pattern runs.
   */
  readonly runMatch?: RunMatch;
  /**
   * Characters that must NOT touch the whole match on each side, as the body of a character class
   * (`'A-Za-z0-9'`). Default `'A-Za-z0-9'` on both sides; `''` disables the check on that side.
   */
  readonly boundary?: { readonly left?: string; readonly right?: string };
  readonly context?: ContextRequirement;
  /** Minimum Shannon entropy (bits per character) of the value. */
  readonly minEntropy?: number;
  /**
   * Confidence of a match that passes every check, its context included (default `high`). A rule
   * whose level is below the scan's threshold is not compiled at all.
   */
  readonly confidence?: Confidence;
  /** Checksum or structural check of the value (pure, no I/O). `false` drops the match. */
  readonly validate?: (value: string) => boolean;
  /**
   * Values come in lists (`4242424242424242 4000-0566-5566-5556 4000 0025 0000 3155`): right after an
   * accepted value, a space and a digit, the pattern is tried again on the text after the space as if
   * it began there, so the next value needs no lead-in of its own (see `listContinues`).
   */
  readonly inLists?: boolean;
  /**
   * The value is an encoding of more text (`base64`): the engine decodes it once and scans the result
   * with the same rules; the rule's own match is never reported (see src/engine/decoded.ts).
   */
  readonly decodes?: 'base64';
  /**
   * Placeholder suppression (EXAMPLE, xxxx, ${VAR}, {{ }}, one repeated character, published sample
   * keys). Default true for `secrets`, false otherwise.
   */
  readonly suppressPlaceholders?: boolean;
  readonly examples: { readonly positive: readonly RuleExample[]; readonly negative: readonly RuleExample[] };
  /** Why the rule is off by default or cannot reach the precision goal, shown in the rule catalogue. */
  readonly note?: string;
}
