/**
 * The matcher confirms a group from its rule's `runMatch` (no pattern call) where the rule can work
 * the match out from the run; elsewhere its pattern searches the window. Both must report exactly the
 * same: same findings in the same order (rule, offsets, redacted value, confidence), same truncation
 * and notices. Checked here by scanning the same bodies with and without `runMatch`
 * (`withoutRunMatch`): generated bodies dense with card, IBAN and SSN-like runs (published and
 * registry values, single-digit changes, every grouping, separators, letters, digits and non-ASCII
 * text touching either side, lists, context words near and far, JSON escapes and HTML entities),
 * whole and cut into small chunks, and the bench's bodies.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, resolveBackend, scanStream, type Program } from '../../src/engine/index.js';
import { withoutRunMatch } from '../../src/engine/program.js';
import { allRuleDefs, selectRules } from '../../src/rules/index.js';
import type { Confidence } from '../../src/rules/types.js';
import type { ScanReport } from '../../src/types.js';
import { kContentKinds, kContentTypes, kDensities, makeBody } from '../../bench/bodies.js';
import { Rng } from '../../bench/prng.js';
import { cut } from './helpers.js';
import { kRegistryIbans, kTestCards } from '../rules/published-values.js';

/** SSNs of the rule's examples and a few of the same shape; `078-05-1120` is the published Woolworth number. */
const kSsns = ['536-22-8714', '401-68-2297', '212-09-7781', '078-05-1120', '123-45-6789', '666-12-3456', '900-12-3456', '912-78-3456', '977-88-1020'];

/** A value written some way: as published, bare, in groups of four (space, dash, dot), or changed. */
function written(r: Rng, value: string): string {
  const bare = value.replace(/[ .-]/g, '');
  const fours = (sep: string) => bare.replace(/(.{4})(?=.)/g, `$1${sep}`);
  switch (r.int(0, 9)) {
    case 0:
      return bare;
    case 1:
      return fours(' ');
    case 2:
      return fours('-');
    case 3:
      return fours(r.pick(['.', '  ', ' - ']));
    case 4:
      return bare.replace(/[0-9](?=[0-9]?$)/, (d) => String((Number(d) + 1 + r.int(0, 7)) % 10));
    case 5:
      return `${bare.slice(0, 6)}${r.digits(bare.length - 6)}`;
    case 6:
      return r.chance(0.5) ? bare.slice(1) : `${bare}${r.int(0, 9)}`;
    default:
      return value;
  }
}

function value(r: Rng): string {
  switch (r.int(0, 4)) {
    case 0:
    case 1:
      return written(r, r.pick(kTestCards));
    case 2:
      return written(r, r.pick(kRegistryIbans));
    case 3:
      return r.chance(0.7) ? r.pick(kSsns) : `${r.digits(3)}${r.pick(['-', ' ', '.', ''])}${r.digits(2)}${r.pick(['-', ' '])}${r.digits(4)}`;
    default:
      // A list of cards, as test-card pages print them.
      return [r.pick(kTestCards), written(r, r.pick(kTestCards)), written(r, r.pick(kTestCards))].join(r.pick([' ', ', ', '  ']));
  }
}

const kBefore = ['', ' ', '"', ':', '=', '>', '(', 'x', 'a ', 'ORD-', 'Visa ', 'IBAN ', 'IBAN: ', '1', '1 ', '1-', '-', '.', '. ', ' -', 'é', '田', '😀', '😀 ', '\u00a0', 'DE', 'GB29 ', '\n'];
const kAfter = ['', ' ', '"', ',', ';', 'x', '1', ' 1', '-1', '.5', '.', '-', '😀', 'é', '/29', ' 12/29', ' session=ab12', '<', '\n'];
const kWords = ['card number', 'credit card', 'ssn', 'social security', 'iban', 'routing number', 'account number', 'passport', 'tax id', 'order', 'total', 'Überweisung', '카드번호', 'payload'];

/** A text body dense with values: one every few dozen characters, context words near and far. */
function denseText(r: Rng, values: number): string {
  const parts: string[] = [];
  for (let i = 0; i < values; i++) {
    if (r.chance(0.4)) parts.push(`${r.pick(kWords)}${r.pick([': ', ' ', '=', '":"'])}`);
    if (r.chance(0.2)) parts.push(' '.repeat(r.int(0, 79)));
    parts.push(`${r.pick(kBefore)}${value(r)}${r.pick(kAfter)}`);
    parts.push(r.pick([' ', '\n', ' | ', `","ref":"${r.digits(8)}`, ` ${r.pick(kWords)} `, '']));
  }
  return parts.join('');
}

/** The same as a JSON document, some digits and dashes written as `\uXXXX` escapes. */
function asJson(r: Rng, text: string): string {
  const escaped = JSON.stringify(text).replace(/[0-9-]/g, (c) => (r.chance(0.05) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
  return `{"items":[${escaped}]}`;
}

/** The same as HTML, some digits as character references. */
function asHtml(r: Rng, text: string): string {
  const body = text.replace(/[<&]/g, ' ').replace(/[0-9]/g, (c) => (r.chance(0.05) ? `&#${c.charCodeAt(0)};` : c));
  return `<html><body><p>${body}</p></body></html>`;
}

function outcome(report: ScanReport): Pick<ScanReport, 'findings' | 'truncated' | 'notices'> {
  return { findings: report.findings, truncated: report.truncated, notices: report.notices };
}

/** Scans `bytes` with and without `runMatch` (whole, or cut at `cuts`) and expects the same report. */
async function expectSame(p: Program, bytes: Uint8Array, contentType: string, cuts?: number[], maxFindings?: number): Promise<number> {
  const slow = withoutRunMatchOf(p);
  const limits = maxFindings === undefined ? {} : { maxFindings };
  const scan = (prog: Program) => (cuts === undefined ? scanStream(prog, [bytes], { contentType }, limits) : scanStream(prog, cut(bytes, cuts), { contentType }, { ...limits, coalesceBytes: 1 }));
  const [fast, reference] = await Promise.all([scan(p), scan(slow)]);
  expect(outcome(fast)).toEqual(outcome(reference));
  return fast.findings.length;
}

const kSlow = new WeakMap<Program, Program>();
function withoutRunMatchOf(p: Program): Program {
  let s = kSlow.get(p);
  if (s === undefined) kSlow.set(p, (s = withoutRunMatch(p)));
  return s;
}

/** Groups `runMatch` answered for, per program (so a test can tell it did not pass by never answering). */
const kAnswered = new WeakMap<Program, { count: number }>();
function counting(p: Program): Program {
  const tally = { count: 0 };
  const rules = p.rules.map((r) => {
    const f = r.runMatch;
    if (f === null) return r;
    return { ...r, runMatch: (text: string, start: number, end: number, out: Int32Array) => f(text, start, end, out) && ++tally.count > 0 };
  });
  const q = { ...p, rules };
  kAnswered.set(q, tally);
  return q;
}

const backend = resolveBackend('auto');
const programs: Array<[string, Program]> = [
  ['default rules', counting(compileProgram(selectRules({}), backend))],
  ...(['medium', 'low'] as Confidence[]).map((c): [string, Program] => [`all rules at ${c}`, counting(compileProgram(allRuleDefs, backend, c))]),
];

describe('groups confirmed from the run report what the pattern reports', () => {
  for (const [name, p] of programs) {
    it(`${name}: generated text, JSON and HTML bodies, whole`, async () => {
      let found = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const r = new Rng(seed);
        const text = denseText(r, 400);
        found += await expectSame(p, Buffer.from(text), 'text/plain; charset=utf-8');
        found += await expectSame(p, Buffer.from(asJson(r, text)), 'application/json');
        found += await expectSame(p, Buffer.from(asHtml(r, text)), 'text/html; charset=utf-8');
      }
      expect(found).toBeGreaterThan(1000);
      expect(kAnswered.get(p)!.count).toBeGreaterThan(1000);
    });

    it(`${name}: generated bodies cut into small chunks`, async () => {
      for (let seed = 100; seed < 106; seed++) {
        const r = new Rng(seed);
        const text = denseText(r, 120);
        for (const bytes of [Buffer.from(text), Buffer.from(asJson(r, text))]) {
          const cuts: number[] = [];
          for (let at = r.int(1, 16); at < bytes.length; at += r.int(1, r.chance(0.5) ? 8 : 64)) cuts.push(at);
          await expectSame(p, bytes, r.chance(0.5) ? 'text/plain; charset=utf-8' : 'application/json', cuts);
        }
      }
    });
  }

  it('a findings cap cuts both at the same finding', async () => {
    const p = programs[0]![1];
    const r = new Rng(7);
    const text = denseText(r, 300);
    for (const cap of [1, 2, 5, 17, 60]) await expectSame(p, Buffer.from(text), 'text/plain; charset=utf-8', undefined, cap);
  });

  it('values at the body edges and in lists', async () => {
    const p = programs[0]![1];
    const bodies = [
      '4242424242424242',
      '4242 4242 4242 4242',
      ' 4242-4242-4242-4242',
      '536-22-8714',
      'DE89370400440532013000',
      'DE89 3704 0044 0532 0130 00',
      'test cards: 4242424242424242 4000-0566-5566-5556 4000 0025 0000 3155\n',
      '4242424242424242 4000 0566 5566 5556 5555555555554444',
      'x4242424242424242 4242424242424242x 14242424242424242 ORD-4242424242424242 Visa 4242424242424242',
      '536-22-8714-1 1-536-22-8714 x536-22-8714 536-22-8714x "536-22-8714" 536-22-8714.5',
      'XDE89370400440532013000 DE89370400440532013000X GB29NWBK60161331926819 NL91ABNA0417164300EURO',
    ];
    for (const body of bodies) {
      await expectSame(p, Buffer.from(body), 'text/plain; charset=utf-8');
      await expectSame(p, Buffer.from(body), 'text/plain; charset=utf-8', [...Array(body.length).keys()]);
    }
  });

  for (const density of kDensities) {
    it(`the bench's ${density} bodies`, async () => {
      const p = programs[0]![1];
      for (const kind of kContentKinds) {
        const body = makeBody(kind, density, '1MB');
        await expectSame(p, body.bytes, kContentTypes[kind]);
      }
    });
  }
});
