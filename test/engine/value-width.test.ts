/**
 * A rule whose value is always the match's last few characters (`fixedValueWidth`) is searched for
 * its whole match, and the value placed from the match's end: RE2 skips its submatch pass. Held here
 * to each backend's own group, over the rules' examples and texts built from them.
 */
import { describe, expect, it } from 'vitest';
import { re2NativeBackend, re2WasmBackend, v8Backend, type RegexBackend } from '../../src/engine/index.js';
import { fixedValueWidth } from '../../src/engine/program.js';
import { allRuleDefs } from '../../src/rules/index.js';

describe('fixedValueWidth', () => {
  it('reads a last group of fixed-width classes and literals, nothing else', () => {
    const cases: Array<[string, number, number]> = [
      ['a([0-9]{4})', 1, 4],
      ['a([0-9]{4}==)', 1, 6],
      [String.raw`a([0-9]{4}\.x)`, 1, 6],
      ['(a)([0-9]{4})', 2, 4],
      ['a(?:b|c)([A-F]{2})', 1, 2],
      // The group may be missing from a match (a top-level alternative), is not the value, or varies.
      ['a([0-9]{4})|b', 1, 0],
      ['a|b([0-9]{4})', 1, 0],
      ['(a)([0-9]{4})', 1, 0],
      ['a([0-9]{4,5})', 1, 0],
      ['a([0-9]{4})?', 1, 0],
      ['a([0-9]+)', 1, 0],
      ['a([0-9]{4})b', 1, 0],
      ['(?:a([0-9]{4}))', 1, 0],
      // Classes that may take a surrogate pair, or whose members the reader does not list.
      ['a([^x]{4})', 1, 0],
      ['a(.{4})', 1, 0],
      [String.raw`a(\d{4})`, 1, 0],
      [String.raw`a([\w]{4})`, 1, 0],
      ['a([0-9]{4})', 0, 0],
    ];
    for (const [source, group, width] of cases) expect(fixedValueWidth(source, group), `${source} group ${group}`).toBe(width);
  });

  it('applies to the managed rules whose value ends the match at a fixed width', () => {
    const widths = Object.fromEntries(allRuleDefs.flatMap((d) => (fixedValueWidth(d.pattern, d.group ?? 0) > 0 ? [[d.id, fixedValueWidth(d.pattern, d.group ?? 0)]] : [])));
    expect(widths).toMatchObject({ 'aws-secret-access-key': 40, 'azure-storage-account-key': 88, 'twilio-auth-token': 32 });
    // Variable values (generic-secret), top-level alternatives (the cards) and group 0 never do.
    for (const id of ['generic-secret', 'http-auth-token', 'card-visa', 'us-ssn', 'jwt']) expect(widths[id], id).toBeUndefined();
  });
});

const backends: RegexBackend[] = [v8Backend, re2WasmBackend, ...(re2NativeBackend ? [re2NativeBackend] : [])];

/** Every match of `pattern` over `text`, searched as the matcher does (on from each match's end). */
function matches(backend: RegexBackend, source: string, ignoreCase: boolean, group: number, text: string) {
  const p = backend.compile(source, ignoreCase, group);
  const out = [];
  for (let from = 0, m = p.exec(text, 0); m !== null && from <= text.length; m = p.exec(text, from)) {
    out.push(m);
    from = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

describe('a fixed-width value taken from the match end', () => {
  const rules = allRuleDefs.filter((d) => fixedValueWidth(d.pattern, d.group ?? 0) > 0);
  for (const backend of backends) {
    it(`is the group ${backend.name} reports, on every example and texts built from them`, () => {
      let seen = 0;
      for (const rule of rules) {
        const width = fixedValueWidth(rule.pattern, rule.group!);
        const texts = [...rule.examples.positive, ...rule.examples.negative].map((e) => e.text);
        const built = texts.flatMap((t) => [`${t}\n${t}`, `${t}${t}`, `x ${t} é😀 ${t}`, t.replace(/[A-Za-z0-9]$/, '')]);
        for (const text of [...texts, ...built]) {
          const withGroup = matches(backend, rule.pattern, rule.ignoreCase === true, rule.group!, text);
          const whole = matches(backend, rule.pattern, rule.ignoreCase === true, 0, text);
          expect(whole.map((m) => [m.start, m.end]), `${rule.id}: ${text}`).toEqual(withGroup.map((m) => [m.start, m.end]));
          for (const m of withGroup) expect([m.groupStart, m.groupEnd], `${rule.id}: ${text}`).toEqual([m.end - width, m.end]);
          seen += withGroup.length;
        }
      }
      expect(seen).toBeGreaterThan(50);
    });
  }
});
