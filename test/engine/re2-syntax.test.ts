import { describe, expect, it } from 'vitest';
import type { CompiledPattern, PatternMatch } from '../../src/engine/backend/index.js';
import { re2NativeBackend, toRe2Syntax, v8Backend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';

/** Every match of `p` in `text`, searching on from each match's end (one past an empty one). */
function allMatches(p: CompiledPattern, text: string): PatternMatch[] {
  const out: PatternMatch[] = [];
  for (let at = 0; at <= text.length; ) {
    const m = p.exec(text, at);
    if (m === null) break;
    out.push(m);
    at = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

// JavaScript-only syntax, rewritten for RE2 (the rewrites the `re2` npm package made); the RE2
// binding must then match what V8 matches. `\\u0041` (an escaped backslash) is left alone.
const kJsSyntax: ReadonlyArray<[pattern: string, re2: string, text: string]> = [
  ['\\u0041(b)', '\\x{0041}(b)', 'xAb'],
  ['[\\u0041-\\u005A]+', '[\\x{0041}-\\x{005A}]+', 'abCDe'],
  ['\\u{1F600}+', '\\x{1F600}+', 'a😀😀b'],
  ['x\\cJy', 'x\\x0Ay', 'ax\ny'],
  ['\\p{Letter}+', '\\pL+', '12abé3'],
  ['\\P{Decimal_Number}+', '\\P{Nd}+', '12ab3'],
  ['\\p{Script=Greek}+', '\\p{Greek}+', 'aαβγb'],
  ['\\p{sc=Greek}', '\\p{Greek}', 'aαb'],
  ['\\p{Lu}', '\\p{Lu}', 'aBc'],
  ['(?<key>[a-z]+)=(?<v>\\d+)', '(?P<key>[a-z]+)=(?P<v>\\d+)', ' ab=12 '],
  ['a\\\\u0041', 'a\\\\u0041', 'a\\u0041'],
  ['\\(?<x>\\)', '\\(?<x>\\)', '(<x>)'],
];

describe('JavaScript syntax for RE2', () => {
  it.each(kJsSyntax)('%s is %s in RE2', (pattern, re2) => {
    expect(toRe2Syntax(pattern)).toBe(re2);
  });

  it('leaves every managed rule pattern as it is, and lookbehinds for RE2 to refuse', () => {
    for (const rule of allRuleDefs) expect(toRe2Syntax(rule.pattern)).toBe(rule.pattern);
    expect(toRe2Syntax('(?<=a)b(?<!c)')).toBe('(?<=a)b(?<!c)');
    expect(toRe2Syntax('\\p{constructor}')).toBe('\\p{constructor}');
  });

  it.skipIf(re2NativeBackend === null).each(kJsSyntax)('%s: the RE2 binding matches what V8 matches', (pattern, _re2, text) => {
    const group = pattern.includes('(?<key>') ? 2 : pattern.includes('(b)') ? 1 : 0;
    const want = allMatches(v8Backend.compile(pattern, false, group), text);
    expect(want.length).toBeGreaterThan(0);
    expect(allMatches(re2NativeBackend!.compile(pattern, false, group), text)).toEqual(want);
  });
});

