/**
 * A rule's `runMatch` (see `RunMatch` in src/rules/types.ts) lets the engine report a group's match
 * without running the pattern: it must only answer where the pattern's search would find exactly that
 * match. Held here to the three claims of the contract against the rule's own pattern, on native RE2
 * (when built) and on V8 (the conformance reference), over generated windows: published card numbers
 * and registry IBAN examples, single-digit changes of them, every grouping, and neighbours of every
 * kind (letters, digits, separators, non-ASCII and astral characters, the window's edges). Keyword
 * rules' tokens (`matchFromHit`) the same way, their groups one hit or two neighbouring ones, their
 * values cut short, run on, doubled and changed in case.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { re2NativeBackend, v8Backend, type RegexBackend } from '../../src/engine/index.js';
import type { CompiledPattern } from '../../src/engine/backend/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceTriggerSpans } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';
import { kRegistryIbans, kTestCards } from './published-values.js';

/** The rules with a `runMatch`, each with values of its shape (its examples' and the published ones). */
const ruled = allRuleDefs.filter((d) => d.runMatch !== undefined);

function valuesOf(rule: RuleDef): string[] {
  const own = rule.examples.positive.flatMap((e) => (e.match === undefined ? [] : [e.match]));
  const published = rule.id === 'iban' ? kRegistryIbans : rule.id.startsWith('card-') ? kTestCards : [];
  return [...new Set([...own, ...published])];
}

/** A keyword rule's token rewritten: cut short, run on by a character, doubled, upper-cased, split. */
function tokenVariants(value: string): string[] {
  const half = value.slice(0, value.length >> 1);
  return [...new Set([value, value.slice(0, -1), `${value}A`, `${value}0`, `${value}-`, `${value}.`, `${value}${value}`, value.toUpperCase(), `${half} ${value.slice(half.length)}`, `${half}${value}`])];
}

/** `value` rewritten: its separators dropped or replaced, grouped in fours, or one digit changed. */
function variants(value: string): string[] {
  const bare = value.replace(/[ .-]/g, '');
  const fours = (sep: string) => bare.replace(/(.{4})(?=.)/g, `$1${sep}`);
  const changed = bare.replace(/[0-9](?=[0-9]?$)/, (d) => String((Number(d) + 1) % 10));
  return [...new Set([value, bare, fours(' '), fours('-'), fours('.'), changed, value.replace(/[ -]/, '.'), value.replace(/ /, '  '), bare.slice(1), `${bare}0`])];
}

const kLeft = ['', ' ', '"', ':', '=', '>', 'x', 'X', 'a ', 'ab-', 'Visa ', 'IBAN ', 'IBAN: ', 'ssn=', '1', '1 ', '1-', '12.', '-', '.', ' -', '. ', 'é', '田', '😀', '😀 ', '\u00a0', 'DE', 'GB29 ', 'NL ', 'A1 '];
const kRight = ['', ' ', '"', ',', 'x', 'X', '1', ' 1', '-1', '.5', '.', '-', ' -', '😀', 'é', '/29', ' session', ' 12/29', ' 4242424242424242', ' DE89', 'AB12'];

/** The digit runs of `text` as the shared tracker sees them: digits joined by single ` `, `-` or `.`. */
function runs(text: string): Array<[number, number]> {
  return [...text.matchAll(/[0-9]+(?:[ .-][0-9]+)*/g)].map((m) => [m.index, m.index + m[0].length]);
}

const kCompiled = new Map<string, CompiledPattern>();
function compiled(rule: RuleDef, backend: RegexBackend): CompiledPattern {
  const key = `${backend.name}:${rule.id}`;
  let p = kCompiled.get(key);
  if (p === undefined) kCompiled.set(key, (p = backend.compile(rule.pattern, rule.ignoreCase === true, rule.group ?? 0)));
  return p;
}

interface Tally {
  asked: number;
  answered: number;
}

const isKeywordRule = (rule: RuleDef): boolean => 'keywords' in rule.trigger;

/**
 * Checks the contract for every group of one or two neighbouring runs (a keyword rule: hits) of
 * `text` that `rule.runMatch` answers; returns how many groups it was asked about and answered.
 */
function checkText(rule: RuleDef, backend: RegexBackend, text: string, tally: Tally): void {
  const pattern = compiled(rule, backend);
  const all = isKeywordRule(rule) ? referenceTriggerSpans(rule, text) : runs(text);
  const out = new Int32Array(3);
  const groups = all.flatMap((r, i) => (i + 1 < all.length ? [r, [r[0], all[i + 1]![1]] as [number, number]] : [r]));
  for (const [start, end] of groups) {
    tally.asked++;
    if (!rule.runMatch!(text, start, end, out)) continue;
    tally.answered++;
    const [ms, vs, me] = [out[0]!, out[1]!, out[2]!];
    const where = `${rule.id} on ${JSON.stringify(text)} [${start}, ${end})`;
    // From its start, the search finds exactly that match, ending at or past the group's end.
    expect(me, where).toBeGreaterThanOrEqual(end);
    const m = pattern.exec(text, ms);
    expect(m, where).toEqual({ start: ms, end: me, groupStart: vs, groupEnd: me });
    // From after it and before the group's end, nothing starts before the group's end.
    for (let f = ms + 1; f < end; f++) {
      const later = pattern.exec(text, f);
      if (later !== null) expect(later.start, `${where} from ${f}`).toBeGreaterThanOrEqual(end);
    }
    // From before it, whatever starts earlier ends by its start and by the group's.
    for (let f = 0; f < ms; f++) {
      const earlier = pattern.exec(text, f);
      if (earlier !== null && earlier.start < ms) expect(earlier.end, `${where} from ${f}`).toBeLessThanOrEqual(Math.min(ms, start));
    }
  }
}

const backends = [v8Backend, ...(re2NativeBackend ? [re2NativeBackend] : [])];

describe('runMatch answers only where the pattern finds that match and no other', () => {
  it('the card rules, the IBAN rule, the whole-run identity numbers and keyword-led tokens declare one', () => {
    const ids = ruled.map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining(['card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'iban', 'us-ssn', 'us-itin']));
    expect(ids).toEqual(expect.arrayContaining(['aws-access-key-id', 'gcp-api-key', 'github-pat', 'slack-token', 'stripe-secret-key', 'jwt']));
  });

  for (const backend of backends) {
    for (const rule of ruled) {
      it(`${rule.id} (${backend.name}): every value and variant between every pair of neighbours`, () => {
        const tally = { asked: 0, answered: 0 };
        for (const value of valuesOf(rule)) {
          for (const v of (isKeywordRule(rule) ? tokenVariants : variants)(value)) {
            for (const left of kLeft) for (const right of kRight) checkText(rule, backend, `${left}${v}${right}`, tally);
          }
        }
        // Plain values are answered (the contract is not met by answering nothing).
        expect(tally.answered).toBeGreaterThan(Math.min(100, tally.asked / 20));
      });

      it(`${rule.id} (${backend.name}): generated lines of values, fillers and neighbours`, () => {
        const values = valuesOf(rule).flatMap(isKeywordRule(rule) ? tokenVariants : variants);
        const piece = fc.oneof(fc.constantFrom(...values), fc.constantFrom(...kLeft, ...kRight), fc.stringMatching(/^[ -~]{0,6}$/), fc.constantFrom('😀', 'é', '田', '\n'));
        const tally = { asked: 0, answered: 0 };
        fc.assert(
          fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (pieces) => {
            checkText(rule, backend, pieces.join(''), tally);
          }),
          { seed: 36, numRuns: 300 },
        );
        expect(tally.answered).toBeGreaterThan(0);
      });
    }
  }
});
