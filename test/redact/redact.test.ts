import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { redact, type RedactionPolicy } from '../../src/redact/index.js';

/** The mask written over an array of code points, as the definition reads: the oracle for `redact`. */
function byCodePoints(value: string, policy: Extract<RedactionPolicy, { kind: 'mask' }>): string {
  const chars = Array.from(value);
  const keep = Math.min(policy.keep, Math.floor(chars.length / 4));
  const hidden = chars.length - keep;
  const mask = hidden > 16 ? `${'*'.repeat(16)}[+${hidden - 16}]` : '*'.repeat(hidden);
  const kept = chars.slice(policy.fromEnd ? chars.length - keep : 0, policy.fromEnd ? chars.length : keep).join('');
  return policy.fromEnd ? mask + kept : kept + mask;
}

describe('redact', () => {
  it('masks the documented examples', () => {
    expect(redact('4111 1111 1111 1111')).toBe('***************1111');
    expect(redact('abc')).toBe('***');
    expect(redact('x'.repeat(40))).toBe(`${'*'.repeat(16)}[+20]xxxx`);
    // Characters, not UTF-16 units: an emoji is one character and is never cut in half.
    expect(redact('ab😀d')).toBe('***d');
    expect(redact('abcdefg😀')).toBe('******g😀');
    expect(redact('secret', { kind: 'replace', with: '[x]' })).toBe('[x]');
  });

  it('matches the code-point definition on random text with pairs, lone surrogates and ASCII', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', 'Z', '0', ' ', '-', 'é', '€'),
      fc.constantFrom('😀', '𝔸', '\ud83d', '\ude00'),
    );
    const value = fc.array(unit, { maxLength: 60 }).map((a) => a.join(''));
    const policy = fc.record({ kind: fc.constant('mask' as const), keep: fc.integer({ min: 0, max: 8 }), fromEnd: fc.boolean() });
    fc.assert(
      fc.property(value, policy, (v, p) => {
        expect(redact(v, p)).toBe(byCodePoints(v, p));
      }),
      { numRuns: 3000 },
    );
  });
});
