import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { makeBody } from '../../bench/bodies.js';
import type { CompiledPattern, PatternMatch } from '../../src/engine/backend/index.js';
import { re2NativeBackend, re2Status, re2WasmBackend, v8Backend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { columnsSpecial } from '../../src/engine/backend/index.js';
import { columnsOf } from '../../src/engine/prefilter.js';
import { sh } from '../serve/helpers.js';

// The RE2 binding (native/re2/re2-binding.cc over the system RE2) against independent
// implementations: re2-wasm (another build of RE2) for every rule's matches, V8 for UTF-16 positions
// in strings (test/engine/re2-syntax.test.ts holds it to V8 on the JavaScript syntax it rewrites).

const require = createRequire(import.meta.url);

/** In CI the binding must be built wherever pkg-config finds the system RE2 (.ci/run installs it). */
it('is built wherever the system RE2 is (required in CI)', async () => {
  if (!process.env.CI) {
    if (re2NativeBackend === null) console.warn(`native RE2 not in use (${re2Status.unavailable}): its conformance run is skipped`);
    return;
  }
  const found = await sh('pkg-config --exists re2', { timeoutMs: 10_000 }).catch(() => ({ code: 1 }));
  if (found.code === 0) expect(re2Status.unavailable).toBeNull();
});

/** Every match of `p` in `text` through `exec`, searching on from each match's end (one past an empty one). */
function allMatches(p: CompiledPattern, text: string, from = 0): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (let at = from; at <= text.length; ) {
    const m = p.exec(text, at);
    if (m === null) break;
    out.push(m);
    at = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

/** The same through `execBytes` over the text's UTF-8, positions converted to UTF-16 code units. */
function allMatchesOverBytes(p: CompiledPattern, text: string): PatternMatch[] {
  const bytes = Buffer.from(text, 'utf8');
  const unit = (b: number) => bytes.subarray(0, b).toString('utf8').length;
  const out: PatternMatch[] = [];
  for (let at = 0; at <= bytes.length; ) {
    const m = p.execBytes!(bytes, at);
    if (m === null) break;
    out.push({ start: unit(m.start), end: unit(m.end), groupStart: unit(m.groupStart), groupEnd: unit(m.groupEnd) });
    at = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

/**
 * The same through `execColumns` over the text's column bytes (one per code unit), whose positions are
 * the text's own.
 */
function allMatchesOverColumns(p: CompiledPattern, text: string): PatternMatch[] {
  const cols = columnsOf(text);
  const out: PatternMatch[] = [];
  for (let at = 0; at <= cols.length; ) {
    const m = p.execColumns!(cols, at);
    if (m === null) break;
    out.push(m);
    at = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

/** True when column bytes stand for every character of `text` (see `columnsSpecial`). */
function columnsFaithful(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (columnsSpecial(text.charCodeAt(i))) return false;
  return true;
}

describe.skipIf(re2NativeBackend === null)('RE2 binding', () => {
  const native = re2NativeBackend!;

  // Dense bench bodies (a finding every ~250 bytes) of each content kind, and every rule's examples.
  // The first 2,000 characters of each: re2-wasm copies the whole text into its heap on every call.
  const bodies = (['text', 'html', 'json', 'xml'] as const).map((k) => Buffer.from(makeBody(k, 'dense', '16KB').bytes).toString('utf8').slice(0, 2000));
  // Each example on its own (short texts: re2-wasm's cost per call grows with the text).
  const examples = allRuleDefs.flatMap((r) => [...r.examples.positive, ...r.examples.negative].map((e) => e.text));

  it.each(allRuleDefs.map((r) => [r.id, r] as const))('%s: same matches and groups as re2-wasm, over strings and bytes', (_id, rule) => {
    const ignoreCase = rule.ignoreCase === true;
    const group = rule.group ?? 0;
    const p = native.compile(rule.pattern, ignoreCase, group);
    const wasm = re2WasmBackend.compile(rule.pattern, ignoreCase, group);
    let found = 0;
    for (const text of [...examples, ...bodies]) {
      const want = allMatches(wasm, text);
      expect(allMatches(p, text)).toEqual(want);
      expect(allMatchesOverBytes(p, text)).toEqual(want);
      if (p.execColumns !== undefined && columnsFaithful(text)) expect(allMatchesOverColumns(p, text)).toEqual(want);
      found += want.length;
    }
    // Not a comparison of two empty lists: every rule's pattern matches its own positive examples.
    expect(found).toBeGreaterThan(0);
  });

  it('reads column bytes for the patterns that treat every non-ASCII character alike', () => {
    // Most rules do (the per-rule comparison above then covers execColumns); one that names a
    // non-ASCII character, a Unicode class or a byte does not.
    const reading = allRuleDefs.filter((r) => native.compile(r.pattern, r.ignoreCase === true, r.group ?? 0).execColumns !== undefined);
    expect(reading.length).toBeGreaterThan(allRuleDefs.length / 2);
    for (const pattern of ['é', '\\x{e9}', '\\xe9', '\\351', '\\pL', '\\p{Greek}', '\\PN', '\\C', '[^\\x{80}-\\x{10FFFF}]', '\\u00e9']) {
      expect(native.compile(pattern, false, 0).execColumns, pattern).toBeUndefined();
    }
    for (const pattern of ['\\x60', '\\x{7f}', '\\177', '\\\\p', '[^"<>]{2,}', '(?i)key', '\\S+']) {
      expect(native.compile(pattern, false, 0).execColumns, pattern).toBeDefined();
    }
    // Each non-ASCII character is one column byte that no ASCII class takes and every negated one does.
    const text = 'xé\u00a0中ab KEY';
    const m = native.compile('([^a-z]+)ab\\s*(key)', true, 2).execColumns!(columnsOf(text), 0);
    expect(m).toEqual({ start: 1, end: 10, groupStart: 7, groupEnd: 10 });
    expect(native.compile('[a-z]|\\s', true, 0).execColumns!(columnsOf('é中\u00a0'), 0)).toBeNull();
  });

  it('starts where it is told, with the text before as context (^, \\b), at any offset', () => {
    const text = 'xx ab ab é😀ab\u212a';
    const bytes = Buffer.from(text);
    for (const [pattern, group] of [['\\bab', 0], ['^ab', 0], ['(a)(b)', 2], ['(?:é|x)(😀)?ab', 1], ['.', 0], ['[^a]+', 0]] as const) {
      const p = native.compile(pattern, false, group);
      const v8 = v8Backend.compile(pattern, false, group);
      for (let from = 0; from <= text.length + 1; from++) {
        // Between the halves of 😀 the search starts after it (V8 would back up to the pair instead).
        const at = text.charCodeAt(from - 1) >= 0xd800 && text.charCodeAt(from - 1) <= 0xdbff ? from + 1 : from;
        expect(p.exec(text, from)).toEqual(at > text.length ? null : v8.exec(text, at));
      }
    }
    expect(native.compile('ab', false, 0).execBytes!(bytes, 4)).toEqual({ start: 6, end: 8, groupStart: 6, groupEnd: 8 });
    expect(native.compile('^ab', false, 0).execBytes!(bytes, 3)).toBeNull();
    expect(native.compile('b', false, 0).exec('a😀b', 2)).toEqual({ start: 3, end: 4, groupStart: 3, groupEnd: 4 });
  });

  it('reads a lone surrogate as U+FFFD, one code unit, as the matcher encodes a window', () => {
    for (const text of ['a\ud800b', 'a\udc00b', '\udc00😀\ud800', 'é\ud83dx']) {
      for (const pattern of ['.', '[^a]', '\\x{FFFD}(.)', 'b|x']) {
        const p = native.compile(pattern, false, pattern.includes('(') ? 1 : 0);
        expect(allMatches(p, text)).toEqual(allMatchesOverBytes(p, text));
      }
    }
    expect(native.compile('\\x{FFFD}', false, 0).exec('ab\ud800c', 0)).toEqual({ start: 2, end: 3, groupStart: 2, groupEnd: 3 });
  });

  it('folds case for ignoreCase, and a group that took no part is no match', () => {
    const text = 'KEY=Abc';
    expect(native.compile('key=(abc)', true, 1).execBytes!(Buffer.from(text), 0)).toEqual({ start: 0, end: 7, groupStart: 4, groupEnd: 7 });
    expect(native.compile('key=(abc)', false, 1).exec(text, 0)).toBeNull();
    expect(native.compile('(a)|b', false, 1).execBytes!(Buffer.from('b'), 0)).toBeNull();
    expect(native.compile('(a)|b', false, 1).exec('b', 0)).toBeNull();
  });

  it('searches over any Uint8Array view, not only Buffers', () => {
    const backing = new Uint8Array(Buffer.from('zzz key=abc zzz'));
    const view = backing.subarray(4, 11);
    expect(native.compile('key=([a-z]+)', false, 1).execBytes!(view, 0)).toEqual({ start: 0, end: 7, groupStart: 4, groupEnd: 7 });
  });

  it('rejects bad patterns and arguments with coded errors', () => {
    const binding = require('../../native/re2/build/Release/leakscan_re2.node') as {
      compile(p: string, i: boolean, g: number): object;
      exec(p: unknown, b: unknown, f: number, o: unknown): boolean;
      execString(p: unknown, t: unknown, f: number, o: unknown): boolean;
    };
    expect(() => binding.compile('a(b', false, 0)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_SYNTAX', message: expect.stringContaining('missing )') }));
    expect(() => binding.compile('a(b)', false, 2)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_GROUP' }));
    const p = binding.compile('ab', false, 0);
    const out = new Int32Array(4);
    expect(() => binding.exec({}, Buffer.from('ab'), 0, out)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => binding.exec(p, 'ab', 0, out)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => binding.exec(p, Buffer.from('ab'), 0, new Int32Array(3))).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => binding.execString(p, Buffer.from('ab'), 0, out)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => (binding.execString as (...a: unknown[]) => boolean)(p, 'ab', 0)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(binding.exec(p, Buffer.from('ab'), 3, out)).toBe(false);
    expect(binding.exec(p, Buffer.from('ab'), -1, out)).toBe(false);
    expect(binding.execString(p, 'ab', 3, out)).toBe(false);
    expect(binding.execString(p, 'ab', -1, out)).toBe(false);
  });
});

describe('a pattern RE2 refuses', () => {
  it.skipIf(re2NativeBackend === null)('throws with RE2 message for lookarounds and backreferences', () => {
    for (const pattern of ['(?=a)', '(?<=a)b', '(a)\\1']) expect(() => re2NativeBackend!.compile(pattern, false, 0)).toThrow();
  });
});
