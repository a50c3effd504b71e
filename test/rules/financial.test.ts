import { describe, expect, it } from 'vitest';
import { financialRules } from '../../src/rules/financial/index.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';

// Behaviour of the financial rules beyond their own examples (which test/rules/examples.test.ts runs).


function rule(id: string): RuleDef {
  const r = financialRules.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
}
const found = (id: string, text: string) => referenceMatches(rule(id), text).map((m) => m.value);
const cardRules = financialRules.filter((r) => r.tags.includes('card') && r.id !== 'card-track-data');
/** Ids of the card rules that report something in `text`. */
const cardHits = (text: string) => cardRules.filter((r) => referenceMatches(r, text).length > 0).map((r) => r.id);

describe.each(financialRules.map((r) => [r.id, r] as const))('rule %s', (_id, r) => {
  it('every reported match overlaps a trigger span (the engine accepts nothing else)', () => {
    const re = new RegExp(r.pattern, r.ignoreCase ? 'giu' : 'gu');
    for (const ex of r.examples.positive) {
      const spans = referenceTriggerSpans(r, ex.text);
      const reported = new Set(referenceMatches(r, ex.text).map((m) => m.start));
      for (const m of ex.text.matchAll(re)) {
        const v = m[r.group ?? 0]!;
        if (!reported.has(m.index + m[0].indexOf(v))) continue;
        const end = m.index + m[0].length;
        expect(spans.some(([s, e]) => s < end && e > m.index), m[0]).toBe(true);
      }
    }
  });
  it('the value is the end of the whole match (engine and reference locate it alike)', () => {
    const re = new RegExp(r.pattern, r.ignoreCase ? 'giu' : 'gu');
    for (const ex of r.examples.positive) {
      for (const m of ex.text.matchAll(re)) {
        const v = m[r.group ?? 0]!;
        expect(m[0].indexOf(v)).toBe(m[0].lastIndexOf(v));
      }
    }
  });
});

// Published test numbers of each brand (Stripe / PayPal developer docs), with the brand's grouping.
const kCards: ReadonlyArray<[id: string, digits: string, grouping: number[]]> = [
  ['card-visa', '4242424242424242', [4, 4, 4, 4]],
  ['card-mastercard', '5105105105105100', [4, 4, 4, 4]],
  ['card-mastercard', '2223003122003222', [4, 4, 4, 4]],
  ['card-amex', '371449635398431', [4, 6, 5]],
  ['card-discover', '6011000990139424', [4, 4, 4, 4]],
  ['card-jcb', '3566002020360505', [4, 4, 4, 4]],
  ['card-diners', '36227206271667', [4, 6, 4]],
  ['card-unionpay', '6200000000000005', [4, 4, 4, 4]],
  ['card-unionpay', '6205500000000000004', [4, 4, 4, 4, 3]],
  // The other networks (no published test numbers): synthetic numbers on each range, check digit computed.
  ['card-other-network', '135412345678911', [4, 6, 5]], // UATP
  ['card-other-network', '2203123456789057', [4, 4, 4, 4]], // Mir
  ['card-other-network', '5019123456789013', [4, 4, 4, 4]], // Dankort
  ['card-other-network', '5061001234567892', [4, 4, 4, 4]], // Verve
  ['card-other-network', '8112345678901239', [4, 4, 4, 4]], // RuPay
  ['card-other-network', '6361234567890123454', [4, 4, 4, 4, 3]], // InterPayment
  ['card-other-network', '6389123456789013', [4, 4, 4, 4]], // InstaPayment
  ['card-other-network', '8600123456789012', [4, 4, 4, 4]], // UzCard
  ['card-other-network', '9792123456789018', [4, 4, 4, 4]], // Troy
  ['card-other-network', '9860123456789015', [4, 4, 4, 4]], // Humo
];

function group(digits: string, sizes: number[], sep: string): string {
  const out: string[] = [];
  let i = 0;
  for (const n of sizes) {
    out.push(digits.slice(i, i + n));
    i += n;
  }
  return out.join(sep);
}

describe('card numbers', () => {
  describe.each(kCards)('%s %s', (id, digits, sizes) => {
    const forms = [digits, group(digits, sizes, ' '), group(digits, sizes, '-')];
    it.each(forms)('finds %s in JSON, HTML, logs and CJK text, and only as this brand', (form) => {
      for (const text of [`{"pan":"${form}"}`, `<td>${form}</td>`, `pan=${form}&x=1`, `番号：${form}。`, form, `Card ${form}\n`]) {
        expect(found(id, text), text).toEqual([form]);
        expect(cardHits(text), text).toEqual([id]);
      }
    });
    it('drops every one-digit change (Luhn)', () => {
      for (let i = 0; i < digits.length; i++) {
        const changed = digits.slice(0, i) + String((Number(digits[i]) + 1) % 10) + digits.slice(i + 1);
        expect(found(id, `{"pan":"${changed}"}`), changed).toEqual([]);
      }
    });
    it('drops the number when it is a slice of a longer one', () => {
      const spaced = group(digits, sizes, ' ');
      for (const text of [
        `7${digits}`, `${digits}7`, `x${digits}`, `${digits}x`,
        `1234 ${spaced}`, `${spaced} 1234`, `12-${digits}`, `${digits}-12`, `0.${digits}`, `${digits}.25`,
        `${group(digits, sizes, '-')}-7`,
      ]) {
        expect(found(id, text), text).toEqual([]);
      }
    });
    it('drops odd groupings and mixed or unusual separators', () => {
      const odd = `${digits.slice(0, 6)} ${digits.slice(6)}`;
      const mixed = `${digits.slice(0, 4)} ${digits.slice(4, 8)}-${digits.slice(8)}`;
      for (const text of [odd, mixed, group(digits, sizes, '.'), group(digits, sizes, '  ')]) expect(found(id, text), text).toEqual([]);
    });
  });

  it('ends an unseparated number at a space (expiry and CVC may follow)', () => {
    expect(found('card-visa', 'pan 4111111111111111 12/29 123')).toEqual(['4111111111111111']);
    expect(found('card-amex', '378282246310005 0429')).toEqual(['378282246310005']);
  });

  it('reports two numbers separated by a comma, a newline or a JSON comma', () => {
    expect(found('card-visa', '4111111111111111, 4012888888881881')).toEqual(['4111111111111111', '4012888888881881']);
    expect(found('card-visa', '4111111111111111\n4012888888881881')).toEqual(['4111111111111111', '4012888888881881']);
    expect(found('card-visa', '["4111111111111111","4012888888881881"]')).toEqual(['4111111111111111', '4012888888881881']);
  });

  it('ends a dash-grouped number where a space begins, a space-grouped one only at its run\'s end', () => {
    expect(found('card-visa', '4012-8888-8888-1881 12/29')).toEqual(['4012-8888-8888-1881']);
    expect(found('card-visa', '4012 8888 8888 1881 12/29')).toEqual([]);
  });

  it('reads a list of cards separated by single spaces, each grouped its own way, after an accepted card', () => {
    expect(found('card-visa', '4012888888881881 4012-8888-8888-1881 4012 8888 8888 1881')).toEqual(['4012888888881881', '4012-8888-8888-1881', '4012 8888 8888 1881']);
    // Only after an accepted card: after a group, or a number that is no card, the next could be a slice.
    expect(found('card-visa', '4111 1111 1111 1111 4242424242424242')).toEqual([]);
    expect(found('card-visa', '41111111 4242424242424242')).toEqual([]);
    expect(found('card-visa', '4111111111111112 4242424242424242')).toEqual([]);
    // The list ends where a value fails; and each rule reads lists of its own brand.
    expect(found('card-visa', '4242424242424242 4242424242424241 4012888888881881')).toEqual(['4242424242424242']);
    expect(found('card-mastercard', '4242424242424242 5555555555554444')).toEqual([]);
    // Within 200 characters of the run's start (the engine reports longer runs in pieces).
    expect(found('card-visa', Array.from({ length: 14 }, () => '4242424242424242').join(' '))).toHaveLength(12);
  });

  it('ignores numbers of no brand even when Luhn-valid', () => {
    // 1000000000000009 and 9999999999999995 pass Luhn; no network issues on prefix 1 or 99.
    expect(cardHits('{"id":"1000000000000009","x":"9999999999999995"}')).toEqual([]);
  });

  it('takes each other network only on its own lengths', () => {
    // Luhn-valid, on the network's range, one length off: UATP 16, Dankort and InstaPayment 17, Verve 17.
    expect(cardHits('1354123456789015 50191234567890123 63891234567890129 50610012345678918')).toEqual([]);
  });

  it('gives the Discover/UnionPay co-branded range to Discover only', () => {
    expect(cardHits('6221261234567897')).toEqual(['card-discover']);
  });
});

describe('iban', () => {
  it.each([
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['BE68 5390 0754 7034', 'BE68539007547034'],
    ['NO93 8601 1117 947', 'NO9386011117947'],
    ['LC55 HEMM 0001 0001 0012 0012 0002 3015', 'LC55HEMM000100010012001200023015'],
    ['RU02 0445 2560 0407 0281 0412 3456 7890 1', 'RU0204452560040702810412345678901'],
  ])('finds %s in print and electronic form', (print, compact) => {
    expect(found('iban', `IBAN ${print}.`)).toEqual([print]);
    expect(found('iban', `"iban":"${compact}"`)).toEqual([compact]);
  });
  it('does not swallow a following upper-case word or number group', () => {
    expect(found('iban', 'BE68 5390 0754 7034 EUR')).toEqual(['BE68 5390 0754 7034']);
    expect(found('iban', 'DE89 3704 0044 0532 0130 00 1234')).toEqual(['DE89 3704 0044 0532 0130 00']);
  });
  it('finds the groups joined by dashes, and only with one separator throughout', () => {
    expect(found('iban', 'IBAN DE65-5001-0517-0648-2917-35.')).toEqual(['DE65-5001-0517-0648-2917-35']);
    expect(found('iban', 'iban: GB90-MIDL-4005-1522-3344-55;')).toEqual(['GB90-MIDL-4005-1522-3344-55']);
    expect(found('iban', 'DE65-5001-0517-0648-2917-35 EUR')).toEqual(['DE65-5001-0517-0648-2917-35']);
    expect(found('iban', 'DE65-5001-0517-0648-2917-35 1234')).toEqual(['DE65-5001-0517-0648-2917-35']);
    for (const text of ['DE65-5001 0517-0648 2917-35', 'DE65 5001-0517-0648-2917-35', 'DE6550-010517-0648-2917-35', 'DE65.5001.0517.0648.2917.35', 'DE65-5001-0517-0648-2917-351']) {
      expect(found('iban', text), text).toEqual([]);
    }
  });
  it('rejects an IBAN one character too long even when its prefix is valid', () => {
    expect(found('iban', 'DE893704004405320130001')).toEqual([]);
    expect(found('iban', 'DE89 3704 0044 0532 0130 001')).toEqual([]);
  });
});

describe('us-aba-routing', () => {
  it('needs a routing keyword before the number', () => {
    expect(found('us-aba-routing', 'Routing number: 021000021')).toEqual(['021000021']);
    expect(found('us-aba-routing', 'ABA 021000021')).toEqual(['021000021']);
    expect(found('us-aba-routing', 'Number: 021000021')).toEqual([]);
    expect(found('us-aba-routing', 'sortNumber=021000021')).toEqual([]);
  });
  it('requires the checksum and an assigned prefix', () => {
    expect(found('us-aba-routing', 'routing: 021000012')).toEqual([]);
    expect(found('us-aba-routing', 'routing: 900000003')).toEqual([]);
  });
});

describe('swift-bic', () => {
  it('takes 8 or 11 characters, never a longer word', () => {
    expect(found('swift-bic', 'BIC: DEUTDEFF500')).toEqual(['DEUTDEFF500']);
    expect(found('swift-bic', 'BIC: DEUTDEFF')).toEqual(['DEUTDEFF']);
    expect(found('swift-bic', 'BIC: DEUTDEFF5001')).toEqual([]);
  });
});
