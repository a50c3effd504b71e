/**
 * The engine's shortcuts that must not change a result, checked against the reference matcher (each
 * rule's pattern by V8 over the whole text, same checks) on texts built to sit on their edges:
 * - context words seen by the shared pass: a context-gated rule gets no window when its last context
 *   word ended too far back; swept over every distance around the rule's reach;
 * - screens: one alternation per 16 KB region decides where card and id rules run; values are put
 *   astride region borders and among look-alikes.
 */
import { describe, expect, it } from 'vitest';
import { compileProgram, re2NativeBackend, re2WasmBackend, scanStream, type Program } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { referenceMatches } from '../../src/rules/reference.js';
import { kScreens } from '../../src/engine/screens.js';
import { Matcher } from '../../src/engine/matcher.js';
import { kSliceBytes } from '../../src/engine/body.js';
import { selectRules } from '../../src/rules/index.js';
import { makeAdversarial, makeBody } from '../../bench/bodies.js';

const programs: Array<[string, Program]> = [['re2-wasm', compileProgram(allRuleDefs, re2WasmBackend)]];
if (re2NativeBackend) programs.push(['re2', compileProgram(allRuleDefs, re2NativeBackend)]);

async function engineSpans(program: Program, text: string): Promise<string[]> {
  const r = await scanStream(program, [Buffer.from(text, 'utf8')], { contentType: 'text/plain' });
  return r.findings.map((f) => `${f.ruleId}@${f.start}-${f.end}`).sort();
}

function referenceSpans(text: string, ids?: ReadonlySet<string>): string[] {
  return allRuleDefs
    .filter((r) => ids === undefined || ids.has(r.id))
    .flatMap((rule) => referenceMatches(rule, text).map((m) => `${rule.id}@${Buffer.byteLength(text.slice(0, m.start))}-${Buffer.byteLength(text.slice(0, m.end))}`))
    .sort();
}

/** Positive examples of digit/token rules gated by context words before the value. */
const gated = allRuleDefs.filter((r) => r.context !== undefined && !('keywords' in r.trigger) && (r.context.after ?? 0) === 0);

describe.each(programs)('shortcuts agree with the reference (%s)', (_name, program) => {
  it('context words at every distance around the reach', async () => {
    expect(gated.length).toBeGreaterThan(5);
    let found = 0;
    for (const rule of gated) {
      const word = rule.context!.words[0]!;
      const value = rule.examples.positive.find((e) => e.match !== undefined && (e.contentType ?? 'text/plain') === 'text/plain')?.match;
      if (value === undefined) continue;
      for (let gap = 0; gap <= rule.context!.before + 4; gap += 1) {
        const text = `${word}:${' '.repeat(gap)}${value} and more`;
        const want = referenceSpans(text);
        expect(await engineSpans(program, text), `${rule.id}, gap ${gap}`).toEqual(want);
        if (want.some((s) => s.startsWith(`${rule.id}@`))) found++;
      }
    }
    // The sweep crossed the reach: some distances found the value, the longest did not.
    expect(found).toBeGreaterThan(gated.length);
  });

  it('screened values astride 16 KB region borders, among look-alikes', async () => {
    const screened = new Set(Object.values(kScreens).flat());
    const values = allRuleDefs
      .filter((r) => screened.has(r.id))
      .flatMap((r) => r.examples.positive.filter((e) => (e.contentType ?? 'text/plain') === 'text/plain').map((e) => e.text));
    expect(values.length).toBeGreaterThan(10);
    // Look-alikes fill the text: the screened id rules' own negative examples (they wake the rules
    // and fail them, where a screen pays) and long digit runs; examples sit at offsets just before, on
    // and after each multiple of 16 KiB.
    const idScreens = new Set([...kScreens.card!, ...kScreens['lettered-id']!, ...kScreens['structured-id']!]);
    const lookAlikes = allRuleDefs
      .filter((r) => idScreens.has(r.id))
      .flatMap((r) => r.examples.negative.filter((e) => (e.contentType ?? 'text/plain') === 'text/plain').map((e) => e.text));
    const noise = `order 2024-473989 200 470ms ts=1714585634874 id=095-7222302-4474435 ${lookAlikes.join(' ')} `;
    let text = '';
    let v = 0;
    // Right at each border, and every 300 characters around it: enough groups in each region for
    // the screens to run there (fewer are confirmed directly, see kScreenMinSaved).
    const shifts = [-90, -17, -3, 0, 5, 40, ...Array.from({ length: 16 }, (_, k) => (k - 8) * 300 + 150)].sort((a, b) => a - b);
    for (const border of [16384, 32768, 49152, 65536]) {
      for (const shift of shifts) {
        while (text.length < border + shift) text += noise;
        text = text.slice(0, border + shift) + ' ' + values[v++ % values.length]! + ' ';
      }
    }
    text += noise;
    const want = referenceSpans(text);
    expect(want.length).toBeGreaterThan(5);
    expect(await engineSpans(program, text)).toEqual(want);
    // The screens did run on this text (the property is about them), counted by the matcher itself.
    const m = new Matcher(program, 100_000, kSliceBytes);
    for (let i = 0; i < text.length; i += 65536) m.push({ text: text.slice(i, i + 65536), offsets: null, base: i });
    m.finish();
    if (program.screens.length > 0) expect(m.screenRuns).toBeGreaterThan(2);
  });

  it('labelled secrets at every distance around the edge of a screen view, among labels without values', async () => {
    // Labels without values fill a 16 KB region (each wakes the secret-label rules and the screen
    // rejects it, so the screen runs there); after a first value, the next start is sought in views
    // of 2 KB and a match's length: a second value is put at every distance across that view's edge.
    const values = allRuleDefs
      .filter((r) => kScreens['secret-label']!.includes(r.id))
      .flatMap((r) => r.examples.positive.filter((e) => (e.contentType ?? 'text/plain') === 'text/plain' && !e.text.includes('\n')).map((e) => e.text));
    expect(values.length).toBeGreaterThan(4);
    // Labels of every member, far enough apart that the short-valued Cloudflare rules' hits make a
    // group each (their join gap is 256 characters).
    const noise = `cloudflare= ; x-auth-key: ; accountkey= ; basic ; password: ; secret_access_key= ; ${'the quick brown fox jumps over the lazy dog '.repeat(5)}`;
    const textAt = (d: number): string => {
      const first = values[d % values.length]!;
      let text = noise.repeat(12) + ' ' + first + ' ';
      const at = text.length - first.length - 1 + d;
      while (text.length < at) text += noise;
      text = `${text.slice(0, at)} ${values[(d + 3) % values.length]!} `;
      while (text.length < 20_000) text += noise;
      return text;
    };
    let checked = 0;
    // Across the first view's edge for starts (2,048) and its end (2,048 + the longest member match, 460).
    for (let d = 1900; d <= 2600; d += 5) {
      const text = textAt(d);
      const want = referenceSpans(text);
      expect(await engineSpans(program, text), `second value ${d} characters on`).toEqual(want);
      checked += want.length;
    }
    expect(checked).toBeGreaterThan(200);
    if (program.screens.length > 0) {
      // The screen did run on these texts (counted by the matcher itself).
      const m = new Matcher(program, 100_000, kSliceBytes);
      m.push({ text: textAt(2048), offsets: null, base: 0 });
      m.finish();
      expect(m.screenRuns).toBeGreaterThan(0);
    }
  });

  it('non-ASCII text: windows and regions converted between characters and bytes both ways', async () => {
    // Multi-byte characters, emoji (surrogate pairs) and many look-alike numbers in every region, so
    // that a region lists many match starts and the conversion cursor steps back after each match.
    const values = ['4111 1111 1111 1111', '5500-0000-0000-0004', '378282246310005', '078-05-1120', 'AB123456C', 'bob@example.com'];
    const fillers = ['é ', '😀', ' 中文 ', '—', ' 1234 5678 9012 ', ' 한국 ', '\u00a0', ' 😀😀 4000 ', ' ñ-3333 '];
    let text = '';
    for (let i = 0; text.length < 40_000; i++) text += fillers[i % fillers.length]! + (i % 7 === 0 ? values[(i / 7) % values.length]! : '') + fillers[(i * 5) % fillers.length]!;
    const want = referenceSpans(text);
    expect(want.length).toBeGreaterThan(100);
    expect(await engineSpans(program, text)).toEqual(want);
  });
});

/**
 * A screen costs a pass over its region; it pays only where it rejects most of the groups waiting
 * there. Each scan learns the share its screens reject: on a dense body (a value in nearly every
 * group) they soon stop running, on look-alikes built to wake the rules they keep running.
 */
describe.skipIf(re2NativeBackend === undefined)('screens run where they pay (re2)', () => {
  const program = compileProgram(selectRules({}), re2NativeBackend!);
  const runs = (text: string): { screenRuns: number; findings: number } => {
    const m = new Matcher(program, 100_000, kSliceBytes);
    for (let i = 0; i < text.length; i += 65536) m.push({ text: text.slice(i, i + 65536), offsets: null, base: i });
    m.finish();
    return { screenRuns: m.screenRuns, findings: m.findings.length };
  };

  it('stop on a dense body and keep running on look-alike digit runs', () => {
    expect(program.screens.length).toBeGreaterThan(1);
    const regions = (1 << 20) / (16 * 1024);
    const dense = runs(makeBody('text', 'dense', '1MB').bytes.toString('latin1'));
    expect(dense.findings).toBeGreaterThan(2000);
    // A first run per screen and a few probes, out of 64 regions per screen.
    expect(dense.screenRuns).toBeGreaterThan(0);
    expect(dense.screenRuns).toBeLessThan(program.screens.length * 8);
    const adversarial = runs(makeAdversarial('digit-runs', 1 << 20).bytes.toString('latin1'));
    expect(adversarial.findings).toBe(0);
    expect(adversarial.screenRuns).toBeGreaterThan(regions * 0.75);
  });
});
