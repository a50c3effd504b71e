import { describe, expect, it } from 'vitest';
import { Rng } from '../../bench/prng.js';
import { kContentKinds, makeBody } from '../../bench/bodies.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { compileProgram, re2WasmBackend, scanStream, withPrefilter } from '../../src/engine/index.js';
import { nativeBinding } from '../../src/engine/native.js';
import { PrefilterTables, columnsOf, newTriggerPass, type TriggerPass } from '../../src/engine/prefilter.js';
import { utf8OffsetsJs } from '../../src/engine/text/charset.js';
import { prefilterImpls } from './helpers.js';

/**
 * Differential conformance: the native pass must report exactly the events of the TypeScript pass
 * (its specification), in the same order, for the same text however it is cut.
 */
const native = prefilterImpls().includes('native');
const all = compileProgram(allRuleDefs, re2WasmBackend);
const tables = new PrefilterTables(all.spec);

function events(pf: TriggerPass, cols: Uint8Array, cuts: number[]): number[] {
  const out: number[] = [];
  const emit = (rule: number, s: number, e: number) => out.push(rule, s, e);
  let from = 0;
  for (const to of [...cuts, cols.length]) {
    pf.scan(cols, from, to, emit);
    from = to;
  }
  pf.finish(emit);
  out.push(pf.minFutureStart());
  return out;
}

function randomCuts(rng: Rng, n: number, count: number): number[] {
  const cuts = Array.from({ length: count }, () => rng.int(0, n));
  return [...new Set(cuts)].sort((a, b) => a - b);
}

/** One round: on `text`, randomly cut, the native pass reports the TypeScript pass's events (more than `atLeast` numbers). */
function expectAgreement(t: PrefilterTables, text: string, rng: Rng, maxCuts: number, atLeast: number): void {
  const cols = columnsOf(text);
  const cuts = randomCuts(rng, cols.length, rng.int(0, maxCuts));
  const nat = events(newTriggerPass(t, 'native'), cols, cuts);
  expect(nat.length).toBeGreaterThan(atLeast);
  expect(nat).toEqual(events(newTriggerPass(t, 'js'), cols, cuts));
}

/** Text built to wake every tracker: keyword pieces, digit runs with every separator, tokens, non-ASCII. */
function nastyText(rng: Rng, n: number): string {
  const words = ['akia', 'AKIA', 'password', 'Pass', 'ghp_', 'sk_live_', 'iban', 'ssn', '@', 'K', '\u212a', 'é', '😀', 'secret_key', 'xoxb-'];
  let s = '';
  while (s.length < n) {
    const r = rng.next();
    if (r < 0.3) s += rng.pick(words);
    else if (r < 0.6) s += rng.chars('0123456789 -./', rng.int(1, 40));
    else if (r < 0.8) s += rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', rng.int(1, 60));
    else s += rng.chars(' \n\t"\'=:;,<>{}[]()', rng.int(1, 4));
  }
  return s;
}

describe.skipIf(!native)('native prefilter conformance', () => {
  it('reports the same events in the same order as the TypeScript pass on random hostile text, randomly cut', () => {
    const rng = new Rng(20261121);
    for (let round = 0; round < 60; round++) {
      const text = nastyText(rng, rng.int(1, 6000));
      const cols = columnsOf(text);
      const cuts = randomCuts(rng, cols.length, rng.int(0, 12));
      const js = events(newTriggerPass(tables, 'js'), cols, cuts);
      const nat = events(newTriggerPass(tables, 'native'), cols, cuts);
      expect(nat).toEqual(js);
    }
  });

  it('gives a later scan a released state back as new: the same events as a fresh pass, nothing of the scan before', () => {
    const own = new PrefilterTables(all.spec);
    const rng = new Rng(20261122);
    let reused = 0;
    for (let round = 0; round < 60; round++) {
      const text = nastyText(rng, rng.int(1, 4000));
      const cols = columnsOf(text);
      // Stop half-way through the text now and then: the state is released in the middle of a run,
      // a token and a context word's reach.
      const cuts = randomCuts(rng, cols.length, rng.int(0, 6));
      const spare = own.spareStates.length;
      const pass = newTriggerPass(own, 'native');
      if (spare > 0) {
        reused++;
        expect(own.spareStates.length).toBe(spare - 1);
      }
      const nat = rng.chance(0.3) ? (pass.scan(cols, 0, cuts[0] ?? cols.length, () => {}), null) : events(pass, cols, cuts);
      if (nat !== null) expect(nat).toEqual(events(newTriggerPass(own, 'js'), cols, cuts));
      pass.release!();
      expect(() => pass.finish(() => {})).toThrow(/after release/);
    }
    expect(reused).toBeGreaterThan(50);
  });

  it('agrees with more keyword states than a 16-bit pre-scaled table holds (the native pass widens it)', () => {
    // The native pass stores state × 16 in a 16-bit table of 64 column classes, up to 4,096 states
    // (with the unused rows before the keyword states); past that it converts the table to 32 bits.
    // Both widths run the same checks against the TypeScript pass.
    const rng = new Rng(20261123);
    const words = Array.from({ length: 1500 }, () => rng.chars('abcdefghijklmnopqrstuvwxyz', rng.int(4, 9)));
    const spec = { keywords: words.map((text, i) => ({ text, rule: i % 7 })), digits: [{ rule: 7, min: 6, separators: ' -' }], tokens: [{ rule: 8, min: 20, max: 40, needsDigit: true, needsLetter: true }] };
    const big = new PrefilterTables(spec);
    expect(big.delta.length / 128).toBeGreaterThan(4096);
    for (let round = 0; round < 30; round++) {
      let text = '';
      while (text.length < 4000) {
        const r = rng.next();
        if (r < 0.4) text += rng.pick(words);
        else if (r < 0.6) text += rng.chars('abcdefghijklmnopqrstuvwxyz', rng.int(1, 30));
        else if (r < 0.8) text += rng.chars('0123456789abcdef -', rng.int(1, 40));
        else text += rng.chars(' .,:=', rng.int(1, 3));
      }
      expectAgreement(big, text, rng, 10, 100);
    }
  });

  it('agrees when the keywords hold more than 64 distinct characters (the native pass keeps rows of all 128 columns)', () => {
    // The native table's columns are classes of bytes every state moves alike on: 64 of them when the
    // keywords tell at most that many apart, else the 128 column bytes themselves.
    const printable = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i));
    const keywords = printable.map((c, i) => ({ text: `q${c}z`, rule: i % 5 }));
    expect(new Set(keywords.map((k) => k.text.toLowerCase()[1])).size).toBeGreaterThan(64);
    const spec = { keywords, digits: [{ rule: 5, min: 6, separators: ' -.' }], tokens: [{ rule: 6, min: 8, max: 40, needsDigit: true, needsLetter: false }] };
    const wide = new PrefilterTables(spec);
    const rng = new Rng(20261129);
    for (let round = 0; round < 20; round++) {
      let text = '';
      while (text.length < 3000) text += rng.next() < 0.3 ? `q${rng.pick(printable)}z` : rng.chars(`${printable.join('')}  0123456789é\u212a`, rng.int(1, 50));
      expectAgreement(wide, text, rng, 8, 30);
    }
  });

  it('agrees across the edges of the native pass\'s 64-character blocks: runs, tokens, keywords, bytes of no keyword, non-ASCII', () => {
    // The native pass steps through up to 64 characters at a time, settling runs and tokens from
    // masks, and walks a block as two chains when a byte of no keyword sits near its middle. Lengths
    // around 16, 32 and 64, separators and run ends at every offset of a block (the cuts move the
    // blocks), keywords anywhere in one, and column bytes past ASCII must change nothing.
    const rng = new Rng(20261130);
    const lengths = [1, 2, 5, 6, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 62, 63, 64, 65, 66, 127, 128, 129, 250, 255, 256, 257];
    const noKeyword = [',', '{', '}', '[', ']', '!', '\n', '5', '6', '7', '>', '|'];
    for (let round = 0; round < 60; round++) {
      let text = '';
      while (text.length < 4000) {
        const r = rng.next();
        const n = rng.pick(lengths);
        if (r < 0.2) text += rng.chars('0123456789', n);
        else if (r < 0.4) {
          // A run of groups with separators, sometimes a trailing or doubled one.
          let run = rng.chars('0123456789', rng.int(1, 5));
          while (run.length < n) run += rng.pick([' ', '-', '.', '+']) + rng.chars('0123456789', rng.int(1, 6));
          text += run + rng.pick(['', ' ', '-', '--', '. ', 'x', 'é']);
        } else if (r < 0.55) text += rng.chars('abcdef0123456789', n);
        else if (r < 0.65) text += rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', n);
        else if (r < 0.75) text += rng.pick(['password', 'akia', 'AKIA', '@', 'iban', 'ssn', 'secret_key']);
        else if (r < 0.85) text += rng.pick(noKeyword).repeat(rng.int(1, 3));
        else if (r < 0.92) text += rng.pick(['é', '\u212a', '😀', 'Ł', 'ü']);
        else text += rng.chars(' \t"\'=:;/', rng.int(1, 3));
      }
      const cols = columnsOf(text);
      const cuts = [...new Set([...randomCuts(rng, cols.length, rng.int(0, 8)), ...Array.from({ length: rng.int(0, 6) }, () => 64 * rng.int(1, 60) + rng.int(-2, 2))])]
        .filter((c) => c > 0 && c < cols.length)
        .sort((a, b) => a - b);
      expect(events(newTriggerPass(tables, 'native'), cols, cuts)).toEqual(events(newTriggerPass(tables, 'js'), cols, cuts));
    }
  });

  it('agrees when separators are letters or digits (the blocks then read each character\'s kind from a table)', () => {
    // A separator that is also a letter or digit is neither in the one-by-one pass: the native blocks
    // tell kinds 16 bytes at a time only when no separator is one.
    const spec = {
      keywords: [{ text: 'key', rule: 0 }],
      digits: [{ rule: 1, min: 6, separators: ' x' }, { rule: 2, min: 4, separators: '-7' }],
      tokens: [{ rule: 3, min: 8, max: 40, needsDigit: true, needsLetter: false }],
    };
    const odd = new PrefilterTables(spec);
    const rng = new Rng(20261131);
    for (let round = 0; round < 30; round++) expectAgreement(odd, rng.chars('0123456789x7- abkey.é', 3000), rng, 6, 30);
  });

  it('agrees when one run wakes more digit rules than an entry of the native run cache holds', () => {
    // The cache keeps up to 39 rules per look; a look that wakes more is worked out each time.
    const digits = Array.from({ length: 45 }, (_, i) => ({ rule: i, min: 6 + (i % 4), separators: ' -' }));
    const many = new PrefilterTables({ keywords: [{ text: 'id', rule: 45 }], digits, tokens: [] });
    const rng = new Rng(20261132);
    for (let round = 0; round < 20; round++) {
      let text = '';
      while (text.length < 3000) text += rng.pick(['', 'id ', 'a', '-']) + rng.chars('0123456789', rng.int(3, 12)) + rng.pick([' ', '-', 'x', ' 12 ']);
      expectAgreement(many, text, rng, 6, 3 * 40);
    }
  });

  it('agrees on long stretches of letters and digits: hex ids, keywords inside them, runs past 256 digits', () => {
    // The native pass takes up to 64 letters and digits at once; a keyword state inside, or a run
    // reaching the 256-character span, sends the stretch back one character at a time.
    const rng = new Rng(20261122);
    for (let round = 0; round < 80; round++) {
      let text = '';
      while (text.length < 3000) {
        const r = rng.next();
        if (r < 0.35) text += rng.chars('0123456789abcdef', rng.int(1, 140));
        else if (r < 0.5) text += rng.chars('0123456789', rng.int(1, 700));
        else if (r < 0.6) text += rng.pick(['AKIA', 'password', 'ghp_', 'iban', 'ssn', 'K', '\u212a', 'é']);
        else if (r < 0.75) text += rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', rng.int(1, 90));
        else text += rng.chars(' -./:=', rng.int(1, 3));
      }
      const cols = columnsOf(text);
      const cuts = randomCuts(rng, cols.length, rng.int(0, 20));
      expect(events(newTriggerPass(tables, 'native'), cols, cuts)).toEqual(events(newTriggerPass(tables, 'js'), cols, cuts));
    }
  });

  it('agrees when the same digit runs come back with other neighbours (the native pass caches a run\'s shapes by its look)', () => {
    // The same numbers, again and again, each time with other characters before and after: a look
    // cached for one must never answer for another whose neighbours a shape tells apart.
    const rng = new Rng(20261123);
    const runs = ['123456', '1234 5678', '12345678', '123-45-6789', '4111 1111 1111 1111', '756.1234.5678.97', '010190', '1234567', '12.345.678'];
    const around = ['', ' ', 'QQ ', 'aQ ', 'Q ', 'ab ', 'X', 'x', '-', 'A', 'e', '(', 'GB29 ', 'ts=', '\n', 'é', 'K'];
    for (let round = 0; round < 20; round++) {
      let text = '';
      while (text.length < 4000) text += rng.pick(around) + rng.pick(runs) + rng.pick(around) + rng.pick([' ', '\n', '"', ';']);
      const cols = columnsOf(text);
      const cuts = randomCuts(rng, cols.length, rng.int(0, 6));
      expect(events(newTriggerPass(tables, 'native'), cols, cuts)).toEqual(events(newTriggerPass(tables, 'js'), cols, cuts));
    }
  });

  it('agrees on the bench bodies of every content type', () => {
    for (const kind of kContentKinds) {
      for (const density of ['sparse', 'dense'] as const) {
        const cols = columnsOf(makeBody(kind, density, '128KB').bytes.toString('utf8'));
        const cuts = Array.from({ length: Math.floor(cols.length / 65536) }, (_, i) => (i + 1) * 65536);
        const js = events(newTriggerPass(tables, 'js'), cols, cuts);
        expect(js.length).toBeGreaterThan(3 * 100);
        expect(events(newTriggerPass(tables, 'native'), cols, cuts)).toEqual(js);
      }
    }
  });

  it('resumes where a full event buffer stopped it, losing and repeating nothing', () => {
    // 30,000 keyword hits in one call: more than one call's event buffer holds (hits reported one by
    // one: the rules' joins are left out of these tables).
    const unjoined = new PrefilterTables({ ...all.spec, joins: [] });
    const text = 'akia password '.repeat(15000);
    const cols = columnsOf(text);
    const js = events(newTriggerPass(unjoined, 'js'), cols, []);
    expect(js.length).toBeGreaterThan(3 * 30000);
    expect(events(newTriggerPass(unjoined, 'native'), cols, [])).toEqual(js);
    // Joined, the same hits are a few hundred spans, the same from both passes.
    const joined = events(newTriggerPass(tables, 'js'), cols, []);
    expect(joined.length).toBeLessThan(js.length / 20);
    expect(events(newTriggerPass(tables, 'native'), cols, [])).toEqual(joined);
    // A long digit run cut into pieces fires every digit rule per piece.
    const run = columnsOf('1234 '.repeat(40000));
    expect(events(newTriggerPass(tables, 'native'), run, [77777])).toEqual(events(newTriggerPass(tables, 'js'), run, [77777]));
  });

  it('reports a piece\'s open joined spans after its last events, with calls stopping early for room', () => {
    const binding = nativeBinding()!;
    const rng = new Rng(20261123);
    // The smallest buffer a call takes: the most events one character can report, one open span per
    // joined rule, and one more. Calls then stop every few events, and a piece's open spans must
    // still all go out with its last call (the room a call keeps for them).
    const most = (from: Int32Array) => Math.max(0, ...Array.from({ length: from.length - 1 }, (_, i) => from[i + 1]! - from[i]!));
    const joined = tables.joinGap.filter((g) => g > 0).length;
    expect(joined).toBeGreaterThan(5);
    const out = new Float64Array(3 * (most(tables.outStart) + tables.digitRule.length + most(tables.tokFrom) + joined + 1));
    const meta = new Float64Array(2);
    for (let round = 0; round < 30; round++) {
      // Pieces that end just after a long digit run (every digit rule may fire on its last character),
      // with keyword hits of joined rules open before it; then random text, randomly cut.
      let text = '';
      const ends: number[] = [];
      for (let k = rng.int(1, 6); k > 0; k--) {
        text += `password x@y.example ghp_ ${rng.chars('0123456789', 4)} ${rng.chars('0123456789', 4)}-${rng.chars('0123456789', 8)} 4111 1111 1111 1111,`;
        ends.push(text.length);
      }
      text += nastyText(rng, rng.int(1, 2000));
      const cols = columnsOf(text);
      const cuts = [...new Set([...randomCuts(rng, cols.length, rng.int(0, 4)), ...ends])].filter((c) => c > 0 && c < cols.length).sort((a, b) => a - b);
      const state = binding.state(tables.nativeTables(binding));
      const got: number[] = [];
      const take = (n: number) => {
        for (let k = 0; k < 3 * n; k++) got.push(out[k]!);
      };
      let from = 0;
      for (const to of [...cuts, cols.length]) {
        for (let i = from; i < to; i = meta[0]!) take(binding.scan(state, cols, i, to, out, meta));
        from = to;
      }
      take(binding.finish(state, out, meta));
      got.push(meta[1]!);
      expect(got).toEqual(events(newTriggerPass(tables, 'js'), cols, cuts));
    }
    // One call short of that room is refused, not overflowed.
    const state = binding.state(tables.nativeTables(binding));
    expect(() => binding.scan(state, columnsOf('x'), 0, 1, out.subarray(0, out.length - 3), meta)).toThrow(/event buffer too small/);
  });

  it('gives the same findings through the whole engine', async () => {
    const jsProgram = withPrefilter(all, 'js');
    const natProgram = withPrefilter(all, 'native');
    for (const kind of kContentKinds) {
      const body = makeBody(kind, 'dense', '16KB');
      const meta = { contentType: body.contentType };
      const a = await scanStream(jsProgram, [body.bytes], meta);
      const b = await scanStream(natProgram, [body.bytes], meta);
      expect(a.findings.length).toBeGreaterThan(10);
      expect(b.findings).toEqual(a.findings);
    }
  });

  it('computes the UTF-8 decoder\'s per-character offsets and non-ASCII units exactly as the TypeScript loop does', () => {
    const binding = nativeBinding()!;
    const rng = new Rng(7);
    // Runs of 7-17 ASCII bytes too: the native loop takes eight at a time.
    const pieces = ['a', 'Z', '0', ' ', 'é', 'ß', '€', '中', '😀', '𝔸', '\u212a', '\n', 'seven77', 'eight888', 'seventeen 17 byte'];
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let k = rng.int(0, 300); k > 0; k--) text += rng.pick(pieces);
      const bytes = Buffer.from(text, 'utf8');
      const base = rng.int(0, 1 << 20);
      // The room the native pass asks for: a slot per byte plus one, half as many plus two.
      const [js, nat] = [new Int32Array(bytes.length + 1), new Int32Array(bytes.length + 1)];
      const [jsWide, natWide] = [new Int32Array((bytes.length >> 1) + 2), new Int32Array((bytes.length >> 1) + 2)];
      // The reference: the decoded text's own code units, and where each character's bytes start.
      const wide: number[] = [];
      const offsets: number[] = [];
      for (let i = 0, at = base; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) wide.push(i);
        offsets.push(at);
        const cp = text.codePointAt(i)!;
        if (cp >= 0x10000) {
          offsets.push(at);
          wide.push(++i);
        }
        at += Buffer.byteLength(String.fromCodePoint(cp), 'utf8');
      }
      expect(utf8OffsetsJs(bytes, base, js, jsWide)).toBe(wide.length);
      expect(binding.utf8Offsets(bytes, base, nat, natWide)).toBe(wide.length);
      expect(Array.from(js.subarray(0, text.length))).toEqual(offsets);
      expect(Array.from(nat.subarray(0, text.length))).toEqual(offsets);
      expect(Array.from(jsWide.subarray(0, wide.length))).toEqual(wide);
      expect(Array.from(natWide.subarray(0, wide.length))).toEqual(wide);
    }
    // Past 2^31 both store what an Int32Array stores (no guard needed in front of either).
    const big = Buffer.from('aé😀b', 'utf8');
    const [js, nat] = [new Int32Array(big.length + 1), new Int32Array(big.length + 1)];
    utf8OffsetsJs(big, 0x7ffffffd, js, new Int32Array(6));
    binding.utf8Offsets(big, 0x7ffffffd, nat, new Int32Array(6));
    expect(nat.subarray(0, 5)).toEqual(js.subarray(0, 5));
    // Less room than that is refused before any write, whatever the text needs.
    expect(() => binding.utf8Offsets(Buffer.from('abcd'), 0, new Int32Array(4), new Int32Array(4))).toThrow(/too small/);
    expect(() => binding.utf8Offsets(Buffer.from('abcd'), 0, new Int32Array(5), new Int32Array(3))).toThrow(/too small/);
    expect(binding.utf8Offsets(Buffer.from('abcd'), 0, new Int32Array(5), new Int32Array(4))).toBe(0);
  });

  it('decodes valid UTF-8 to the string Buffer#toString gives (Latin-1 or UTF-16, any length)', () => {
    const binding = nativeBinding()!;
    const rng = new Rng(11);
    const latin = ['a', ' ', 'é', 'ß', 'ÿ', '\u0080', 'ascii run of bytes '];
    const any = [...latin, '€', '中', '😀', '𝔸', '\u212a', '\uffff', '\u0100'];
    for (let round = 0; round < 300; round++) {
      const pieces = round % 2 === 0 ? latin : any;
      let text = '';
      for (let k = rng.int(0, 200); k > 0; k--) text += rng.pick(pieces);
      const bytes = Buffer.from(text, 'utf8');
      const got = binding.utf8Text(bytes);
      expect(got).toBe(text);
      expect(got).toBe(bytes.toString('utf8'));
    }
    expect(binding.utf8Text(new Uint8Array(0))).toBe('');
    // Invalid input (never passed by the engine) gives some string, without reading past the bytes.
    expect(typeof binding.utf8Text(Buffer.from([0x61, 0xf0, 0x9f]))).toBe('string');
  });

  it('refuses bad arguments with a clear error instead of reading out of bounds', () => {
    const binding = nativeBinding()!;
    const state = binding.state(tables.nativeTables(binding));
    const cols = new Uint8Array(10);
    const meta = new Float64Array(2);
    expect(() => binding.scan(state, cols, 0, 11, new Float64Array(30000), meta)).toThrow(/outside the column bytes/);
    expect(() => binding.scan(state, cols, 5, 4, new Float64Array(30000), meta)).toThrow(/outside the column bytes/);
    expect(() => binding.scan(state, cols, 0, 10, new Float64Array(3), meta)).toThrow(/event buffer too small/);
    expect(() => binding.scan(state, 'text' as unknown as Uint8Array, 0, 1, new Float64Array(30000), meta)).toThrow(TypeError);
    expect(() => binding.scan({}, cols, 0, 1, new Float64Array(30000), meta)).toThrow(TypeError);
    // A handle of the wrong kind is refused, not reinterpreted.
    expect(() => binding.scan(tables.nativeTables(binding), cols, 0, 1, new Float64Array(30000), meta)).toThrow(/expected a state handle/);
    expect(() => binding.state(state)).toThrow(/expected a tables handle/);
    expect(() => binding.finish(tables.nativeTables(binding), new Float64Array(30000), meta)).toThrow(/expected a state handle/);
    expect(() => binding.tables({} as never)).toThrow(TypeError);
  });

  it('refuses tables whose indices point outside their arrays', () => {
    const binding = nativeBinding()!;
    const spec = { ...tables };
    expect(binding.tables(spec)).toBeTypeOf('object');
    const bad = (patch: object) => () => binding.tables({ ...spec, ...patch });
    const delta = spec.delta.slice();
    delta[5] = spec.depth.length; // a transition to a state that does not exist
    expect(bad({ delta })).toThrow(/malformed prefilter tables/);
    const outRule = spec.outRule.slice();
    outRule[0] = 2 * spec.ruleCount; // neither a rule nor a rule's context word
    expect(bad({ outRule })).toThrow(/malformed prefilter tables/);
    expect(bad({ ctxWithin: new Float64Array(spec.ruleCount - 1) })).toThrow(/malformed prefilter tables/);
    expect(bad({ ctxWithin: spec.ctxWithin.map((w, i) => (i === 0 ? Number.NaN : w)) })).toThrow(/malformed prefilter tables/);
    expect(bad({ tokFrom: spec.tokFrom.subarray(1) })).toThrow(/malformed prefilter tables/);
    expect(bad({ setIdx: spec.setIdx.map(() => spec.digitRule.length) })).toThrow(/malformed prefilter tables/);
    expect(bad({ firstOut: 0 })).toThrow(/malformed prefilter tables/); // states without outputs would report
    expect(bad({ digitGroups: new Int32Array(4 * spec.digitRule.length - 1) })).toThrow(/malformed prefilter tables/);
    expect(bad({ digitSideSets: spec.digitSideSets.subarray(1) })).toThrow(/malformed prefilter tables/);
    expect(bad({ digitSides: spec.digitSides.subarray(1) })).toThrow(/malformed prefilter tables/);
  });
});
