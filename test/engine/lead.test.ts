/**
 * `RuleDef.lead` narrows a rule's window on the left: it claims that a match never starts more than
 * `lead` characters before the first trigger occurrence it overlaps. A wrong claim would silently
 * lose findings, so it is checked on every whole match of the pattern (accepted by the checks or not)
 * in the rule's examples, plus harder shapes written here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceTriggerSpans } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';
import { asciiClass } from '../../src/engine/checks.js';
import { kBase64JsonDecoder } from '../../src/engine/decoded.js';

const kExtra: Record<string, string[]> = {
  'private-key': [
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----',
    '-----BEGIN ENCRYPTED PRIVATE KEY-----\\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\\n-----END ENCRYPTED PRIVATE KEY-----',
    '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF0AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PGP PRIVATE KEY BLOCK-----',
  ],
  jwt: ['x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLWxvbmctZW5vdWdoLXRvLXBhc3M'],
};

function wholeMatches(rule: RuleDef, text: string): Array<[number, number]> {
  const re = new RegExp(rule.pattern, rule.ignoreCase ? 'giu' : 'gu');
  const out: Array<[number, number]> = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    re.lastIndex = m.index + 1;
  }
  return out;
}

const withLead = allRuleDefs.filter((r) => r.lead !== undefined || r.leadAt !== undefined);

/** How far before the trigger at `at` a match may start, as the engine takes it. */
function leadOf(rule: RuleDef, text: string, at: number): number {
  const lead = Math.min(rule.lead ?? rule.maxLength, rule.maxLength);
  return rule.leadAt === undefined ? lead : Math.min(lead, rule.leadAt(text, at));
}

describe('rules that declare a lead', () => {
  it('exist (the engine relies on them for its long-window rules)', () => {
    expect(withLead.map((r) => r.id)).toEqual(expect.arrayContaining(['jwt', 'private-key', 'generic-secret', 'aws-secret-access-key']));
  });

  it.each(withLead.map((r) => [r.id, r] as const))('%s: no match starts more than lead before its first trigger', (_id, rule) => {
    const texts = [...rule.examples.positive, ...rule.examples.negative].map((e) => e.text).concat(kExtra[rule.id] ?? []);
    let checked = 0;
    for (const text of texts) {
      const spans = referenceTriggerSpans(rule, text);
      for (const [ms, me] of wholeMatches(rule, text)) {
        const first = spans.find(([s, e]) => s < me && e > ms);
        expect(first, `${rule.id}: a match without a trigger in ${JSON.stringify(text)}`).toBeDefined();
        expect(first![0] - ms, `${rule.id} in ${JSON.stringify(text)}`).toBeLessThanOrEqual(leadOf(rule, text, first![0]));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  // Beyond the examples: strings generated from the pattern itself (fast-check's `stringMatching`),
  // with random text around them. Every whole match that overlaps a trigger must start at most
  // `lead` (or `leadAt`'s answer) before the first one.
  it.each(withLead.map((r) => [r.id, r] as const))('%s: the claim holds on strings generated from its pattern', (_id, rule) => {
    // (Without the `i` flag, which stringMatching does not take: a case-insensitive rule matches
    // these too, and case changes no length.)
    // Name characters, markup and quotes before a match: what a `leadAt` walks back over or stops at.
    const around = fc.string({ unit: fc.constantFrom(...'aZ09_-.:@/ <"=\''), maxLength: 6 });
    const arb = fc.tuple(around, fc.stringMatching(new RegExp(rule.pattern, 'u'), { size: 'small' }), around).map(([a, m, b]) => a + m + b);
    let checked = 0;
    fc.assert(
      fc.property(arb, (text) => {
        const spans = referenceTriggerSpans(rule, text);
        for (const [ms, me] of wholeMatches(rule, text)) {
          const first = spans.find(([s, e]) => s < me && e > ms);
          if (first === undefined) continue; // no trigger: the rule cannot find it, whatever its lead
          checked++;
          if (first[0] - ms > leadOf(rule, text, first[0])) return false;
        }
        // The engine asks about a group's first trigger: a later one's window may not start earlier.
        spans.sort((a, b) => a[0] - b[0]);
        for (let k = 1; k < spans.length; k++) {
          if (spans[k]![0] - leadOf(rule, text, spans[k]![0]) < spans[k - 1]![0] - leadOf(rule, text, spans[k - 1]![0])) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 20261122 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});

// `trigger.next` drops a keyword occurrence whose next character is outside a class. That is safe only
// if the first trigger of every match (the one its group and window start from) is followed by a
// character of the class: checked on the examples and on strings generated from the pattern, with
// random text around them.
const withNext = [...allRuleDefs, kBase64JsonDecoder].filter((r) => 'keywords' in r.trigger && r.trigger.next !== undefined);

describe('rules that declare the character after their keyword (trigger.next)', () => {
  const classOf = (r: RuleDef) => asciiClass((r.trigger as { next: string }).next).ascii;

  it('exist, and none is case-insensitive', () => {
    expect(withNext.map((r) => r.id)).toEqual(expect.arrayContaining(['base64-json', 'jwt', 'github-pat', 'aws-access-key-id', 'slack-token']));
    for (const r of withNext) expect(r.ignoreCase ?? false, r.id).toBe(false);
  });

  it.each(withNext.map((r) => [r.id, r] as const))('%s: the first trigger of every match is followed by a character of next', (_id, rule) => {
    const next = classOf(rule);
    const ok = (text: string): number | false => {
      const spans = referenceTriggerSpans(rule, text);
      let n = 0;
      for (const [ms, me] of wholeMatches(rule, text)) {
        const first = spans.find(([s, e]) => s < me && e > ms);
        if (first === undefined) continue;
        const c = text.charCodeAt(first[1]);
        if (!(c < 128 && next[c] === 1)) return false;
        n++;
      }
      return n;
    };
    let checked = 0;
    for (const e of [...rule.examples.positive, ...rule.examples.negative]) {
      const r = ok(e.text);
      expect(r, `${rule.id} in ${JSON.stringify(e.text)}`).not.toBe(false);
      checked += r || 0;
    }
    const around = fc.string({ unit: fc.constantFrom(...'aZ09_-.:@/ '), maxLength: 4 });
    const arb = fc.tuple(around, fc.stringMatching(new RegExp(rule.pattern, 'u'), { size: 'small' }), around).map(([a, m, b]) => a + m + b);
    fc.assert(
      fc.property(arb, (text) => {
        const r = ok(text);
        if (r === false) return false;
        checked += r;
        return true;
      }),
      { numRuns: 300, seed: 20261122 },
    );
    expect(checked).toBeGreaterThan(50);
  });
});
