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

describe('card validators at the edges of the issuer ranges', () => {
  // The networks' published ranges (IIN prefixes and lengths), written as numbers compared.
  const ranges: Record<string, { lengths: number[]; iin: (d: string) => boolean }> = {
    'card-visa': { lengths: [16, 19], iin: (d) => d[0] === '4' },
    'card-mastercard': { lengths: [16], iin: (d) => (+d.slice(0, 2) >= 51 && +d.slice(0, 2) <= 55) || (+d.slice(0, 4) >= 2221 && +d.slice(0, 4) <= 2720) },
    'card-amex': { lengths: [15], iin: (d) => ['34', '37'].includes(d.slice(0, 2)) },
    'card-discover': {
      lengths: [16, 17, 18, 19],
      iin: (d) => d.startsWith('6011') || d.startsWith('65') || (+d.slice(0, 3) >= 644 && +d.slice(0, 3) <= 649) || (+d.slice(0, 6) >= 622126 && +d.slice(0, 6) <= 622925),
    },
    'card-jcb': { lengths: [16, 17, 18, 19], iin: (d) => +d.slice(0, 4) >= 3528 && +d.slice(0, 4) <= 3589 },
    'card-diners': { lengths: [14, 16], iin: (d) => (+d.slice(0, 3) >= 300 && +d.slice(0, 3) <= 305) || ['36', '38', '39'].includes(d.slice(0, 2)) },
  };
  // The Luhn check digit, computed the way ISO/IEC 7812-1 describes it (from the right, every second doubled).
  const withCheckDigit = (body: string): string => {
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      const d = Number(body[body.length - 1 - i]);
      sum += i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
    }
    return body + String((10 - (sum % 10)) % 10);
  };
  const edges = ['4', '50', '51', '55', '56', '2220', '2221', '2720', '2721', '34', '35', '37', '6011', '6010', '643', '644', '649', '650', '65', '622125', '622126', '622925', '622926', '3527', '3528', '3589', '3590', '299', '300', '305', '306', '36', '38', '39', '37'];
  it('accept exactly the numbers in their ranges and lengths', () => {
    const validators = cardRules.filter((d) => d.id in ranges);
    expect(validators.length).toBe(Object.keys(ranges).length);
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom(...edges), fc.integer({ min: 13, max: 19 }), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 19, maxLength: 19 }), (prefix, length, fill) => {
        const number = withCheckDigit((prefix + fill).slice(0, length - 1));
        for (const rule of validators) {
          const want = ranges[rule.id]!.lengths.includes(length) && ranges[rule.id]!.iin(number);
          if (want) accepted++;
          expect(rule.validate!(number), `${rule.id} ${number}`).toBe(want);
        }
      }),
      { numRuns: 3000, seed: 20261129 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});
