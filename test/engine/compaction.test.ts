/**
 * The matcher drops text that no pending window and no future trigger can reach (`Program.maxReach`,
 * `Matcher.#compact`). Dropping too much loses a finding without any error: a window would silently
 * start later than its rule allows. Checked here with compaction forced at every piece: every
 * positive example of every rule, behind filler and cut into small pieces, gives the reference
 * matcher's findings.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, re2WasmBackend } from '../../src/engine/index.js';
import { Matcher } from '../../src/engine/matcher.js';
import { re2NativeBackend } from '../../src/engine/backend/re2-native.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches } from '../../src/rules/reference.js';

const program = compileProgram(allRuleDefs, re2NativeBackend ?? re2WasmBackend, 'low', { decodeBase64: false });
const filler = 'lorem ipsum dolor sit amet '.repeat(200);

function spans(text: string, piece: number): { engine: string[]; reference: string[] } {
  // compactSlack 1: the matcher compacts as soon as anything can be dropped.
  const m = new Matcher(program, 100_000, 1);
  for (let i = 0; i < text.length; i += piece) m.push({ text: text.slice(i, i + piece), offsets: null, base: i });
  m.finish();
  const engine = m.findings.map((f) => `${f.ruleId}@${f.start}-${f.end}`).sort();
  const reference = program.rules.flatMap((r) => referenceMatches(r.def, text, 'low').map((x) => `${r.def.id}@${x.start}-${x.end}`)).sort();
  return { engine, reference };
}

describe('compaction keeps every window a rule can need', () => {
  const examples = allRuleDefs.flatMap((r) =>
    r.examples.positive.filter((e) => (e.contentType ?? 'text/plain') === 'text/plain' && /^[\x00-\x7f]*$/.test(e.text)).map((e) => [r.id, e.text] as const),
  );

  it('has examples of rules whose windows reach far back (long context, long lead)', () => {
    expect(examples.length).toBeGreaterThan(200);
    expect(program.maxReach).toBeGreaterThan(1000);
  });

  it.each([7, 64])('every positive example behind filler, in pieces of %i characters', (piece) => {
    let found = 0;
    for (const [id, text] of examples) {
      const { engine, reference } = spans(`${filler}${text} ${filler}`, piece);
      expect(engine, `${id}: ${text}`).toEqual(reference);
      found += reference.length;
    }
    expect(found).toBeGreaterThan(examples.length);
  });
});
