/**
 * A rule whose value ends its pattern is searched without RE2's submatch pass (src/engine/value-tail.ts):
 * a fixed-width value is placed from the match's end, an open-ended one-class value is the run of its
 * class after the rest of the pattern's match. Held here to each backend's own group (strings, bytes
 * and column bytes), over the rules' examples and texts built from them.
 */
import { describe, expect, it } from 'vitest';
import { re2NativeBackend, re2WasmBackend, v8Backend, type RegexBackend } from '../../src/engine/index.js';
import type { CompiledPattern, PatternMatch } from '../../src/engine/backend/index.js';
import { columnsOf } from '../../src/engine/prefilter.js';
import { compileForValue, fixedValueWidth, openValueRun } from '../../src/engine/value-tail.js';
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

describe('openValueRun', () => {
  it('reads a last group of one class, open-ended, nothing else', () => {
    expect(openValueRun('a([0-9]{8,})', 1)).toEqual({ cls: '[0-9]', min: 8 });
    expect(openValueRun('(?:a|b)([A-Za-z0-9!#$%*+./:=?@^_|~-]+)', 1)).toEqual({ cls: '[A-Za-z0-9!#$%*+./:=?@^_|~-]', min: 1 });
    for (const [source, group] of [['a([0-9]*)', 1], ['a([^x]{8,})', 1], ['a([0-9]{8,}=*)', 1], ['a([0-9]{8,})|b', 1], ['a([0-9]{8,})', 0], ['a([0-9]{8,12})', 1], ['a([0-9]{8,})b', 1]] as const) {
      expect(openValueRun(source, group), source).toBeNull();
    }
    const ids = allRuleDefs.filter((d) => openValueRun(d.pattern, d.group ?? 0) !== null).map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining(['generic-secret', 'generic-api-key', 'generic-credential']));
  });
});

const backends: RegexBackend[] = [v8Backend, re2WasmBackend, ...(re2NativeBackend ? [re2NativeBackend] : [])];
type Exec = (p: CompiledPattern, from: number) => PatternMatch | null;

/** Every match of `p` over the text `exec` reads, searched as the matcher does (on from each match's end). */
function matches(p: CompiledPattern, exec: Exec, length: number): Array<[number, number, number, number]> {
  const out: Array<[number, number, number, number]> = [];
  for (let from = 0, m = exec(p, 0); m !== null && from <= length; m = exec(p, from)) {
    out.push([m.start, m.end, m.groupStart, m.groupEnd]);
    from = m.end > m.start ? m.end : m.start + 1;
  }
  return out;
}

describe('a value placed without the submatch pass', () => {
  const rules = allRuleDefs.filter((d) => fixedValueWidth(d.pattern, d.group ?? 0) > 0 || openValueRun(d.pattern, d.group ?? 0) !== null);
  for (const backend of backends) {
    it(`is the group ${backend.name} reports, on every example and texts built from them`, () => {
      let seen = 0;
      for (const rule of rules) {
        const ic = rule.ignoreCase === true;
        const withGroup = backend.compile(rule.pattern, ic, rule.group!);
        const placed = compileForValue(backend, rule.pattern, ic, rule.group!);
        const texts = [...rule.examples.positive, ...rule.examples.negative].map((e) => e.text);
        const built = texts.flatMap((t) => [`${t}\n${t}`, `${t}${t}`, `x ${t} é😀 ${t}`, t.replace(/[A-Za-z0-9]$/, ''), t.replace(/(.{8})$/, ' $1'), t.replace(/=/, '= "')]);
        for (const text of [...texts, ...built]) {
          const bytes = Buffer.from(text, 'utf8');
          const cols = columnsOf(text);
          const ways: Array<[string, Exec, number]> = [['string', (p, f) => p.exec(text, f), text.length]];
          if (withGroup.execBytes !== undefined) ways.push(['bytes', (p, f) => p.execBytes!(bytes, f), bytes.length]);
          if (withGroup.execColumns !== undefined && placed.execColumns !== undefined) ways.push(['columns', (p, f) => p.execColumns!(cols, f), cols.length]);
          for (const [how, exec, length] of ways) {
            const expected = matches(withGroup, exec, length);
            expect(matches(placed, exec, length), `${rule.id} over ${how}: ${text}`).toEqual(expected);
            seen += expected.length;
          }
        }
      }
      expect(seen).toBeGreaterThan(200);
    });
  }
});
