import { describe, expect, it } from 'vitest';
import { makeBody } from '../../bench/bodies.js';
import { compileProgram, re2NativeBackend, scanStream, type RegexBackend } from '../../src/engine/index.js';
import type { CompiledPattern } from '../../src/engine/backend/index.js';
import { allRuleDefs } from '../../src/rules/index.js';

// The matcher hands native RE2 a window as column bytes where the pattern reads them (one byte per
// code unit, searched as Latin-1), and as UTF-8 where the window holds a character they do not stand
// for. Findings must be those of the UTF-8 path everywhere: the same backend with column reading off
// is the reference.

/** The backend with every call counted by kind; `columns: false` leaves column reading off. */
function counted(native: RegexBackend, columns: boolean): { backend: RegexBackend; calls: { columns: number; utf8: number } } {
  const calls = { columns: 0, utf8: 0 };
  const backend: RegexBackend = {
    name: native.name,
    linear: native.linear,
    bytes: true,
    ...(columns && native.columns !== undefined ? { columns: native.columns } : {}),
    compile(pattern, ignoreCase, group) {
      const c = native.compile(pattern, ignoreCase, group);
      const out: CompiledPattern = {
        exec: c.exec,
        execBytes: (bytes, from) => {
          calls.utf8++;
          return c.execBytes!(bytes, from);
        },
      };
      if (columns && c.execColumns !== undefined) {
        out.execColumns = (cols, from) => {
          calls.columns++;
          return c.execColumns!(cols, from);
        };
      }
      return out;
    },
  };
  return { backend, calls };
}

/** `text` with `insert` put after every `every`-th character. */
function sprinkled(text: string, insert: string, every: number): string {
  let out = '';
  for (let i = 0; i < text.length; i += every) out += text.slice(i, i + every) + insert;
  return out;
}

describe.skipIf(re2NativeBackend === null || re2NativeBackend.columns === undefined)('column bytes in the matcher', () => {
  const native = re2NativeBackend!;
  const rules = allRuleDefs;
  const examples = rules.flatMap((r) => r.examples.positive.map((e) => e.text)).join('\n');
  const dense = (['text', 'html', 'json', 'xml'] as const).map((k) => ({ ...makeBody(k, 'dense', '16KB') }));
  // Non-ASCII the columns stand for (é, 中, NBSP, ß) and the ones they do not (a surrogate pair, ſ, K; a lone surrogate becomes U+FFFD when the body is decoded).
  const faithful = ['é', '中', '\u00a0', 'ß'];
  const special = ['😀', '\u017f', '\u212a'];
  const bodies = [
    ...dense.map((b) => ({ name: b.name, text: b.bytes.toString('utf8'), contentType: b.contentType, special: false })),
    ...faithful.map((c, i) => ({ name: `examples with ${c}`, text: sprinkled(examples, c, 37 + 11 * i), contentType: 'text/plain', special: false })),
    ...special.map((c, i) => ({ name: `examples with U+${c.charCodeAt(0).toString(16)}`, text: sprinkled(examples, c, 301 + 7 * i), contentType: 'text/plain', special: true })),
    // Case-insensitive patterns take K for k and ſ for s (over UTF-8): only the fallback finds those.
    { name: 'examples with K for k', text: examples.replace(/k/g, '\u212a'), contentType: 'text/plain', special: true },
    { name: 'examples with ſ for s', text: examples.replace(/s/g, '\u017f'), contentType: 'text/plain', special: true },
  ];

  it.each(bodies.map((b) => [b.name, b] as const))('%s: the same findings as over UTF-8', async (_name, body) => {
    const on = counted(native, true);
    const off = counted(native, false);
    const scan = async (backend: RegexBackend) =>
      (await scanStream(compileProgram(rules, backend, 'low'), [Buffer.from(body.text, 'utf8')], { contentType: body.contentType })).findings;
    const want = await scan(off.backend);
    expect(await scan(on.backend)).toEqual(want);
    expect(want.length).toBeGreaterThan(0);
    expect(off.calls.columns).toBe(0);
    if (body.special) {
      // Windows holding one of those characters went to UTF-8, the others to column bytes.
      expect(on.calls.utf8).toBeGreaterThan(0);
      expect(on.calls.columns).toBeGreaterThan(0);
    } else {
      expect(on.calls.columns).toBeGreaterThan(on.calls.utf8);
    }
  });
});
