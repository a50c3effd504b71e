/**
 * Run gates (`RuleDef.runGate`) drop a digit run before any pattern call, so a gate that says no to a
 * run holding an accepted value loses a finding. Checked here against the reference matcher (the rule's
 * pattern over the whole text, same checks, no gate): on every example, on generated runs built
 * around real card numbers, and on the numbers of a log line, which the gate exists to drop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches } from '../../src/rules/reference.js';
import { cardRunGate } from '../../src/rules/financial/cards.js';

const gated = allRuleDefs.filter((r) => r.runGate !== undefined);

/** The digit runs of `text` as the shared tracker sees them: digits joined by single ` `, `-` or `.`. */
function runs(text: string): Array<[number, number]> {
  return [...text.matchAll(/[0-9]+(?:[ .-][0-9]+)*/g)].map((m) => [m.index, m.index + m[0].length]);
}

/** True when every value the reference finds lies in a run the rule's gate lets through. */
function gateKeepsEveryValue(text: string): { ok: boolean; found: number } {
  let found = 0;
  for (const rule of gated) {
    for (const m of referenceMatches(rule, text)) {
      found++;
      const run = runs(text).find(([s, e]) => s <= m.start && m.end <= e);
      if (run === undefined || !rule.runGate!(text, run[0], run[1])) return { ok: false, found };
    }
  }
  return { ok: true, found };
}

describe('run gates never drop a run that holds an accepted value', () => {
  it('the card rules share one gate', () => {
    expect(gated.filter((r) => r.id.startsWith('card-')).length).toBe(8);
    expect(new Set(gated.map((r) => r.runGate)).size).toBe(1);
  });

  it('on every example of a gated rule', () => {
    let found = 0;
    for (const rule of gated) {
      for (const ex of [...rule.examples.positive, ...rule.examples.negative]) {
        const r = gateKeepsEveryValue(ex.text);
        expect(r.ok, `${rule.id}: ${ex.text}`).toBe(true);
        found += r.found;
      }
    }
    expect(found).toBeGreaterThan(20);
  });

  it('on generated runs: real card numbers, regrouped, with digits and separators around them', () => {
    const cards = gated.flatMap((r) => r.examples.positive.map((e) => e.match ?? '')).filter((m) => /^[0-9 -]+$/.test(m));
    expect(cards.length).toBeGreaterThan(10);
    const sep = fc.constantFrom(' ', '-', '.', '');
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 6 });
    const lead = fc.constantFrom('', 'x ', 'Visa ', 'card: ', '#', '"', '12 -', '(', '\n', '😀', 'é ');
    const card = fc.constantFrom(...cards).chain((c) => fc.constantFrom(c, c.replace(/[ -]/g, ''), c.replace(/ /g, '-')));
    // Mostly the card alone in its run (found), sometimes with digits before or after (not found).
    const pre = fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(digits, sep) });
    const post = fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(sep, digits), { minLength: 1, maxLength: 3 }) });
    const body = fc.tuple(lead, pre, card, post, fc.constantFrom('', ' ', '/29', ' 200'));
    let found = 0;
    fc.assert(
      fc.property(body, ([l, pre, c, post, tail]) => {
        const text = `${l}${pre ? pre[0] + pre[1] : ''}${c}${post.map(([s, d]) => s + d).join('')}${tail} end`;
        const r = gateKeepsEveryValue(text);
        found += r.found;
        return r.ok;
      }),
      { numRuns: 1500 },
    );
    // Not vacuous: many generated texts hold a card the reference accepts.
    expect(found).toBeGreaterThan(500);
  });

  it('drops the long numbers of a log line', () => {
    const line = '2024-04-17T20:42:20.873Z ts=1790143393280 PUT /api/v2/orders/749-4367217-3438240 200 ORD-2024-507283 204 INV3664362753 404 ip=10.122.125.94';
    const all = runs(line);
    expect(all.length).toBeGreaterThan(6);
    expect(all.filter(([s, e]) => cardRunGate(line, s, e)).map(([s, e]) => line.slice(s, e))).toEqual([]);
    const card = 'paid with 4111 1111 1111 1111 today';
    expect(runs(card).some(([s, e]) => cardRunGate(card, s, e))).toBe(true);
  });
});
