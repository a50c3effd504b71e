/**
 * The card rules' validators read a value's grouping in one pass over its codes. Held here to the
 * reading the rule documents, written the plain way (split on the first separator, every group
 * digits, the group sizes one of the printed groupings), on published test numbers regrouped with
 * separators of every kind in every place.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { kTestCards } from './published-values.js';

/** Groupings printed on cards and in forms (the card rules' description). */
const kPrinted: Record<number, readonly string[]> = { 14: ['4-6-4', '4-4-4-2'], 15: ['4-6-5', '4-4-4-3'], 16: ['4-4-4-4', '8-8'], 19: ['4-4-4-4-3'] };

/** The value's digits when its grouping is one cards print (or it has no separator), else null. */
function plainReading(value: string): string | null {
  const sepAt = value.search(/[^0-9]/);
  if (sepAt < 0) return value;
  const sep = value[sepAt]!;
  if (sep !== ' ' && sep !== '-') return null;
  const groups = value.split(sep);
  if (!groups.every((g) => /^[0-9]+$/.test(g))) return null;
  const digits = groups.join('');
  return (kPrinted[digits.length] ?? []).includes(groups.map((g) => g.length).join('-')) ? digits : null;
}

const cardRules = allRuleDefs.filter((d) => d.id.startsWith('card-') && d.id !== 'card-track-data' && d.validate !== undefined);

/** `digits` with `seps[i]` inserted before digit i (an empty string: none), and `tail` after. */
function regroup(digits: string, seps: readonly string[], tail: string): string {
  return [...digits].map((d, i) => `${seps[i] ?? ''}${d}`).join('') + tail;
}

describe('card validators', () => {
  it('cover the brands', () => {
    expect(cardRules.map((d) => d.id)).toEqual(expect.arrayContaining(['card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners']));
  });

  it('read a grouping as the plain reading does', () => {
    const printed = (digits: string): string[] => {
      const at = (sizes: number[], sep: string) => {
        let i = 0;
        return sizes.map((n) => digits.slice(i, (i += n))).join(sep);
      };
      const ways: Record<number, number[][]> = { 14: [[4, 6, 4], [4, 4, 4, 2]], 15: [[4, 6, 5], [4, 4, 4, 3]], 16: [[4, 4, 4, 4], [8, 8]], 19: [[4, 4, 4, 4, 3]] };
      return (ways[digits.length] ?? []).flatMap((sizes) => [' ', '-', '.', '  ', '_', ' - ', '\t'].map((sep) => at(sizes, sep)));
    };
    let accepted = 0;
    const check = (v: string) => {
      const digits = plainReading(v);
      for (const rule of cardRules) {
        const expected = digits !== null && rule.validate!(digits);
        expect(rule.validate!(v), `${rule.id}: ${JSON.stringify(v)}`).toBe(expected);
        if (expected) accepted++;
      }
    };
    for (const card of kTestCards) for (const v of [card, ...printed(card)]) check(v);
    fc.assert(
      fc.property(
        fc.constantFrom(...kTestCards),
        fc.array(fc.constantFrom('', '', '', ' ', '-', '.', '  ', ' -', 'x'), { maxLength: 20 }),
        fc.constantFrom('', ' ', '-', '1'),
        (card, seps, tail) => check(regroup(card, seps, tail)),
      ),
      { numRuns: 3000, seed: 20261129 },
    );
    expect(accepted).toBeGreaterThan(40);
  });
});
