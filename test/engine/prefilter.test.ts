import { describe, expect, it } from 'vitest';
import { PrefilterTables, columnsOf, kMaxRunSpan, newTriggerPass, type PrefilterSpec } from '../../src/engine/prefilter.js';
import { prefilterImpls } from './helpers.js';

// The same suite runs against every prefilter implementation (the TypeScript pass and, where it is
// built, the native one): a conformance suite, as for the storage and audit backends.
describe.each(prefilterImpls())('prefilter (%s)', (impl) => {
/** A spec of digit rules alone (no keywords, no tokens). */
const digitSpec = (digits: PrefilterSpec['digits']): PrefilterSpec => ({ keywords: [], digits, tokens: [] });

function spans(spec: PrefilterSpec, ...chunks: string[]): string[] {
  const pf = newTriggerPass(new PrefilterTables(spec), impl);
  const out: string[] = [];
  const emit = (rule: number, s: number, e: number) => out.push(`${rule}:${s}-${e}`);
  for (const c of chunks) pf.scan(columnsOf(c), 0, c.length, emit);
  pf.finish(emit);
  return out.sort();
}

/**
 * The spans of `text`, required to be the same however it is cut: in two at every place, and in three
 * with a middle piece of one to three characters (a run's neighbours then sit in other pieces).
 */
function cutInvariant(spec: PrefilterSpec, text: string): string[] {
  const whole = spans(spec, text);
  for (let i = 1; i < text.length; i++) {
    expect(spans(spec, text.slice(0, i), text.slice(i))).toEqual(whole);
    for (let j = i + 1; j < Math.min(text.length, i + 4); j++) expect(spans(spec, text.slice(0, i), text.slice(i, j), text.slice(j))).toEqual(whole);
  }
  return whole;
}

describe('prefilter', () => {
  const spec: PrefilterSpec = {
    keywords: [
      { text: 'AKIA', rule: 0 },
      { text: 'ghp_', rule: 1 },
      { text: 'password', rule: 2 },
      { text: 'pass', rule: 3 },
    ],
    digits: [
      { rule: 4, min: 13, separators: ' -' },
      { rule: 5, min: 9, separators: ' -.' },
    ],
    tokens: [{ rule: 6, min: 9, max: 9, needsDigit: true, needsLetter: true }],
  };

  it('finds every keyword case-insensitively, overlapping ones included', () => {
    expect(spans(spec, 'x akia GHP_ PassWord')).toEqual(['0:2-6', '1:7-11', '2:12-20', '3:12-16']);
  });

  it('finds what a plain search finds for keyword sets whose words share prefixes and suffixes', () => {
    // The automaton's failure links against the obvious search: every occurrence of every keyword,
    // lower-cased, from every position. Words from a four-letter alphabet overlap in every way.
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const word = (len: number): string => Array.from({ length: len }, () => 'abAB_-'[rand(6)]!).join('');
    for (let round = 0; round < 40; round++) {
      const words = Array.from({ length: 1 + rand(12) }, () => word(1 + rand(6)));
      const keywords = words.map((text, i) => ({ text, rule: i % 5 }));
      const text = word(200);
      const expected = new Set<string>();
      const lower = text.toLowerCase();
      for (const { text: kw, rule } of keywords) {
        for (let at = lower.indexOf(kw.toLowerCase()); at >= 0; at = lower.indexOf(kw.toLowerCase(), at + 1)) expected.add(`${rule}:${at}-${at + kw.length}`);
      }
      expect(new Set(spans({ keywords, digits: [], tokens: [] }, text))).toEqual(expected);
    }
  });

  it('gives the same spans however the text is cut', () => {
    const text = 'AKIAx 4111 1111 1111 1111 AB123456C password 12.345.678-9 ghp_';
    const whole = spans(spec, text);
    for (let i = 1; i < text.length; i++) expect(spans(spec, text.slice(0, i), text.slice(i))).toEqual(whole);
    const bytewise = spans(spec, ...text.split(''));
    expect(bytewise).toEqual(whole);
  });

  it('fires a digit rule only when a run of its own separators is long enough', () => {
    // SVG path data: dots join the union run, but the card-like rule (no dots) sees short sub-runs.
    expect(spans(spec, 'd="M12.5 13.5-14.2 15.75"')).toEqual(['5:4-24']);
    expect(spans(spec, '4111 1111 1111 1111')).toEqual(['4:0-19', '5:0-19']);
    expect(spans(spec, '4111.1111.1111.1111')).toEqual(['5:0-19']);
    // Two separators in a row end the run.
    expect(spans(spec, '1234  5678 9012')).toEqual([]);
  });

  it('cuts long digit runs into bounded pieces that all fire', () => {
    const run = '1234 '.repeat(200).trim();
    const out = spans(spec, run);
    const pieces = out.filter((s) => s.startsWith('4:')).map((s) => s.slice(2).split('-').map(Number));
    expect(pieces.length).toBeGreaterThan(2);
    for (const [s, e] of pieces) expect(e! - s!).toBeLessThanOrEqual(kMaxRunSpan);
    expect(pieces[0]![0]).toBe(0);
    expect(pieces.at(-1)![1]).toBe(run.length);
  });

  it('wakes only the rules whose values can be that long with a piece that holds no separator', () => {
    // Every sub-run through such a piece holds all of its digits: a rule of at most 12 digits cannot
    // match inside it. A piece with a separator still wakes every rule (a short sub-run may end there).
    const pieces = digitSpec([
      { rule: 0, min: 6, max: 12, separators: ' -' },
      { rule: 1, min: 8, separators: ' ' },
    ]);
    const long = '7'.repeat(600);
    expect(spans(pieces, long)).toEqual(['1:0-256', '1:256-512', '1:512-600']);
    const tail = `${'7'.repeat(300)} 123456`;
    expect(spans(pieces, tail)).toEqual(['0:256-307', '1:0-256', '1:256-307']);
    expect(cutInvariant(pieces, `x ${'1'.repeat(260)}-12 y`)).toEqual(['0:258-265', '1:2-258', '1:258-265']);
  });

  it('wakes a rule of contiguous digits in a piece only for a stretch of its length, counting across pieces', () => {
    // Rule 2 takes 17-18 digits with no separator. In a long run of four-digit groups no stretch is
    // that long, so after the first piece (a run of its own, whose shapes decide) it never wakes; the
    // others, whose sub-runs through a piece are not told apart, still do. A 17-digit stretch that
    // crosses the cut at 256 wakes it in the piece it ends in, counted from the piece before.
    const pieces = digitSpec([
      { rule: 0, min: 6, max: 12, separators: ' -' },
      { rule: 2, min: 17, max: 18, separators: '' },
    ]);
    const groups = spans(pieces, '1234 5678-'.repeat(100));
    expect(groups.filter((x) => x.startsWith('0:')).length).toBeGreaterThan(2);
    expect(groups.filter((x) => x.startsWith('2:'))).toEqual([]);
    const crossing = `${'12-'.repeat(84)}12345678901234567-12`;
    expect(cutInvariant(pieces, crossing)).toEqual(['0:256-272', '2:256-272']);
    // The same stretch one digit longer than the rule's range does not.
    expect(cutInvariant(pieces, `${'12-'.repeat(84)}1234567890123456789-12`)).toEqual(['0:256-274']);
    // Nor a stretch of 16 that ends right at the cut, then one of 3 in the next piece.
    expect(spans(pieces, `${'12-'.repeat(80)}1234567890123456-123-12`).filter((x) => x.startsWith('2:'))).toEqual([]);
  });

  it('reports tokens by length and character mix', () => {
    expect(spans(spec, 'AB123456C abcdefghi 123456789 AB1234567C')).toEqual(['5:20-29', '6:0-9']);
  });

  it('no longer holds back a token longer than every token rule (minFutureStart)', () => {
    const after = (text: string): number => {
      const pf = newTriggerPass(new PrefilterTables(spec), impl);
      pf.scan(columnsOf(text), 0, text.length, () => {});
      return pf.minFutureStart();
    };
    // The token rule takes 9 characters: a token of 9 may still fire, one of 10 never.
    expect(after('x AB123456Z')).toBe(2);
    expect(after('x AB1234567Z')).toBe(12);
    // One repeated letter for 100 KB: the matcher may drop all of it (it kept it all, copying it per push).
    expect(after('b'.repeat(100_000))).toBe(100_000);
    // A digit run is cut into pieces: the piece in progress can still fire.
    expect(after('1'.repeat(1000))).toBeGreaterThanOrEqual(1000 - kMaxRunSpan);
    expect(after('1'.repeat(1000))).toBeLessThan(1000);
  });
});

describe('prefilter digit max', () => {
  it('fires a rule with max only for a run of its own separators within [min, max]', () => {
    const spec: PrefilterSpec = digitSpec([
      { rule: 0, min: 6, max: 6, separators: '' },
      { rule: 1, min: 9, max: 9, separators: ' -' },
    ]);
    expect(spans(spec, 'ts=1714585634874')).toEqual([]); // 13 contiguous digits: neither
    expect(spans(spec, '010190-123A')).toEqual(['0:0-10', '1:0-10']); // DDMMYY is a 6-digit sub-run; 9 digits with '-'
    expect(spans(spec, '123-45-6789')).toEqual(['1:0-11']);
    expect(spans(spec, '123-45-6789-1234')).toEqual([]); // 13 digits in one own run
    expect(spans(spec, '123456 7890')).toEqual(['0:0-11']); // the space splits rule 0's sub-runs
  });
});

describe('prefilter context screen', () => {
  // Rule 0 (digits) and rule 1 (tokens) need a context word ending within 20 characters before the
  // trigger's start; rule 2 has the same digits and no screen. Keyword rule 3 shares a word.
  const spec: PrefilterSpec = {
    keywords: [{ text: 'iban', rule: 3 }],
    digits: [
      { rule: 0, min: 8, separators: ' ' },
      { rule: 2, min: 8, separators: ' ' },
    ],
    tokens: [{ rule: 1, min: 10, max: 10, needsDigit: true, needsLetter: true }],
    context: [
      { rule: 0, within: 20, words: ['ssn', 'iban'] },
      { rule: 1, within: 20, words: ['Token'] },
    ],
  };

  it('reports a screened trigger only after a context word close enough before it', () => {
    // No word: only the unscreened rule. Context words themselves are never reported.
    expect(spans(spec, 'id 12345678 end')).toEqual(['2:3-11']);
    expect(spans(spec, 'SSN: 12345678')).toEqual(['0:5-13', '2:5-13']);
    // The word must end after start - within: `ssn` ends at 3, a start at 23 is 20 past it (out),
    // one at 22 is 19 past it (in).
    expect(spans(spec, 'ssn' + ' '.repeat(20) + '12345678')).toEqual(['2:23-31']);
    expect(spans(spec, 'ssn' + ' '.repeat(19) + '12345678')).toEqual(['0:22-30', '2:22-30']);
    // A context word shared with a keyword rule still reports the keyword.
    expect(spans(spec, 'IBAN 12345678')).toEqual(['0:5-13', '2:5-13', '3:0-4']);
    // Each rule listens to its own words only.
    expect(spans(spec, 'token=ab12cd34ef ssn')).toEqual(['1:6-16']);
    expect(spans(spec, 'ssn=ab12cd34ef')).toEqual([]);
  });

  it('gives the same screened spans however the text is cut', () => {
    const text = 'x ssn 1234 5678 token ab12cd34ef ' + '1'.repeat(9) + ' '.repeat(30) + '22223333 iban 44445555';
    const whole = spans(spec, text);
    expect(whole).toContain('0:6-15');
    for (let i = 1; i < text.length; i++) expect(spans(spec, text.slice(0, i), text.slice(i))).toEqual(whole);
  });

  it('refuses a screen that could never pass', () => {
    expect(() => new PrefilterTables({ ...spec, context: [{ rule: 0, within: 0, words: ['x'] }] })).toThrow(/within must be positive/);
  });
});

describe('prefilter run shapes', () => {
  // Rule 0: first digit 2-6; rule 1: two capitals before (maybe across a space), A-D after (maybe
  // across a space); rule 2: a capital after, maybe across a dash; rule 3: no shape.
  const spec: PrefilterSpec = digitSpec([
    { rule: 0, min: 4, separators: ' -', shape: { first: '23456' } },
    { rule: 1, min: 6, max: 6, separators: ' ', shape: { before: { chars: 'A-Z', skip: ' ', count: 2 }, after: { chars: 'A-D', skip: ' ' } } },
    { rule: 2, min: 8, separators: '.', shape: { after: { chars: 'A-Z', skip: '-' } } },
    { rule: 3, min: 4, separators: ' -.' },
  ]);

  it('reports a run to a shaped rule only when the run has its shape', () => {
    expect(spans(spec, 'x 4111 1111 y')).toEqual(['0:2-11', '3:2-11']);
    expect(spans(spec, 'x 1111 1111 y')).toEqual(['3:2-11']);
    expect(spans(spec, 'QQ 12 34 56 C.')).toEqual(['1:3-11', '3:3-11']);
    expect(spans(spec, 'QQ123456 C')).toEqual(['1:2-8', '3:2-8']);
    expect(spans(spec, 'Q 123456 C')).toEqual(['3:2-8']); // one capital before
    expect(spans(spec, 'QQ 123456 E')).toEqual(['3:3-9']); // E is no suffix
    expect(spans(spec, 'éQ 123456 A')).toEqual(['3:3-9']); // non-ASCII is no capital
    expect(spans(spec, '12345678-Z')).toEqual(['2:0-8', '3:0-8']);
    expect(spans(spec, '12345678Z')).toEqual(['2:0-8', '3:0-8']);
    expect(spans(spec, '12345678-z')).toEqual(['3:0-8']);
    expect(spans(spec, '12345678 Z')).toEqual(['3:0-8']); // a space is not the skip character
    // At the end of the text the character after is unseen: the run passes.
    expect(spans(spec, 'x 12345678-')).toEqual(['2:2-10', '3:2-10']);
    expect(spans(spec, 'x 12345678')).toEqual(['2:2-10', '3:2-10']);
  });

  it('lets a long run\'s first piece pass an after side: the run goes on past the cut', () => {
    // Rule 2 wants a capital after its run. The first piece of a 300-digit run is cut at 256 digits,
    // before the run's end is seen: its after side passes, whatever the last run before it ended on.
    const long = '1'.repeat(300);
    for (const text of [`X ${long}`, `12345678-z ${long}`, `12345678-Z ${long}`]) {
      const start = text.length - 300;
      expect(spans(spec, text)).toContain(`2:${start}-${start + kMaxRunSpan}`);
    }
  });

  it('gives the same spans however the text is cut, characters before and after the run included', () => {
    const whole = cutInvariant(spec, 'AB 12 34 56 C  id 4111-1111-2222 QQ 654321 D 87654321-Z  98765432-x AB123456 A');
    expect(whole.filter((s) => s.startsWith('1:')).length).toBe(3);
    expect(whole.filter((s) => s.startsWith('2:')).length).toBe(1);
  });

  it('groups: before the within-th digit, one kind of separator from chars, the first after `first` digits', () => {
    const g: PrefilterSpec = digitSpec([
      { rule: 0, min: 12, separators: ' -', shape: { groups: { within: 12, first: 4, chars: ' -' } } },
      { rule: 1, min: 12, separators: ' -.' },
    ]);
    expect(spans(g, 'x 4111 1111 1111 1111 y')).toEqual(['0:2-21', '1:2-21']);
    expect(spans(g, 'x 4111-1111-1111-1111 y')).toEqual(['0:2-21', '1:2-21']);
    expect(spans(g, 'x 411111111111 1111 y')).toEqual(['0:2-19', '1:2-19']); // no separator before the 12th digit
    expect(spans(g, 'x 6332907625 200 546 y')).toEqual(['1:2-20']); // first group of 10
    expect(spans(g, 'x 4111-1111 1111 1111 y')).toEqual(['1:2-21']); // mixed separators
    expect(spans(g, 'x 4111 1111 1111-1111 y')).toEqual(['0:2-21', '1:2-21']); // the dash comes after the 12th digit
    expect(spans(g, 'x 4111.1111 1111 1111 1 y')).toEqual(['1:2-23']); // a dot is not one of chars
  });

  it('groups with required: the run has a separator before its within-th digit', () => {
    const g: PrefilterSpec = digitSpec([
      { rule: 0, min: 13, max: 13, separators: '-', shape: { groups: { within: 13, first: 6, chars: '-', required: true } } },
      { rule: 1, min: 11, max: 11, separators: '.-', shape: { groups: { within: 9, first: 3, chars: '.', required: true } } },
      { rule: 2, min: 11, separators: ' -.' },
    ]);
    expect(spans(g, 'rrn 850315-2345615 y')).toEqual(['0:4-18', '2:4-18']);
    expect(spans(g, 'ts=1714585634874 y')).toEqual(['2:3-16']); // bare
    expect(spans(g, 'x 8503152-345615 y')).toEqual(['2:2-16']); // the dash after 7 digits
    expect(spans(g, 'cpf 123.456.789-09 y')).toEqual(['1:4-18', '2:4-18']);
    expect(spans(g, 'x 12345678909 y')).toEqual(['2:2-13']); // bare
    expect(spans(g, 'x 123456789-09 y')).toEqual(['2:2-14']); // the only separator after the 9th digit
    expect(spans(g, 'x 123-456-789-09 y')).toEqual(['2:2-16']); // dashes where the dots go
    const whole = cutInvariant(g, 'a 850315-2345615 b 1714585634874 c 123.456.789-09 d 12345678909 e');
    expect(whole.filter((x) => !x.startsWith('2:'))).toHaveLength(2);
  });

  // Rule 0: a block of exactly 6 digits followed by a sign (hetu-like); rule 1: a block of exactly 7
  // with X-Z before and a capital after, each maybe across a dash (NIE-like); rule 2 (no shape) with
  // `min2` digits, whose dots, dashes and spaces join runs, as the managed rules' separators do.
  const blockSpec = (min2: number): PrefilterSpec =>
    digitSpec([
      { rule: 0, min: 6, max: 6, separators: '', shape: { block: { after: { chars: '-+A-FU-Y' } } } },
      { rule: 1, min: 7, max: 7, separators: '', shape: { block: { before: { chars: 'X-Z', skip: '-' }, after: { chars: 'A-Z', skip: '-' } } } },
      { rule: 2, min: min2, separators: ' -.' },
    ]);

  it('block: the characters around the rule\'s own sub-run, any of which may pass', () => {
    const b = blockSpec(6);
    expect(spans(b, 'id 010190-123A')).toEqual(['0:3-13', '2:3-13']); // the sign is a separator inside the run
    expect(spans(b, 'id 010190A123')).toEqual(['0:3-9', '2:3-9']); // the sign ends the run
    expect(spans(b, 'ORD-2024-913940"')).toEqual(['2:4-15']); // a 6-block followed by a quote
    // The first 6-block fails, the second passes: the run still fires once.
    expect(spans(b, 'x 123456.654321+ y')).toEqual(['0:2-15', '2:2-15']);
    expect(spans(b, 'X-1234567-L')).toEqual(['1:2-9', '2:2-9']); // across dashes, the trailing one included
    expect(spans(b, 'X1234567L')).toEqual(['1:1-8', '2:1-8']);
    expect(spans(b, 'Q1234567L')).toEqual(['2:1-8']);
    expect(spans(b, 'X1234567-1')).toEqual(['2:1-10']); // a digit after the dash
    expect(spans(b, '5-1234567-L')).toEqual(['2:0-9']); // after a separator inside the run: a digit before it
    expect(spans(b, 'X-1234567-')).toEqual(['1:2-9', '2:2-9']); // the end of the text passes
  });

  it('gives the same block-shaped spans however the text is cut', () => {
    const whole = cutInvariant(blockSpec(50), 'a X-1234567-L b 123456.654321+ c Y7654321Q d 2024-913940" e Z-1111111-2 f 010190A123');
    expect(whole.filter((x) => x.startsWith('1:')).length).toBe(2);
    expect(whole.filter((x) => x.startsWith('0:')).length).toBe(2);
  });

  it('counts: only sub-runs holding one of the counts fire, each count within min..max', () => {
    const c: PrefilterSpec = digitSpec([
      { rule: 0, min: 8, max: 15, separators: ' ', shape: { counts: [8, 15], after: { chars: '^x' } } },
      // Dashes join the shared runs, and split rule 0's sub-runs.
      { rule: 1, min: 8, max: 15, separators: ' -' },
    ]);
    expect(spans(c, 'a 12345678 b')).toEqual(['0:2-10', '1:2-10']);
    expect(spans(c, 'ts=1714585634874 b')).toEqual(['1:3-16']); // 13 digits
    expect(spans(c, 'a 1 85 07 75 116 012 80 b')).toEqual(['0:2-23', '1:2-23']);
    expect(spans(c, 'a 123456789 b')).toEqual(['1:2-11']);
    expect(spans(c, 'a 12345678x')).toEqual(['1:2-10']); // the count's own shape still applies
    // A sub-run of each count in one run: the rule is reported once per count, the run's span each time.
    expect(spans(c, 'a 1234-1234 5678-123456789012345 b')).toEqual(['0:2-32', '0:2-32']);
    expect(spans(c, 'a 4-1234567 8 b')).toEqual(['0:2-13', '1:2-13']); // the sub-run after the dash
    const whole = cutInvariant(c, 'a 12345678 b ts=1714585634874 c 073 004 70 d 123456789 e 185077511601280 f');
    expect(whole.filter((x) => x.startsWith('0:')).length).toBe(3);
    expect(whole.filter((x) => x.startsWith('1:')).length).toBe(5);
  });

  it('refuses a malformed shape', () => {
    const bad = (shape: object) => () => new PrefilterTables({ ...spec, digits: [{ rule: 0, min: 4, separators: ' ', shape }] });
    expect(bad({ counts: [] })).toThrow(/counts must be digit counts/);
    expect(bad({ counts: [3] })).toThrow(/counts must be digit counts/);
    expect(bad({ counts: [4.5] })).toThrow(/counts must be digit counts/);
    expect(() => new PrefilterTables({ ...spec, digits: [{ rule: 0, min: 4, max: 6, separators: ' ', shape: { counts: [7] } }] })).toThrow(/within the trigger's 4\.\.6/);
    expect(bad({ first: '2x' })).toThrow(/first must list digits/);
    expect(bad({ after: { chars: 'A-Z', skip: '--' } })).toThrow(/skip must be one ASCII character/);
    expect(bad({ before: { chars: 'é' } })).toThrow(/ASCII class body/);
    expect(bad({ after: { chars: '' } })).toThrow(/empty chars/);
    expect(bad({ groups: { within: 4, first: 4, chars: ' ' } })).toThrow(/first < within/);
    expect(bad({ before: { chars: 'A-Z', count: 3 } })).toThrow(/count must be 1 or 2/);
    expect(bad({ groups: { within: 300, first: 4, chars: ' ' } })).toThrow(/first < within/);
  });
});

describe('prefilter keyword joins', () => {
  const alnum = new Uint8Array(128);
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') alnum[c.charCodeAt(0)] = 1;
  // Rule 0 joins hits 4 apart into spans of at most 12, and needs a letter or digit after '@'; rule 1
  // joins without a next class; rule 2 is reported hit by hit; rule 3 is a digit rule.
  const spec: PrefilterSpec = {
    keywords: [
      { text: '@', rule: 0 },
      { text: 'key', rule: 1 },
      { text: 'pw', rule: 2 },
    ],
    digits: [{ rule: 3, min: 4, separators: '' }],
    tokens: [],
    joins: [
      { rule: 0, gap: 4, span: 12, next: alnum },
      { rule: 1, gap: 4, span: 100 },
    ],
  };

  /** Events in the order reported (not sorted), each piece a scan call of its own. */
  function ordered(s: PrefilterSpec, ...chunks: string[]): string[] {
    const pf = newTriggerPass(new PrefilterTables(s), impl);
    const out: string[] = [];
    const emit = (rule: number, a: number, b: number) => out.push(`${rule}:${a}-${b}`);
    let at = 0;
    const text = chunks.join('');
    const cols = columnsOf(text);
    for (const c of chunks) {
      pf.scan(cols, at, at + c.length, emit);
      at += c.length;
    }
    pf.finish(emit);
    return out;
  }

  it('joins a rule\'s hits closer than its gap into one span, no longer than its span', () => {
    // Hits at 1, 3, ..., 13: one span up to 12 characters long, then the next.
    expect(ordered(spec, 'a@a@a@a@a@a@a@a')).toEqual(['0:1-12', '0:13-14']);
    // A hit further than the gap after the open span's end opens a new one.
    expect(ordered(spec, 'a@a     @a')).toEqual(['0:1-2', '0:8-9']);
    expect(ordered(spec, 'a@a   @a')).toEqual(['0:1-7']);
    // Without joins, every hit is reported as it comes.
    expect(ordered({ ...spec, joins: [] }, 'a@a@a')).toEqual(['0:1-2', '0:3-4']);
  });

  it('drops a hit whose next character the rule refuses, and joins one at the end of a piece untested', () => {
    expect(ordered(spec, 'a@ a@- a@b')).toEqual(['0:8-9']);
    expect(ordered(spec, 'a@\u00e9')).toEqual([]); // non-ASCII is in no ASCII class
    // At the end of the piece the next character is not there yet: the hit is reported (the matcher,
    // whose text ends there too, keeps it untested as well).
    expect(ordered(spec, 'a@b a@', ' ')).toEqual(['0:1-6']);
    // A rule without a next class takes every hit.
    expect(ordered(spec, 'key key-key')).toEqual(['1:0-11']);
  });

  it('reports an open span when a hit cannot join it, and the rest at the end of each piece, in rule order', () => {
    // Rule 2 is reported at once; rule 1's first span when its next hit is too far to join, rule 0's
    // likewise; the spans still open at the end of the piece come in rule order (rule 1's opened
    // first). Spans never cross a piece.
    expect(ordered(spec, 'key a@b pw key a@b', ' pw 12345 key')).toEqual(['2:8-10', '1:0-3', '0:5-6', '0:16-17', '1:11-14', '2:19-21', '3:22-27', '1:28-31']);
    // A run's event is reported as the run ends, before the joined span it came after.
    expect(ordered(spec, 'x@1234@y key')).toEqual(['3:2-6', '0:1-7', '1:9-12']);
  });

  it('leaves the rules it does not join, and digit and token rules, as they were', () => {
    const text = 'pw pw key 12345 @x 9999 key';
    const joined = ordered(spec, text).filter((e) => !e.startsWith('0:') && !e.startsWith('1:'));
    const plain = ordered({ ...spec, joins: [] }, text).filter((e) => !e.startsWith('0:') && !e.startsWith('1:'));
    expect(joined).toEqual(plain);
    expect(joined).toEqual(['2:0-2', '2:3-5', '3:10-15', '3:19-23']);
  });

  it('refuses a malformed join', () => {
    const bad = (joins: NonNullable<PrefilterSpec['joins']>) => () => new PrefilterTables({ ...spec, joins });
    expect(bad([{ rule: 0, gap: 0, span: 10 }])).toThrow(/gap and span must be positive/);
    expect(bad([{ rule: 0, gap: 4, span: 10 }, { rule: 0, gap: 4, span: 10 }])).toThrow(/one join per rule/);
    expect(bad([{ rule: 0, gap: 4, span: 10, next: new Uint8Array(3) }])).toThrow(/128 columns/);
  });
});
});
