import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskKnown, redact } from '../../src/redact/index.js';

describe('maskKnown: values the caller holds, masked wherever a text quotes them', () => {
  it('masks every occurrence, overlapping ones as one, and leaves the rest', () => {
    expect(maskKnown('user admin, pass hunter2 (hunter2)', ['hunter2'])).toBe('user admin, pass *** (***)');
    expect(maskKnown('abcabc', ['abca', 'cabc'])).toBe('***');
    expect(maskKnown('nothing here', ['hunter2', ''])).toBe('nothing here');
    expect(maskKnown('key sk_live_1234', ['sk_live_1234'], { kind: 'mask', keep: 4, fromEnd: true })).toBe(`key ${redact('sk_live_1234')}`);
  });

  it('leaves no value in its output (values and text without the mask character)', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(word, fc.constantFrom(' ', ':', '@')), { maxLength: 30 }), fc.array(word, { minLength: 1, maxLength: 4 }), (parts, values) => {
        const text = parts.join('');
        const out = maskKnown(text, values);
        for (const v of values) expect(out.includes(v)).toBe(false);
        if (values.every((v) => !text.includes(v))) expect(out).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
