import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileProgram, re2NativeBackend, re2WasmBackend, scanStream, type Program } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches } from '../../src/rules/reference.js';
import { redact } from '../../src/redact/index.js';
import { decodeBase64Json, encodedSpan } from '../../src/engine/decoded.js';

// The engine against the obviously-correct oracle: each rule's pattern run by V8 over the whole text,
// with the same checks. On plain text without escapes both must report the same (rule, span) set.
// Bodies are random mixes of every rule's example texts, so rules see each other's values around.
const texts = allRuleDefs
  .flatMap((r) => [...r.examples.positive, ...r.examples.negative])
  .filter((e) => (e.contentType ?? 'text/plain') === 'text/plain' && !e.text.includes('\\'))
  .map((e) => e.text);
const programs: Array<[string, Program]> = [['re2-wasm', compileProgram(allRuleDefs, re2WasmBackend)]];
if (re2NativeBackend) {
  programs.push(['re2', compileProgram(allRuleDefs, re2NativeBackend)]);
  // At the lowest threshold optional context no longer gates windows nor screens candidates.
  programs.push(['re2, minConfidence low', compileProgram(allRuleDefs, re2NativeBackend, 'low')]);
} else programs.push(['re2-wasm, minConfidence low', compileProgram(allRuleDefs, re2WasmBackend, 'low')]);

const kNames = ['', 'low', 'medium', 'high'];

/**
 * The reference's findings in byte offsets: every rule's matches, and for the base64 decoder's (never
 * reported itself) the matches in its decoded JSON, mapped to the characters that encode them.
 */
function referenceFindings(program: Program, text: string): Array<{ rule: string; start: number; end: number; redacted: string; rank: number }> {
  const defs = program.rules.map((r) => r.def);
  const rules = defs.filter((d) => d.decodes === undefined);
  const out = rules.flatMap((rule) =>
    referenceMatches(rule, text, program.minConfidence).map((m) => {
      const start = Buffer.byteLength(text.slice(0, m.start));
      return { rule: rule.id, start, end: start + Buffer.byteLength(m.value), redacted: redact(m.value), rank: m.rank };
    }),
  );
  for (const decoder of defs.filter((d) => d.decodes !== undefined)) {
    for (const m of referenceMatches(decoder, text, program.minConfidence)) {
      const bytes = decodeBase64Json(m.value);
      if (bytes === null) continue;
      const at = Buffer.byteLength(text.slice(0, m.start));
      const groups = Math.ceil(m.value.length / 4);
      const c = { bytes, quanta: Int32Array.from({ length: groups + 1 }, (_, k) => at + Math.min(4 * k, m.value.length)) };
      const inner = Buffer.from(bytes).toString('utf8');
      for (const rule of rules) {
        for (const im of referenceMatches(rule, inner, program.minConfidence)) {
          const s = Buffer.byteLength(inner.slice(0, im.start));
          const [start, end] = encodedSpan(c, s, s + Buffer.byteLength(im.value));
          out.push({ rule: rule.id, start, end, redacted: redact(im.value), rank: im.rank });
        }
      }
    }
  }
  return out;
}

/**
 * Filler between the examples: moves context words in and out of their rules' reach (the engine drops
 * candidates whose context word ended too far back), and brings in non-ASCII text (windows with it go
 * to RE2 as strings, the others as bytes) including the Kelvin sign, which lower-cases to ASCII `k`.
 */
const filler = fc.string({ unit: fc.constantFrom(' ', 'a', 'x', '\n', ':', 'é', '—', '中', '\u212a', '😀'), maxLength: 70 });

describe.each(programs)('engine = reference oracle on plain text (%s)', (_name, program) => {
  it('agrees on random mixes of all examples', { timeout: 180_000 }, async () => {
    if (texts.length === 0) return;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...texts), filler), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', ' ', ' | ', '\n\n'), async (parts, sep) => {
        const text = parts.map(([t, f]) => f + sep + t).join(sep);
        const bytes = Buffer.from(text, 'utf8');
        const got = (await scanStream(program, [bytes], { contentType: 'text/plain' })).findings.map((f) => `${f.ruleId}@${f.start}-${f.end}:${f.redacted}:${f.confidence}`);
        const want = referenceFindings(program, text).map((f) => `${f.rule}@${f.start}-${f.end}:${f.redacted}:${kNames[f.rank]}`);
        expect([...got].sort()).toEqual([...want].sort());
      }),
      { numRuns: 80 },
    );
  });

  it('agrees on lists of cards, up to runs the prefilter reports in pieces', async () => {
    const cards = ['4242424242424242', '4000-0566-5566-5556', '5555 5555 5555 4444', '378282246310005', '1234', '41111111'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...cards), { minLength: 2, maxLength: 24 }), fc.constantFrom('', 'pan ', '{"x":"'), async (list, lead) => {
        const text = `${lead}${list.join(' ')}\n`;
        const got = (await scanStream(program, [Buffer.from(text)], { contentType: 'text/plain' })).findings.map((f) => `${f.ruleId}@${f.start}-${f.end}`);
        const want = referenceFindings(program, text).map((f) => `${f.rule}@${f.start}-${f.end}`);
        expect([...got].sort()).toEqual([...want].sort());
      }),
      { numRuns: 60 },
    );
  });
});
