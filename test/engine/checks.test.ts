import { describe, expect, it } from 'vitest';
import { Rng } from '../../bench/prng.js';
import { compileChecks } from '../../src/engine/checks.js';
import { allRuleDefs } from '../../src/rules/index.js';

/** The definition `mayMatch` must keep: some context word occurs in the lower-cased window. */
function reference(words: readonly string[], window: string): boolean {
  const lower = window.toLowerCase();
  return words.some((w) => lower.includes(w.toLowerCase()));
}

describe('mayMatch (the window-level context pre-check)', () => {
  const withContext = allRuleDefs.filter((r) => r.context !== undefined && r.context.words.length > 0);

  it('never says no where a context word occurs, and on ASCII windows answers exactly', () => {
    expect(withContext.length).toBeGreaterThan(5);
    const rng = new Rng(4242);
    // Upper-case forms, U+0130 (lower-cases to two characters) and the Kelvin sign (folds to k).
    const noise = ['a', 'Z', ' ', ':', '0', 'é', 'É', '\u0130', '\u212a', 'ß', '中'];
    for (const rule of withContext) {
      const checks = compileChecks(rule);
      const words = rule.context!.words;
      for (let k = 0; k < 60; k++) {
        let w = '';
        const parts = rng.int(0, 6);
        for (let p = 0; p < parts; p++) {
          if (rng.chance(0.3)) {
            const word = rng.pick(words);
            w += rng.chance(0.5) ? word.toUpperCase() : word;
          } else w += rng.pick(noise).repeat(rng.int(1, 3));
        }
        const want = reference(words, w);
        const got = checks.mayMatch(w);
        if (want) expect(got, `${rule.id} ${JSON.stringify(w)}`).toBe(true);
        if (/^[\x00-\x7f]*$/.test(w)) {
          expect(got, `${rule.id} ${JSON.stringify(w)}`).toBe(want);
          expect(checks.mayMatch(w, true), `${rule.id} ${JSON.stringify(w)} (known ASCII)`).toBe(want);
        }
      }
    }
  });

  it('finds a word whose lower-case form appears only after lower-casing a non-ASCII capital', () => {
    // "İ" lower-cases to "i" + U+0307: a word ending in "i" is then in the lower-cased window.
    const rule = withContext[0]!;
    const word = rule.context!.words[0]!.toLowerCase();
    const checks = compileChecks({ ...rule, context: { ...rule.context!, words: [`${word}i`] } });
    expect(checks.mayMatch(`xx ${word.toUpperCase()}\u0130 yy`)).toBe(reference([`${word}i`], `xx ${word.toUpperCase()}\u0130 yy`));
    expect(checks.mayMatch('nothing here')).toBe(false);
  });
});
