import { describe, expect, it } from 'vitest';
import { contactRules } from '../../src/rules/contact.js';
import { referenceMatches } from '../../src/rules/reference.js';
import type { RuleDef } from '../../src/rules/types.js';

// Behaviour each contact rule promises in its note, beyond its own examples (which
// test/rules/examples.test.ts runs for every catalogue rule, with the RE2/V8 agreement check).

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
