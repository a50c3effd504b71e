import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { makeBody } from '../../bench/bodies.js';
import type { PatternMatch } from '../../src/engine/backend/index.js';
import { re2Binding, re2NativeBackend, re2PackageBackend, type RegexBackend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';

// The lean RE2 binding (native/re2/re2-binding.cc) against the re2 package's exec, the reference: same
// RE2, so every search over bytes must give the same match and group, from any start.

const require = createRequire(import.meta.url);

/** In CI the binding must be built whenever the package is (npm ci builds both): no silent fallback. */
it('is built wherever the re2 package is (required in CI)', () => {
  if (re2Binding === 'package' && !process.env.CI) console.warn('lean re2 binding not built: its conformance run is skipped');
  if (process.env.CI && re2Binding !== null) expect(re2Binding).toBe('lean');
});

/** Every match of `backend`'s pattern in `bytes`, searching on from each match's end (one byte past an empty one). */
function allMatches(backend: RegexBackend, pattern: string, ignoreCase: boolean, group: number, bytes: Uint8Array, from = 0): PatternMatch[] {
  const p = backend.compile(pattern, ignoreCase, group);
  const out: PatternMatch[] = [];
  for (let at = from; at <= bytes.length; ) {
    const m = p.execBytes!(bytes, at);
    if (m === null) break;
    out.push(m);
    at = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

describe.skipIf(re2Binding !== 'lean')('lean re2 binding', () => {
  const lean = re2NativeBackend!;
  const pkg = re2PackageBackend!;

  it('is a different search path from the package reference', () => {
    expect(lean).not.toBe(pkg);
  });

  // Dense bench bodies (a finding every ~250 bytes) of each content kind, and every rule's examples.
  const bodies = (['text', 'html', 'json', 'xml'] as const).map((k) => makeBody(k, 'dense', '16KB').bytes);
  const examples = Buffer.from(allRuleDefs.flatMap((r) => [...r.examples.positive, ...r.examples.negative].map((e) => e.text)).join('\n'));

  it.each(allRuleDefs.map((r) => [r.id, r] as const))('%s: same matches and groups as the package', (_id, rule) => {
    const ignoreCase = rule.ignoreCase === true;
    const group = rule.group ?? 0;
    let found = 0;
    for (const bytes of [examples, ...bodies]) {
      const want = allMatches(pkg, rule.pattern, ignoreCase, group, bytes);
      expect(allMatches(lean, rule.pattern, ignoreCase, group, bytes)).toEqual(want);
      found += want.length;
    }
    // Not a comparison of two empty lists: every rule's pattern matches its own positive examples.
    expect(found).toBeGreaterThan(0);
  });

  it('starts where it is told, with the text before as context (^, \\b), and at any byte offset', () => {
    const bytes = Buffer.from('xx ab ab é😀ab');
    for (const [pattern, group] of [['\\bab', 0], ['^ab', 0], ['(a)(b)', 2], ['(?:é|x)(😀)?ab', 1]] as const) {
      for (let from = 0; from <= bytes.length + 1; from++) {
        expect(allMatches(lean, pattern, false, group, bytes, from)).toEqual(allMatches(pkg, pattern, false, group, bytes, from));
      }
    }
    expect(lean.compile('ab', false, 0).execBytes!(bytes, 4)).toEqual({ start: 6, end: 8, groupStart: 6, groupEnd: 8 });
    expect(lean.compile('^ab', false, 0).execBytes!(bytes, 3)).toBeNull();
  });

  it('folds case for ignoreCase, and a group that took no part is no match (as the package)', () => {
    const bytes = Buffer.from('KEY=Abc');
    expect(lean.compile('key=(abc)', true, 1).execBytes!(bytes, 0)).toEqual({ start: 0, end: 7, groupStart: 4, groupEnd: 7 });
    expect(lean.compile('key=(abc)', false, 1).execBytes!(bytes, 0)).toBeNull();
    const alt = Buffer.from('b');
    expect(lean.compile('(a)|b', false, 1).execBytes!(alt, 0)).toBeNull();
    expect(pkg.compile('(a)|b', false, 1).execBytes!(alt, 0)).toBeNull();
  });

  it('searches over any Uint8Array view, not only Buffers', () => {
    const backing = new Uint8Array(Buffer.from('zzz key=abc zzz'));
    const view = backing.subarray(4, 11);
    expect(lean.compile('key=([a-z]+)', false, 1).execBytes!(view, 0)).toEqual({ start: 0, end: 7, groupStart: 4, groupEnd: 7 });
  });

  it('strings still go through the package (UTF-16 offsets)', () => {
    expect(lean.compile('a(b+)', false, 1).exec('é😀😀xxabbb', 0)).toEqual({ start: 7, end: 11, groupStart: 8, groupEnd: 11 });
  });

  it('rejects bad patterns and arguments with coded errors', () => {
    const binding = require('../../native/re2/build/Release/leakscan_re2.node') as {
      compile(p: string, i: boolean, g: number): object;
      exec(p: unknown, b: unknown, f: number, o: unknown): boolean;
    };
    expect(() => binding.compile('a(b', false, 0)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_SYNTAX', message: expect.stringContaining('missing )') }));
    expect(() => binding.compile('a(b)', false, 2)).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_GROUP' }));
    const p = binding.compile('ab', false, 0);
    expect(() => binding.exec({}, Buffer.from('ab'), 0, new Int32Array(4))).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => binding.exec(p, 'ab', 0, new Int32Array(4))).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(() => binding.exec(p, Buffer.from('ab'), 0, new Int32Array(3))).toThrow(expect.objectContaining({ code: 'LEAKSCAN_RE2_ARGS' }));
    expect(binding.exec(p, Buffer.from('ab'), 3, new Int32Array(4))).toBe(false);
    expect(binding.exec(p, Buffer.from('ab'), -1, new Int32Array(4))).toBe(false);
  });

  // The re2 package's copy of RE2 and Abseil lives in the same process. Template statics exported as
  // GNU unique symbols bind process-wide even between addons loaded RTLD_LOCAL: the binding's DFA state
  // sets then ran on the package's copies of their functions (a pattern searched 4x slower, and two
  // builds' code mixed). Built with hidden visibility and -fno-gnu-unique, it shares nothing.
  it.skipIf(process.platform !== 'linux' || spawnSync('nm', ['--version']).status !== 0)('exports no RE2, Abseil or GNU-unique symbol that the package could share', () => {
    const file = require.resolve('../../native/re2/build/Release/leakscan_re2.node');
    const out = spawnSync('nm', ['-D', '--defined-only', file], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const symbols = out.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    expect(symbols.map((s) => s[2])).toContain('napi_register_module_v1');
    expect(symbols.filter((s) => s[1] === 'u').map((s) => s[2])).toEqual([]);
    // RE2 marks its Parse<T> helpers for export (plain functions, bound by name only on request).
    const shared = symbols.map((s) => s[2] ?? '').filter((name) => /absl|_ZN3re2/.test(name) && !name.startsWith('_ZN3re212re2_internal5Parse'));
    expect(shared).toEqual([]);
  });

  it('falls back to the package for JavaScript-only syntax it would rewrite', () => {
    // `\u0041` is JavaScript syntax RE2 does not read; the package rewrites it to `\x{0041}`.
    const p = lean.compile('\\u0041(b)', false, 1);
    expect(p.execBytes!(Buffer.from('xAb'), 0)).toEqual({ start: 1, end: 3, groupStart: 2, groupEnd: 3 });
  });
});
