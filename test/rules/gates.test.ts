/**
 * Run gates (`RuleDef.runGate`) drop a digit run before any pattern call, so a gate that says no to a
 * run holding an accepted value loses a finding. Checked here against the reference matcher (the rule's
 * pattern over the whole text, same checks, no gate): on every example, on generated runs built
 * around real card numbers, and on the numbers of a log line, which the gate exists to drop.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProgram, re2WasmBackend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';
import { cardRunGate, otherNetworkRunGate } from '../../src/rules/financial/cards.js';
import { PrefilterTables, columnsOf, newTriggerPass, type PrefilterSpec } from '../../src/engine/prefilter.js';
import { ibanRunGate } from '../../src/rules/financial/bank.js';
import { kIbanBbanFormats } from '../../src/validators/iban.js';
import { kBase32Upper, kBase64, synth, tok } from '../../src/rules/secrets/samples.js';

// The gates as the engine asks them (a `valueIsRun` rule's gate is its validator on the run).
const program = compileProgram(allRuleDefs, re2WasmBackend);
const gateOf = new Map(program.rules.filter((r) => r.gate >= 0).map((r) => [r.def, program.gates[r.gate]!]));
const gated = allRuleDefs.filter((r) => gateOf.has(r));

/** The digit runs of `text` as the shared tracker sees them: digits joined by single ` `, `-` or `.`. */
function runs(text: string): Array<[number, number]> {
  return [...text.matchAll(/[0-9]+(?:[ .-][0-9]+)*/g)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * The spans the engine hands `rule`'s gate: for each span where its trigger fires (as the prefilter
 * computes them), the whole digit run around it (its separators and every other one), or the token.
 */
function units(rule: (typeof allRuleDefs)[number], text: string): Array<[number, number]> {
  const fired = referenceTriggerSpans(rule, text);
  if ('token' in rule.trigger) return fired;
  const all = runs(text);
  return fired.map(([s, e]) => all.find(([rs, re]) => rs <= s && e <= re) ?? [s, e]);
}

/**
 * True when every value the reference finds overlaps a span that wakes the rule and passes its gate
 * (the engine then confirms the value in that span's window).
 */
function gateKeepsEveryValue(text: string, rules = gated): { ok: boolean; found: number } {
  let found = 0;
  for (const rule of rules) {
    for (const m of referenceMatches(rule, text)) {
      found++;
      const overlapping = units(rule, text).filter(([s, e]) => s < m.end && m.start < e);
      const gate = gateOf.get(rule)!;
      if (!overlapping.some(([s, e]) => gate(text, s, e))) return { ok: false, found };
    }
  }
  return { ok: true, found };
}

describe('run gates never drop a run that holds an accepted value', () => {
  it('each major card brand has its own gate (one entry each in the program); other networks and IBAN have their own', () => {
    const cards = gated.filter((r) => r.id.startsWith('card-') && r.id !== 'card-track-data' && r.id !== 'card-other-network');
    expect(cards.length).toBe(8);
    // A run holding a Visa number wakes only card-visa: eight gates, none of them the union.
    expect(new Set(cards.map((r) => r.runGate)).size).toBe(8);
    expect(cards.some((r) => r.runGate === cardRunGate)).toBe(false);
    const gateIndexes = new Set(program.rules.filter((r) => cards.includes(r.def)).map((r) => r.gate));
    expect(gateIndexes.size).toBe(8);
    const other = program.rules.find((r) => r.def.id === 'card-other-network')!;
    expect(other.def.runGate).toBe(otherNetworkRunGate);
    expect(gateIndexes.has(other.gate)).toBe(false);
    expect(gated.find((r) => r.id === 'iban')?.runGate).toBe(ibanRunGate);
    expect(gateOf.get(gated.find((r) => r.id === 'iban')!)).toBe(ibanRunGate);
  });

  it("a brand's gate passes a run holding another brand's number only when its own could be there too", () => {
    const byId = new Map(gated.map((r) => [r.id, r]));
    const gate = (id: string) => byId.get(id)!.runGate!;
    const cases: Array<[string, string]> = [
      ['card-visa', 'paid with 4111 1111 1111 1111 today'],
      ['card-mastercard', 'paid with 5555 5555 5555 4444 today'],
      ['card-amex', 'paid with 378282246310005 today'],
    ];
    for (const [owner, text] of cases) {
      const run = runs(text).find(([s, e]) => e - s >= 12)!;
      for (const id of ['card-visa', 'card-mastercard', 'card-amex', 'card-jcb', 'card-diners']) {
        expect(gate(id)(text, run[0], run[1]), `${id} on ${text}`).toBe(id === owner);
      }
      expect(cardRunGate(text, run[0], run[1])).toBe(true);
    }
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

  it('every gated rule, on every example text between generated context (whole-run ids: their validators)', () => {
    const ids = gated.filter((r) => r.valueIsRun === true).map((r) => r.id).sort();
    expect(ids).toEqual(['au-abn', 'au-acn-unlabelled', 'br-cpf', 'ch-ahv', 'in-aadhaar', 'it-codice-fiscale', 'kr-rrn', 'sg-nric', 'th-national-id', 'us-itin', 'us-ssn']);
    const lead = fc.constantFrom('', 'x ', '12 ', '1-', 'ID: ', '"', '(', '😀', '\n', 'no. ', '-');
    const tail = fc.constantFrom('', ' ', '.', '-', ' 200', '-7', '/2024', 'Z', '"');
    for (const rule of gated) {
      let found = 0;
      const texts = rule.examples.positive.map((e) => e.text);
      fc.assert(
        fc.property(lead, fc.constantFrom(...texts), tail, (l, t, e) => {
          const r = gateKeepsEveryValue(`${l}${t}${e}`, [rule]);
          found += r.found;
          return r.ok;
        }),
        { numRuns: 200 },
      );
      expect(found, rule.id).toBeGreaterThan(20);
    }
  });

  it('on generated texts around real IBANs, printed and electronic', () => {
    const iban = gated.filter((r) => r.id === 'iban');
    const values = iban.flatMap((r) => r.examples.positive.map((e) => e.match ?? '')).filter((m) => /^[A-Z]{2}[0-9]{2}/.test(m));
    expect(values.length).toBeGreaterThan(3);
    const form = fc.constantFrom(...values).chain((v) => {
      const compact = v.replace(/ /g, '');
      return fc.constantFrom(compact, compact.replace(/(.{4})(?!$)/g, '$1 '), compact.replace(/(.{4})(?!$)/g, '$1-'));
    });
    const lead = fc.constantFrom('', 'IBAN ', 'iban: ', '"', 'DE ', 'AB12 ', '12 ', 'x', '>', '😀', 'Konto: ', 'REF-', 'AB12-');
    const tail = fc.constantFrom('', ' ', ' EUR', '"', ' 2024', '<');
    let found = 0;
    fc.assert(
      fc.property(lead, form, tail, (l, v, t) => {
        const r = gateKeepsEveryValue(`${l}${v}${t}`, iban);
        found += r.found;
        return r.ok;
      }),
      { numRuns: 600 },
    );
    expect(found).toBeGreaterThan(300);
  });

  it('drops the long numbers of a log line', () => {
    const line = '2024-04-17T20:42:20.873Z ts=1790143393280 PUT /api/v2/orders/749-4367217-3438240 200 ORD-2024-507283 204 INV3664362753 404 ip=10.122.125.94';
    const all = runs(line);
    expect(all.length).toBeGreaterThan(6);
    expect(all.filter(([s, e]) => cardRunGate(line, s, e)).map(([s, e]) => line.slice(s, e))).toEqual([]);
    expect(all.filter(([s, e]) => otherNetworkRunGate(line, s, e)).map(([s, e]) => line.slice(s, e))).toEqual([]);
    expect(all.filter(([s, e]) => ibanRunGate(line, s, e)).map(([s, e]) => line.slice(s, e))).toEqual([]);
    const iban = 'pay to DE89 3704 0044 0532 0130 00 today';
    expect(runs(iban).some(([s, e]) => ibanRunGate(iban, s, e))).toBe(true);
    const card = 'paid with 4111 1111 1111 1111 today';
    expect(runs(card).some(([s, e]) => cardRunGate(card, s, e))).toBe(true);
    const dankort = 'paid with 5019 1234 5678 9013 today';
    expect(runs(dankort).some(([s, e]) => otherNetworkRunGate(dankort, s, e))).toBe(true);
    expect(runs(dankort).some(([s, e]) => cardRunGate(dankort, s, e))).toBe(false);
  });
});

/**
 * A rule's run shape (`RunShape`) is the share of its gate that the shared pass checks itself: it may
 * only drop runs the gate drops. Each run the pass withholds from a shaped rule (reported without the
 * shapes, not with them) must fail that rule's gate on the same text.
 */
describe('run shapes follow from the run gates', () => {
  const shaped = program.rules.filter((r) => 'digits' in r.def.trigger && r.def.trigger.digits.shape !== undefined);
  const unshapedSpec: PrefilterSpec = { ...program.spec, digits: program.spec.digits.map(({ shape: _, ...d }) => d) };
  const tables = new Map([program.spec, unshapedSpec].map((spec) => [spec, new PrefilterTables(spec)]));
  const events = (spec: PrefilterSpec, text: string): Set<string> => {
    const out = new Set<string>();
    const pf = newTriggerPass(tables.get(spec)!, 'js');
    const emit = (rule: number, s: number, e: number) => out.add(`${rule}:${s}:${e}`);
    pf.scan(columnsOf(text), 0, text.length, emit);
    pf.finish(emit);
    return out;
  };

  it('every shaped rule has a gate, and the shapes cover cards (the major brands and the other networks), au-abn, br-cpf, br-cnpj, card track data, ch-ahv, es-dni, es-nie, fi-hetu, fr-nir, hk-hkid, iban, kr-rrn, th-national-id, uk-nino and the US SSN and ITIN', () => {
    expect(shaped.filter((r) => !/^card-(visa|mastercard|amex|discover|jcb|diners|unionpay|maestro)$/.test(r.def.id)).map((r) => r.def.id).sort()).toEqual(['au-abn', 'br-cnpj', 'br-cpf', 'card-other-network', 'card-track-data', 'ch-ahv', 'es-dni', 'es-nie', 'fi-hetu', 'fr-nir', 'hk-hkid', 'iban', 'kr-rrn', 'th-national-id', 'uk-nino', 'us-itin', 'us-ssn']);
    for (const r of shaped) expect(r.gate, r.def.id).toBeGreaterThanOrEqual(0);
  });

  it('on generated text around every example of a shaped rule', () => {
    const examples = shaped.flatMap((r) => [...r.def.examples.positive, ...r.def.examples.negative].map((e) => e.text));
    const piece = fc.oneof(
      fc.constantFrom(...examples),
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 14 }),
      fc.string({ unit: fc.constantFrom(...'ABCDZXabz( -.+/é\u212a'), minLength: 1, maxLength: 3 }),
    );
    let withheld = 0;
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (pieces) => {
        const text = pieces.join('');
        const shapedEvents = events(program.spec, text);
        for (const ev of events(unshapedSpec, text)) {
          if (shapedEvents.has(ev)) continue;
          const [rule, s, e] = ev.split(':').map(Number) as [number, number, number];
          withheld++;
          const gate = program.gates[program.rules[rule]!.gate]!;
          if (gate(text, s, e)) return false;
        }
        return true;
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: the shapes withheld many runs.
    expect(withheld).toBeGreaterThan(1000);
  });
});

/**
 * fi-hetu's gate by its definition: a maximal block of exactly six digits in [start, end), a day
 * (01-31) and a month (01-12) first, with a century sign after it.
 */
function hetuReference(text: string, start: number, end: number): boolean {
  const range = text.slice(start, end);
  for (const m of range.matchAll(/[0-9]+/g)) {
    const dayMonth = /^(?:0[1-9]|[12][0-9]|3[01])(?:0[1-9]|1[0-2])/.test(m[0]);
    if (m[0].length === 6 && dayMonth && /[-+A-FU-Y]/.test(text.charAt(start + m.index + 6))) return true;
  }
  return false;
}

describe('fi-hetu\'s gate skips ahead', () => {
  const gate = allRuleDefs.find((r) => r.id === 'fi-hetu')!.runGate!;

  it('fi-hetu: skipping ahead finds exactly the blocks the definition does', () => {
    const piece = fc.constantFrom('0', '1', '9', '12', '1234', '123456', '010190', '311299', '320190', '011390', '000190', '1234567', '-', '+', ' ', 'A', 'F', 'G', 'U', 'Y', 'Z', '.');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const text = parts.join('');
        const start = text.length === 0 ? 0 : a % (text.length + 1);
        const end = start + (text.length === start ? 0 : b % (text.length - start + 1));
        expect(gate(text, start, end)).toBe(hetuReference(text, start, end));
      }),
      { numRuns: 3000 },
    );
    // Hand-picked: a hetu inside a long run of groups, one at the range's edges, a seventh digit.
    expect(gate('1234 5678-010190-1234 5678', 0, 26)).toBe(true);
    expect(gate('010190-123A', 0, 6)).toBe(true);
    expect(gate('0101901-123A', 0, 7)).toBe(false);
    expect(gate('x010190-123A', 2, 7)).toBe(false);
    // A UUID's six digits before a dash are rarely a day and a month.
    expect(gate('0d050239-982f', 2, 8)).toBe(true);
    expect(gate('1c373078-6dea', 2, 8)).toBe(false);
    expect(gate('aa277658-70ef', 2, 8)).toBe(false);
  });
});

/**
 * IBAN's gate by its definition: within 42 characters before the run, an unbroken stretch of capitals,
 * digits, spaces and dashes reaching the run holds a registry country code followed by two digits.
 */
function ibanReference(text: string, start: number): boolean {
  let q = start - 1;
  while (q >= Math.max(0, start - 42) && /[A-Z0-9 -]/.test(text.charAt(q))) q--;
  for (let p = q + 1; p <= start - 2; p++) {
    if (/^[A-Z]{2}[0-9]{2}$/.test(text.slice(p, p + 4)) && kIbanBbanFormats[text.slice(p, p + 2)] !== undefined) return true;
  }
  return false;
}

describe('IBAN\'s gate in one backward pass', () => {
  it('finds exactly the country codes the definition does', () => {
    const piece = fc.constantFrom('DE', 'GB', 'NV', 'IN', 'ZZ', 'FR14', '89', '0', '12345678', ' ', 'NWBK', '-', '>', 'a', 'é', 'AB12 ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), (parts, a) => {
        const text = parts.join('');
        const start = a % (text.length + 1);
        expect(ibanRunGate(text, start, text.length)).toBe(ibanReference(text, start));
      }),
      { numRuns: 5000 },
    );
    expect(ibanRunGate('pay DE89370400440532013000', 6, 26)).toBe(true);
    expect(ibanRunGate('INV1956090626', 3, 13)).toBe(false);
    expect(ibanRunGate('GB90-MIDL-4005-1522-3344-55', 10, 27)).toBe(true); // dashed, across a lettered group
    expect(ibanRunGate('ship 2024-01-15', 5, 15)).toBe(false);
    expect(ibanRunGate(`DE89${'0'.repeat(38)}1234`, 42, 46)).toBe(true); // the code 42 characters back
    expect(ibanRunGate(`DE89${'0'.repeat(39)}1234`, 43, 47)).toBe(false); // 43: out of reach
  });
});

/**
 * Hit gates (`RuleDef.hitGate`) drop a group of keyword hits before any pattern call: a gate that says
 * no to a group holding an accepted match's hit loses a finding. Asked here of each accepted match's
 * own hits alone (a group holds at least one; the gate passes a group when it passes one of them).
 */
const hitGated = allRuleDefs.filter((r) => r.hitGate !== undefined);
/** A 150-character password (no repeat a placeholder test would take for one), near the rule's length. */
const kLongPassword = Array.from({ length: 150 }, (_, i) => 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[(i * 37 + 11) % 56]).join('');

function hitGateKeepsEveryMatch(text: string): { ok: boolean; found: number } {
  let found = 0;
  for (const rule of hitGated) {
    const spans = referenceTriggerSpans(rule, text);
    for (const m of referenceMatches(rule, text)) {
      found++;
      const hits = spans.filter(([s, e]) => s < m.matchEnd && m.matchStart < e);
      if (!hits.some(([s, e]) => rule.hitGate!(text, s, e))) return { ok: false, found };
    }
  }
  return { ok: true, found };
}

/**
 * `hitGateKeepsEveryMatch` on texts joined from `part`s (fixed seed), asserted for each; returns how
 * many accepted matches they held.
 */
function generatedMatchesKept(part: fc.Arbitrary<string>, numRuns: number): number {
  let found = 0;
  fc.assert(
    fc.property(fc.array(part, { minLength: 1, maxLength: 24 }), (parts) => {
      const r = hitGateKeepsEveryMatch(`${parts.join('')} end`);
      found += r.found;
      return r.ok;
    }),
    { numRuns, seed: 20261129 },
  );
  return found;
}

describe('hit gates never drop a group that holds an accepted match', () => {
  it('url-credentials has one, and it drops the @ of e-mail addresses', () => {
    const rule = hitGated.find((r) => r.id === 'url-credentials')!;
    expect(rule).toBeDefined();
    const text = 'write to bob@example.com or see https://docs.example.com/@scope/pkg, ftp://anonymous@files.example.org';
    for (const [s, e] of referenceTriggerSpans(rule, text)) expect(rule.hitGate!(text, s, e), text.slice(s - 10, e + 5)).toBe(false);
    const creds = 'postgres://app_rw:s3cr3t-Pa55@db.internal:5432/app';
    const at = creds.indexOf('@');
    expect(rule.hitGate!(creds, at, at + 1)).toBe(true);
  });

  it('on every example of a hit-gated rule', () => {
    let found = 0;
    for (const rule of hitGated) {
      for (const ex of [...rule.examples.positive, ...rule.examples.negative]) {
        const r = hitGateKeepsEveryMatch(ex.text);
        expect(r.ok, `${rule.id}: ${ex.text}`).toBe(true);
        found += r.found;
      }
    }
    expect(found).toBeGreaterThan(3);
  });

  it('on generated URLs, e-mail addresses and the characters around them', () => {
    const piece = fc.constantFrom(
      'postgres', 'redis', 'http', 'mongodb+srv', 'x', '://', ':/', '//', ':', '@', '@@', 'app_rw', 'svc-reader', 'Zx9!kQ%21pW7~', 'p4ss', '',
      'db.internal', '[::1]', 'bob@example.com', ' ', '"', "'", '/', '\n', 'é', '😀', '%3A', '=', ';', 'a'.repeat(90), 'Q7'.repeat(60),
    );
    // Whole credentials in URLs among the pieces, so that accepted matches come up.
    const url = fc
      .tuple(
        fc.constantFrom('postgres', 'redis', 'https', 'mongodb+srv', 'x'),
        fc.constantFrom('app_rw', 'svc-reader', '', 'u%40corp'),
        fc.constantFrom('Zx9!kQ%21pW7~', 'Kq8:w0rd-Vb3', kLongPassword, 'hunter2x9Zr'),
        fc.constantFrom('db.internal:5432/app', '[::1]', 'h'),
      )
      .map(([scheme, user, pass, host]) => `${scheme}://${user}:${pass}@${host}`);
    // The generator reaches accepted matches often, so the property is not vacuous.
    expect(generatedMatchesKept(fc.oneof(piece, url), 3000)).toBeGreaterThan(200);
  });
});

describe("aws-secret-access-key's hit gate", () => {
  const rule = hitGated.find((r) => r.id === 'aws-secret-access-key')!;
  const keyIds = ['AKIA', 'ASIA', 'A3TX'].map((p, i) => tok(p, synth(`gate-akid-${i}`, 16, kBase32Upper)));
  const secrets = [1, 2].map((i) => synth(`gate-aws-secret-${i}`, 40, kBase64));

  it('drops key IDs with no secret in reach, keeps labels and CSV rows', () => {
    expect(rule).toBeDefined();
    const log = `GET /bucket 200 key=${keyIds[0]} user=alice\n{"AccessKeyId":"${keyIds[1]}","Expiration":"2030-01-01T00:00:00Z"}`;
    const spans = referenceTriggerSpans(rule, log);
    expect(spans.length).toBe(2);
    for (const [s, e] of spans) expect(rule.hitGate!(log, s, e), log.slice(s, e + 20)).toBe(false);
    for (const text of [
      `${keyIds[0]},${secrets[0]}`,
      `${keyIds[0]}\nregion = x\nsecret_key = "${secrets[0]}"`,
      `aws_secret_access_key = ${secrets[1]}`,
      // RE2 folds case as Unicode does: U+017F is an s, U+212A a k.
      `${keyIds[1]}\nſecret_key = "${secrets[0]}"`,
      `${keyIds[1]}\nsecret_\u212aey = "${secrets[1]}"`,
    ]) {
      const found = referenceMatches(rule, text);
      expect(found.length, text).toBe(1);
      expect(hitGateKeepsEveryMatch(text).ok, text).toBe(true);
    }
    // A secret further than the rule's length from the key ID: the gate may drop it.
    const far = `${keyIds[0]} ${'x'.repeat(420)} secret`;
    const [s, e] = referenceTriggerSpans(rule, far)[0]!;
    expect(rule.hitGate!(far, s, e)).toBe(false);
  });

  it('on generated key IDs, labels, separators and secrets', () => {
    const piece = fc.constantFrom(
      ...keyIds, ...secrets, keyIds[0]!.toLowerCase(), ',', ';', ':', '|', '\t', ' ', '  ', '"', "'", '=', ' = ', '>', '<', '\n', '\r\n',
      'aws_secret_access_key', 'AWS_SECRET_KEY', 'secret_key', 'SecretAccessKey', 'Secret access key', 'aws.secret', 'ſecret_key', 'secret_\u212aey',
      'access_key', 'key', 'x'.repeat(150), 'é', '<![CDATA[', ']]>', '</td><td>',
    );
    const whole = fc
      .tuple(fc.constantFrom(...keyIds), fc.constantFrom(...secrets), fc.constantFrom(',', '","', ' | ', ':', '\nsecret_key = ', '\nſecret_key = ', ' x '))
      .map(([id, secret, sep]) => `${id}${sep}${secret}`);
    // The generator reaches accepted matches often, so the property is not vacuous.
    expect(generatedMatchesKept(fc.oneof(piece, whole), 2000)).toBeGreaterThan(200);
  });
});

describe("http-auth-token's hit gate", () => {
  const rule = hitGated.find((r) => r.id === 'http-auth-token')!;
  const tokens = [1, 2].map((i) => synth(`gate-header-token-${i}`, 32, kBase64));

  it('drops names with no value after them, keeps header lines and maps', () => {
    expect(rule).toBeDefined();
    const prose = `Send the X-API-Key header; Authorization: Bearer ${tokens[0]}\n{"authorization": {"type": "oauth2"}}`;
    const spans = referenceTriggerSpans(rule, prose);
    expect(spans.length).toBe(3);
    for (const [s, e] of spans) expect(rule.hitGate!(prose, s, e), prose.slice(s, e + 20)).toBe(false);
    for (const text of [
      `Authorization: Token ${tokens[0]}\r\n`,
      `{"x-auth-token": "${tokens[1]}"}`,
      `X-Acme-ApiKey= ssws ${tokens[0]}`,
      // RE2 folds case as Unicode does: U+017F is an s, U+212A a k.
      `X-API-\u212aey: ${tokens[1]}`,
      `authorization: ſſws ${tokens[0]}`,
    ]) {
      expect(referenceMatches(rule, text).length, text).toBe(1);
      expect(hitGateKeepsEveryMatch(text).ok, text).toBe(true);
    }
  });

  it('on generated header names, separators, schemes and values', () => {
    const piece = fc.constantFrom(
      ...tokens, 'Authorization', 'authorization', 'X-API-Key', 'x-api-key', 'ApiKey', 'Api-Token', 'X-Auth-Token', 'Access-Token', 'X-Acme-',
      'api_key', 'X-API-\u212aey', 'ſſws ', ':', ': ', '=', '"', "'", '`', ']', '\t', ' ', '   ', 'Token ', 'Bearer ', 'sso-key ', 'bot  ',
      'abc', 'x'.repeat(15), 'x'.repeat(16), '==', '\r\n', '{', '}', 'é',
    );
    const whole = fc
      .tuple(
        fc.constantFrom('Authorization', 'X-API-Key', 'x-acme-apikey', 'Auth-Token', 'access-token'),
        fc.constantFrom(': ', '=', '": "', "']=", ':\t'),
        fc.constantFrom('', 'Token ', 'api-key ', 'ssws '),
        fc.constantFrom(...tokens),
      )
      .map(([name, sep, scheme, value]) => `${name}${sep}${scheme}${value}`);
    // The generator reaches accepted matches often, so the property is not vacuous.
    expect(generatedMatchesKept(fc.oneof(piece, whole), 2000)).toBeGreaterThan(200);
  });
});
