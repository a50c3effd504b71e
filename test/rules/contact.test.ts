import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { contactRules } from '../../src/rules/contact.js';
import { referenceMatches, referenceTriggerSpans } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';

// contactRules are not in the catalogue yet (the lead wires them), so test/rules/examples.test.ts does
// not see them: the same checks run here, plus the behaviour each rule promises in its note.

const require = createRequire(import.meta.url);
const { RE2 } = require('re2-wasm') as { RE2: new (p: string, f: string) => { lastIndex: number; exec(s: string): RegExpExecArray | null } };

function rule(id: string): RuleDef {
  const r = contactRules.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
}
const found = (id: string, text: string) => referenceMatches(rule(id), text).map((m) => m.value);

describe.each(contactRules.map((r) => [r.id, r] as const))('rule %s', (_id, r) => {
  it('is PII, off by default, with a note and enough examples', () => {
    expect(r.family).toBe('pii');
    expect(r.enabledByDefault).toBe(false);
    expect(r.note).toBeTruthy();
    expect(r.examples.positive.length).toBeGreaterThanOrEqual(2);
    expect(r.examples.negative.length).toBeGreaterThanOrEqual(3);
  });
  it.each(r.examples.positive.map((e, i) => [i, e] as const))('finds positive %i', (_i, ex) => {
    const matches = referenceMatches(r, ex.text);
    expect(matches.length).toBeGreaterThan(0);
    if (ex.match !== undefined) expect(matches.map((m) => m.value)).toContain(ex.match);
    // The engine only confirms where the trigger fires and accepts matches overlapping the trigger.
    const spans = referenceTriggerSpans(r, ex.text);
    for (const m of matches) {
      expect(spans.some(([s, e]) => s < m.end && e > m.start), `trigger inside ${m.value}`).toBe(true);
      expect(m.end - m.start).toBeLessThanOrEqual(r.maxLength);
    }
  });
  it.each(r.examples.negative.map((e, i) => [i, e] as const))('ignores negative %i', (_i, ex) => {
    expect(referenceMatches(r, ex.text)).toEqual([]);
  });
  it('pattern compiles in RE2 and matches what V8 matches on the examples', () => {
    const flags = r.ignoreCase ? 'giu' : 'gu';
    const re2 = new RE2(r.pattern, flags);
    for (const ex of [...r.examples.positive, ...r.examples.negative]) {
      const v8 = [...ex.text.matchAll(new RegExp(r.pattern, flags))].map((m) => m[0]);
      const fromRe2: string[] = [];
      re2.lastIndex = 0;
      for (let m = re2.exec(ex.text); m !== null; m = re2.exec(ex.text)) fromRe2.push(m[0]);
      expect(fromRe2, ex.text).toEqual(v8);
    }
  });
});

describe('email-address', () => {
  it('takes the whole address and stops at the TLD', () => {
    expect(found('email-address', 'write to a.b-c+d@sub.example.co.uk, thanks')).toEqual(['a.b-c+d@sub.example.co.uk']);
    expect(found('email-address', '<jane@example.com>')).toEqual(['jane@example.com']);
  });
  it('rejects a local part longer than 64 characters instead of reporting its tail', () => {
    const local = 'x'.repeat(65);
    expect(found('email-address', `${local}@example.com`)).toEqual([]);
    expect(found('email-address', `${'x'.repeat(64)}@example.com`)).toEqual([`${'x'.repeat(64)}@example.com`]);
  });
  it('rejects file names and scale suffixes even with a real-looking TLD', () => {
    expect(found('email-address', 'sprite@2x.com')).toEqual([]);
    expect(found('email-address', 'avatar@large.jpeg')).toEqual([]);
  });
  it('does not report URL user-info or hyphen-continued hosts', () => {
    expect(found('email-address', 'https://alice@example.com/path')).toEqual([]);
    expect(found('email-address', 'alice@example.com-backup')).toEqual([]);
  });
});

describe('us-phone', () => {
  it.each([
    ['(202) 555-0143', '(202) 555-0143'],
    ['(202)555-0143', '(202)555-0143'],
    ['+1 (202) 555-0143', '+1 (202) 555-0143'],
    ['+1-202-555-0143', '+1-202-555-0143'],
    ['1 202 555 0143', '1 202 555 0143'],
    ['call 202.555.0143 now', '202.555.0143'],
  ])('finds %s', (text, value) => {
    expect(found('us-phone', text)).toEqual([value]);
  });
  it.each(['2025550143', '202-555-0143-9', '12-202-555-0143', '202-555-01430', '(202) 155-0143', '(911) 555-0143', '(202) 211-0143', '222-222-2222'])(
    'ignores %s',
    (text) => {
      expect(found('us-phone', text)).toEqual([]);
    },
  );
});

describe('phone-number', () => {
  it('counts the digits without the (0) trunk prefix', () => {
    // 15 digits after removing (0): the E.164 maximum.
    expect(found('phone-number', '+49 (0)30 1234 5678 901')).toEqual(['+49 (0)30 1234 5678 901']);
    expect(found('phone-number', '+49 (0)30 1234 5678 9012')).toEqual([]);
  });
  it('never reports +1 numbers (us-phone owns them) nor a run of one digit', () => {
    expect(found('phone-number', '+12025550143')).toEqual([]);
    expect(found('phone-number', '+44 4444 444444')).toEqual([]);
  });
});
