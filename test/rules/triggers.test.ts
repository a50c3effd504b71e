import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileChecks } from '../../src/engine/checks.js';
import { createEscapeDecoder, type EscapeSyntax } from '../../src/engine/text/escapes.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';

// Triggers decide where the engine looks at all: a match that no trigger span overlaps is never
// reported. These tests hold every rule's trigger to that (exactly, not within a window's slack) and
// pin down how little ordinary numbers (dates, prices, versions, IPs) wake the digit rules.

type Span = readonly [number, number];

const overlaps = (a: Span, b: Span) => a[0] < b[1] && b[0] < a[1];

/** The decoded text the rules see for an example (the engine unescapes JSON, HTML and XML first). */
function decoded(text: string, contentType: string | undefined): string {
  const ct = contentType ?? 'text/plain';
  const syntax: EscapeSyntax = ct.includes('json') ? 'json' : ct.includes('html') ? 'html' : ct.includes('xml') ? 'xml' : 'text';
  return createEscapeDecoder(syntax).push({ text, offsets: null, base: 0 }, true).text;
}

interface Located {
  /** The whole pattern match, which the engine requires to overlap a trigger span. */
  match: Span;
  /** The reported value (the rule's group). */
  value: Span;
}

/**
 * The reference matcher's findings with their whole-match spans as well as their value spans, at the
 * lowest threshold: a trigger must cover whatever a rule can report at any confidence.
 */
function locatedMatches(rule: RuleDef, text: string): Located[] {
  return referenceMatches(rule, text, 'low').map((m) => ({ match: [m.matchStart, m.matchEnd], value: [m.start, m.end] }));
}

const kinds = (rule: RuleDef) => ('keywords' in rule.trigger ? 'keyword' : 'digits' in rule.trigger ? 'digits' : 'token');

describe.each(allRuleDefs.map((r) => [r.id, r] as const))('trigger of %s', (_id, rule) => {
  it.each(rule.examples.positive.map((e, i) => [i, e] as const))('overlaps positive %i exactly', (_i, ex) => {
    const text = decoded(ex.text, ex.contentType);
    const found = locatedMatches(rule, text);
    expect(found.map((f) => text.slice(...f.value))).toEqual(referenceMatches(rule, text, 'low').map((m) => m.value));
    expect(found.length).toBeGreaterThan(0);
    const spans = referenceTriggerSpans(rule, text);
    for (const f of found) {
      // Digit and token triggers fire on the value itself; a keyword may sit in the match before the
      // value (`Authorization: Bearer <token>`), which is all the engine needs.
      const target = kinds(rule) === 'keyword' ? f.match : f.value;
      expect(spans.some((s) => overlaps(s, target)), `${rule.id}: ${JSON.stringify(text.slice(...f.value))} outside every trigger span`).toBe(true);
    }
  });
});

/**
 * Values a rule's trigger knowingly does not see. Each entry either names a limitation the rule's
 * note or this file documents (`rejected: false`), or is a shape the rule's own checks reject
 * (`rejected: true`, verified below), so the trigger loses nothing the rule could report.
 */
interface BlindSpot {
  readonly why: string;
  readonly applies: (value: string) => boolean;
  readonly rejected: boolean;
}

const noDigit = (v: string) => !/[0-9]/.test(v);

const kBlindSpots: Readonly<Record<string, readonly BlindSpot[]>> = {
  // The grouped card pattern tolerates any single separator; the validator keeps spaces and dashes only.
  ...Object.fromEntries(
    ['card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners', 'card-unionpay', 'card-maestro', 'card-other-network'].map((id) => [
      id,
      [{ why: 'dots between card digits', applies: (v: string) => v.includes('.'), rejected: true }],
    ]),
  ),
  // Documented in the rule's note: a few alphanumeric BBAN formats have no run of eight digits.
  iban: [{ why: 'BBAN without eight digits in a row', applies: (v) => !/[0-9](?:[ -]?[0-9]){7}/.test(v), rejected: false }],
  'phone-number': [
    // A bracketed group (`+44 (20) 794 601`) splits the digits into runs that may be shorter than the
    // trigger's 6; no digit trigger sees those without firing on every short number.
    { why: 'bracketed area code', applies: (v) => v.includes('('), rejected: false },
    // The pattern takes any `+` and digit; the validator wants 8 to 15 digits.
    { why: 'fewer than 8 digits', applies: (v) => v.replace(/[^0-9]/g, '').length < 8, rejected: true },
  ],
  // A fully omocodic codice fiscale (all seven digits replaced by letters) holds no digit; the token
  // trigger needs one, or it would fire on every 16-letter word.
  'it-codice-fiscale': [{ why: 'no digit left (full omocodia)', applies: noDigit, rejected: false }],
  // The validator wants a digit (an all-letter address like fe::ab is a documented blind spot).
  'ip-address-v6': [{ why: 'no digit', applies: noDigit, rejected: true }],
  // The validator wants a digit.
  'de-passport': [{ why: 'no digit', applies: noDigit, rejected: true }],
  // `SK` and 32 hex digits without any 0-9 stay below the entropy floor of 3 bits.
  'twilio-api-key': [{ why: 'no digit', applies: noDigit, rejected: true }],
  // One key in about 4e13 has no 0-9 in its hex part; the token trigger needs a digit.
  'mailchimp-api-key': [{ why: 'no digit in the hex part', applies: (v) => noDigit(v.slice(0, 32)), rejected: false }],
};

/** The separators of a digit trigger (the default when unset), or undefined for other triggers. */
function ownSeparators(trigger: RuleDef['trigger']): string | undefined {
  return 'digits' in trigger ? (trigger.digits.separators ?? ' -.') : undefined;
}

/** Digit counts of the runs of `value` joined by single `separators` (what a digit trigger counts). */
function ownRuns(value: string, separators: string): number[] {
  const seps = separators.replace(/[\\\]^-]/g, '\\$&');
  const re = seps ? new RegExp(`[0-9](?:[${seps}]?[0-9])*`, 'g') : /[0-9]+/g;
  return [...value.matchAll(re)].map((m) => m[0].replace(/[^0-9]/g, '').length);
}

/**
 * With a `max`, the pattern of a whole-run rule still produces values with no run the trigger takes:
 * the run tail (`123-45-6789-1`, see src/rules/pii/shape.ts) that the pattern takes on purpose so the
 * validator drops the slice of a longer number. Verified rejected like any blind spot.
 */
function overMaxBlindSpot(rule: RuleDef): BlindSpot[] {
  const t = rule.trigger;
  if (!('digits' in t) || t.digits.max === undefined) return [];
  const { min, max } = t.digits;
  const seps = ownSeparators(t)!;
  return [{ why: `no run of ${min} to ${max} digits`, applies: (v) => !ownRuns(v, seps).some((n) => n >= min && n <= max), rejected: true }];
}

/** The rule with every check but the boundaries removed: what the pattern alone can make a candidate. */
function shapeOnly(rule: RuleDef): RuleDef {
  const { validate: _v, minEntropy: _e, context: _c, ...rest } = rule;
  return { ...rest, suppressPlaceholders: false };
}

/**
 * Every value the pattern can produce (the checksums and context aside), in a few surroundings, must
 * overlap a span of `trigger`, unless the rule lists the shape as a blind spot.
 */
function lostValues(rule: RuleDef, trigger: RuleDef['trigger'], samples: readonly string[]): string[] {
  const probe = { ...shapeOnly(rule), trigger };
  const blind = [...(kBlindSpots[rule.id] ?? []), ...overMaxBlindSpot(rule)];
  const lost: string[] = [];
  for (const sample of samples) {
    for (const [before, after] of [['\n', '\n'], ['"', '"'], ['id: ', ' ok'], ['<td>', '</td>']] as const) {
      const text = `${before}${sample}${after}`;
      const spans = referenceTriggerSpans(probe, text);
      for (const f of locatedMatches(probe, text)) {
        const value = text.slice(...f.value);
        const spot = blind.find((b) => b.applies(value));
        if (spot !== undefined) {
          if (spot.rejected) expect(compileChecks(rule, 'low').accept(text, ...f.match, ...f.value), `${rule.id}: ${spot.why}`).toBe(0);
          continue;
        }
        if (!spans.some((s) => overlaps(s, f.value))) lost.push(value);
      }
    }
  }
  return lost;
}

/**
 * Random strings of the rule's whole pattern (fast-check cannot take the `i` flag; case does not change
 * what a trigger sees), plus the values of the rule's positive examples: the random strings favour
 * long repeats, the examples hold the short groupings real values use.
 */
function patternSamples(rule: RuleDef, n: number, seed: number): string[] {
  const examples = rule.examples.positive.flatMap((e) => (e.match === undefined ? [] : [e.match]));
  return [...examples, ...fc.sample(fc.stringMatching(new RegExp(`^(?:${rule.pattern})$`, 'u')), { numRuns: n, seed })];
}

const kNonKeywordRules = allRuleDefs.filter((r) => kinds(r) !== 'keyword');

describe('digit and token triggers see every value their pattern allows', () => {
  it.each(kNonKeywordRules.map((r) => [r.id, r] as const))('%s', (_id, rule) => {
    expect(lostValues(rule, rule.trigger, patternSamples(rule, 300, 20240601))).toEqual([]);
  });

  it('notices a trigger that is too strict', () => {
    // The check must be able to fail: es-dni without dots as separators misses `12.345.678-Z`, and
    // uk-nino with a minimum of 7 misses every value (it has six digits).
    const dni = allRuleDefs.find((r) => r.id === 'es-dni')!;
    expect(lostValues(dni, { digits: { min: 8, separators: '' } }, patternSamples(dni, 300, 1)).some((v) => v.includes('.'))).toBe(true);
    const nino = allRuleDefs.find((r) => r.id === 'uk-nino')!;
    expect(lostValues(nino, { digits: { min: 7, separators: ' ' } }, patternSamples(nino, 50, 1)).length).toBeGreaterThan(0);
  });
});

/**
 * A value written onto more digits, joined by one of the trigger's own separators or by none, on the
 * right (`123-45-6789-12`) and on the left (`12 123-45-6789`), in two surroundings. `at` is where the
 * value starts in `text`.
 */
function gluedTexts(value: string, separators: string): Array<{ text: string; at: number }> {
  const out: Array<{ text: string; at: number }> = [];
  for (const sep of ['', ...separators]) {
    for (const extra of ['7', '12', '1234']) {
      for (const [before, after] of [['"', '"'], ['id: ', ' ok']] as const) {
        out.push({ text: `${before}${value}${sep}${extra}${after}`, at: before.length });
        out.push({ text: `${before}${extra}${sep}${value}${after}`, at: before.length + extra.length + sep.length });
      }
    }
  }
  return out;
}

/**
 * Glued texts in which `matcher` still finds `value` at its place while no span of `trigger` overlaps
 * it: a `max` that is too low for a rule whose matches need not be a whole run of its separators.
 */
function gluedLost(
  rule: RuleDef,
  trigger: RuleDef['trigger'],
  values: readonly string[],
  matcher: (probe: RuleDef, text: string) => Span[],
): string[] {
  const seps = ownSeparators(trigger);
  if (seps === undefined) return [];
  const probe = { ...rule, trigger };
  const lost: string[] = [];
  for (const value of values) {
    for (const { text, at } of gluedTexts(value, seps)) {
      const spans = referenceTriggerSpans(probe, text);
      for (const v of matcher(probe, text)) {
        if (v[0] !== at || v[1] !== at + value.length) continue;
        if (!spans.some((s) => overlaps(s, v))) lost.push(text);
      }
    }
  }
  return lost;
}

/** The full rule (checksums, context and all) through `referenceMatches`. */
const fullMatches = (probe: RuleDef, text: string): Span[] => referenceMatches(probe, text, 'low').map((m) => [m.start, m.end] as const);

/** The rule's pattern and boundaries only (random values fail the checksums). */
const shapeMatches = (probe: RuleDef, text: string): Span[] => locatedMatches(shapeOnly(probe), text).map((f) => f.value);

/**
 * Values the pattern produces on its own (in quotes), without the rule's blind spots and without
 * values that are another value plus a run tail (`123 439 02` + ` 6`, see src/rules/pii/shape.ts):
 * the pattern takes the tail so that `validate` rejects the value, which the examples' part of the
 * test checks with the full rule.
 */
function randomValues(rule: RuleDef, n: number, seed: number): string[] {
  const blind = [...(kBlindSpots[rule.id] ?? []), ...overMaxBlindSpot(rule)];
  const probe = shapeOnly(rule);
  const found = (text: string) => locatedMatches(probe, text).map((f) => text.slice(...f.value));
  const endsInRunTail = (v: string) => /[ .-][0-9]$/.test(v) && found(`"${v.slice(0, -2)}"`).includes(v.slice(0, -2));
  const values = patternSamples(rule, n, seed).flatMap((sample) => found(`"${sample}"`));
  return [...new Set(values)].filter((v) => !blind.some((b) => b.applies(v)) && !endsInRunTail(v));
}

const kDigitRules = allRuleDefs.filter((r) => kinds(r) === 'digits');

describe('digit triggers see values written onto more digits', () => {
  // A `max` is only lossless when every match is a whole run of the rule's own separators: the pattern
  // or the boundaries reject a value glued to more digits. Whenever the matcher still reports the value,
  // the trigger must fire on it.
  it.each(kDigitRules.map((r) => [r.id, r] as const))('%s', (_id, rule) => {
    const examples = rule.examples.positive.flatMap((e) => (e.match === undefined ? [] : [e.match]));
    expect(gluedLost(rule, rule.trigger, examples, fullMatches)).toEqual([]);
    expect(gluedLost(rule, rule.trigger, randomValues(rule, 150, 20240602), shapeMatches)).toEqual([]);
  });

  it('notices a maximum the pattern does not guarantee', () => {
    // ca-sin takes a value after `1 ` (its label stays outside the match), es-dni one after `12.`, and
    // a card number written unseparated is still found before ` 12/29`: none of them can have a max.
    const rule = (id: string) => allRuleDefs.find((r) => r.id === id)!;
    const sin = rule('ca-sin');
    expect(gluedLost(sin, { digits: { min: 9, max: 9, separators: ' -' } }, ['649 106 549'], shapeMatches)).toContain('"7 649 106 549"');
    const dni = rule('es-dni');
    expect(gluedLost(dni, { digits: { min: 8, max: 8, separators: '.' } }, ['51729702B'], fullMatches)).toContain('"12.51729702B"');
    const mc = rule('card-mastercard');
    expect(gluedLost(mc, { digits: { min: 16, max: 16, separators: ' -' } }, ['5555555555554444'], fullMatches)).toContain('"5555555555554444 12"');
    // And a rule that has one, with a maximum one lower, loses its longest values.
    const tfn = rule('au-tfn');
    expect(lostValues(tfn, { digits: { min: 8, max: 8, separators: ' -' } }, patternSamples(tfn, 100, 1)).length).toBeGreaterThan(0);
  });
});

/** Each one-step stricter form of a trigger: a higher minimum, one separator fewer, a lower maximum, a narrower token. */
function stricterVariants(trigger: RuleDef['trigger']): Array<[string, RuleDef['trigger']]> {
  if ('digits' in trigger) {
    const { min, max, separators = ' -.' } = trigger.digits;
    const upTo = (m: number) => (max === undefined ? {} : { max: Math.max(max, m) });
    const out: Array<[string, RuleDef['trigger']]> = [
      [`min ${min + 1}`, { digits: { min: min + 1, ...upTo(min + 1), separators } }],
      ...[...separators].map((c): [string, RuleDef['trigger']] => [`without ${JSON.stringify(c)}`, { digits: { min, ...upTo(min), separators: separators.replace(c, '') } }]),
    ];
    if (max !== undefined && max > min) out.push([`max ${max - 1}`, { digits: { min, max: max - 1, separators } }]);
    return out;
  }
  if ('token' in trigger) {
    const t = trigger.token;
    const out: Array<[string, RuleDef['trigger']]> = [[`min ${t.min + 1}`, { token: { ...t, min: t.min + 1, max: Math.max(t.max, t.min + 1) } }]];
    if (t.max > t.min) out.push([`max ${t.max - 1}`, { token: { ...t, max: t.max - 1 } }]);
    if (t.needsLetter !== true) out.push(['needsLetter', { token: { ...t, needsLetter: true } }]);
    return out;
  }
  return [];
}

/** Stricter forms that lose no sample but are not used, and why. */
const kLooseOnPurpose: Readonly<Record<string, readonly string[]>> = {
  // Every unbracketed value has 8+ digits in one run, but a bracketed group (`+44 (20) 794 601`)
  // leaves shorter runs (see kBlindSpots): the minimum of 6 is kept so as to lose no more of those.
  'phone-number': ['min 7'],
  // Random samples never draw 32 hex digits without a letter, but about one real key in 3 million has
  // none.
  'mailchimp-api-key': ['needsLetter'],
};

describe('digit and token triggers are as strict as their patterns allow', () => {
  // A trigger loosened later (a lower minimum, an extra separator, a wider token) shows up here as a
  // stricter form that loses nothing.
  it.each(kNonKeywordRules.map((r) => [r.id, r] as const))('%s', (_id, rule) => {
    const samples = patternSamples(rule, 200, 7);
    const skip = kLooseOnPurpose[rule.id] ?? [];
    for (const [name, variant] of stricterVariants(rule.trigger)) {
      if (skip.includes(name)) continue;
      expect(lostValues(rule, variant, samples).length, `${rule.id}: ${name} loses nothing`).toBeGreaterThan(0);
    }
  });
});

/**
 * Ordinary numbers of web pages, one kind per line, and the rules whose trigger may fire on each: only
 * those whose own values can be written the same way. A rule appearing here that is not listed means
 * its trigger was loosened. The IP rules (off by default) wake on any run of four digits or more, or
 * any token of up to four characters holding a digit: their gates, not their triggers, look for an
 * address.
 */
const kDecoys: ReadonlyArray<{ text: string; fires: readonly string[] }> = [
  {
    // `2024-01-01`: 8 digits joined by dashes, as TFNs (`123-456-78`) and phone numbers are written;
    // `01.02.2024`: 8 digits joined by dots, as a DNI (`12.345.678-Z`) or a CNPJ's root (`11.222.333`).
    // IBAN's trigger takes dashed groups (`DE89-3704-…`); its run shape drops a date after a word or a
    // quote in the shared pass (two capitals, digits, spaces or dashes must come before the run).
    text: 'Published 2024-01-01, updated 01.02.2024, offer ends 12/31/2025.',
    fires: ['ip-address', 'ip-address-public', 'au-tfn', 'br-cnpj', 'es-dni', 'phone-number', 'us-phone', 'iban'],
  },
  // Eight digits joined by a dot, a space and a dot: only the phone rules take mixed separators.
  { text: 'Prices 12.50 19.99 and 1,249.00 (was 1.499,00 €).', fires: ['ip-address', 'ip-address-public', 'phone-number', 'us-phone'] },
  { text: 'Open 09:30-17:45 daily, last entry at 16:59:59.', fires: ['ip-address', 'ip-address-public', 'ip-address-v6'] },
  // 12 and 10 digits joined by dots (a Windows build number, IPv4 addresses): the rules with dotted
  // forms and no maximum below that (a CPF or BSN is a whole run of 11 or 9 digits).
  { text: 'Requires version 1.2.3 or 10.0.19045.3803 (node v20.19.0).', fires: ['ip-address', 'ip-address-public', 'es-dni', 'phone-number', 'us-phone'] },
  { text: 'Servers 192.168.100.200, 10.0.0.1 and 203.0.113.195:8443.', fires: ['ip-address', 'ip-address-public', 'ip-address-v6', 'es-dni', 'phone-number', 'us-phone'] },
  { text: '{"created":"2024-03-15T14:22:05Z","updated":"2024-03-15T14:22:05.123+02:00"}', fires: ['ip-address', 'ip-address-public', 'ip-address-v6', 'au-tfn', 'phone-number', 'us-phone', 'iban'] },
  {
    // 15 digits joined by single spaces: indistinguishable from a value printed in groups, so every rule
    // whose values may be space-grouped, with at least 15 digits or no maximum, fires (a UATP card
    // number has 15).
    text: 'Your orders: 58213 58214 58215',
    fires: ['ip-address-v6', 'ca-sin', 'fr-nir', 'phone-number', 'us-phone', 'card-amex', 'card-diners', 'card-maestro', 'card-other-network', 'iban'],
  },
  {
    // Millisecond timestamps (13 digits): rules without a maximum whose minimum is at most 13, and the
    // whole-run rules whose values can have 13 digits (a bare AHV or RRN, a NIR, an account, a PAN, a
    // Thai national id).
    text: '{"ts":1714585634874,"expires_at":1714589234874}',
    fires: [
      'ip-address-v6',
      'ca-sin', 'br-cpf-unformatted', 'es-dni', 'se-personnummer', 'phone-number', 'us-phone', 'card-maestro', 'iban',
      'fr-nir', 'ch-ahv', 'kr-rrn', 'kr-rrn-unformatted', 'us-bank-account', 'card-track-data', 'th-national-id', 'th-national-id-unformatted',
      // A whole token of 6 to 14 characters, as some states' driver's licences (a token rule, off by default).
      'us-driver-license',
    ],
  },
  {
    // Ten digits glued to letters (`INV6332907625`): letters end a run, so this is a 10-digit run.
    text: 'Invoice INV6332907625, receipt RCPT9912803347',
    fires: ['ca-sin', 'es-dni', 'se-personnummer', 'phone-number', 'us-phone', 'iban', 'uk-nhs', 'fr-nir', 'us-bank-account', 'au-medicare', 'us-driver-license'],
  },
  {
    // 14- to 16-digit ids: card lengths, and a bare CNPJ's 14.
    text: 'ids 48213377902145, 582913370021456, 6728103945512873',
    fires: [
      'ca-sin', 'br-cpf-unformatted', 'br-cnpj-unformatted', 'us-driver-license', 'es-dni', 'se-personnummer', 'phone-number', 'us-phone', 'iban',
      'card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners', 'card-unionpay', 'card-maestro', 'card-other-network',
      'fr-nir', 'us-bank-account', 'card-track-data',
    ],
  },
  {
    // 17 and 18 digits: a Chinese resident id has 17 or 18.
    text: '{"order_id":"20240521000012345","shipment_id":"202405210000123456"}',
    fires: [
      'ip-address-v6',
      'ca-sin', 'br-cpf-unformatted', 'es-dni', 'se-personnummer', 'phone-number', 'us-phone', 'iban',
      'card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners', 'card-unionpay', 'card-maestro', 'card-other-network',
      'cn-resident-id', 'us-bank-account', 'card-track-data',
    ],
  },
  {
    // 19- and 20-digit snowflake and trace ids: only a track's PAN (up to 19) among the whole-run rules.
    text: '{"id":"1790123456789012345","trace_id":"40286613390012345678"}',
    fires: [
      'ip-address-v6',
      'ca-sin', 'br-cpf-unformatted', 'es-dni', 'se-personnummer', 'phone-number', 'us-phone', 'iban',
      'card-visa', 'card-mastercard', 'card-amex', 'card-discover', 'card-jcb', 'card-diners', 'card-unionpay', 'card-maestro', 'card-other-network',
      'card-track-data',
    ],
  },
];

const firing = (text: string) => allRuleDefs.filter((r) => referenceTriggerSpans(r, text).length > 0).map((r) => r.id);

describe('decoy numbers wake only the rules that could be written like them', () => {
  it.each(kDecoys.map((d) => [d.text, d] as const))('%s', (_t, d) => {
    expect(firing(d.text).sort()).toEqual([...d.fires].sort());
  });

  it('all decoys together', () => {
    const all = kDecoys.map((d) => d.text).join('\n');
    expect(firing(all).sort()).toEqual([...new Set(kDecoys.flatMap((d) => d.fires))].sort());
  });
});
