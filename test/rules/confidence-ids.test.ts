import { describe, expect, it } from 'vitest';
import { compileProgram, re2WasmBackend, scanStream } from '../../src/engine/index.js';
import { allRuleDefs, type Confidence, type RuleDef } from '../../src/rules/index.js';
import { referenceMatches } from '../../src/rules/reference.js';

// Numbers and documents found without their label, at the level their evidence earns (see
// `ContextRequirement.without`): a bare value whose checksum or structure holds is `medium`; a shape
// without a checksum is `low`. At the default threshold none of them is reported, so each is also
// one of its rule's negative examples or absent from them. Values are synthetic, built with the
// checksum of their format.

interface Bare {
  readonly rule: string;
  readonly text: string;
  readonly value: string;
  readonly level: Exclude<Confidence, 'high'>;
}

const kBare: readonly Bare[] = [
  { rule: 'uk-nhs', text: '4477127820', value: '4477127820', level: 'medium' },
  { rule: 'uk-nhs', text: 'ref 261 973 0694', value: '261 973 0694', level: 'medium' },
  { rule: 'uk-nhs', text: '{"id":"523-938-4991"}', value: '523-938-4991', level: 'medium' },
  { rule: 'nl-bsn', text: '725763863', value: '725763863', level: 'medium' },
  { rule: 'nl-bsn', text: 'nr 1622.75.869', value: '1622.75.869', level: 'medium' },
  { rule: 'pl-pesel', text: '17111423633', value: '17111423633', level: 'medium' },
  { rule: 'au-medicare', text: '<td>6307705284</td>', value: '6307705284', level: 'medium' },
  { rule: 'us-aba-routing', text: '082753676', value: '082753676', level: 'medium' },
  { rule: 'us-aba-routing', text: 'id 2217-1979-8', value: '2217-1979-8', level: 'medium' },
  { rule: 'in-aadhaar-unformatted', text: '297499213553', value: '297499213553', level: 'medium' },
];

/** Bare values that fail their checksum or shape: not reported at any level. */
const kBareNegative: ReadonlyArray<{ readonly rule: string; readonly text: string }> = [
  { rule: 'uk-nhs', text: '4477127821' },
  { rule: 'uk-nhs', text: '44771278201' },
  { rule: 'nl-bsn', text: '725763864' },
  { rule: 'nl-bsn', text: '7257.63 863' },
  { rule: 'pl-pesel', text: '17111423634' },
  { rule: 'au-medicare', text: '6307705294' },
  { rule: 'us-aba-routing', text: '082753677' },
  { rule: 'in-aadhaar-unformatted', text: '297499213554' },
];

const ruleOf = (id: string): RuleDef => {
  const r = allRuleDefs.find((d) => d.id === id);
  if (r === undefined) throw new Error(`no rule ${id}`);
  return r;
};
const kRank = { low: 1, medium: 2 } as const;

describe('bare values are graded below high', () => {
  it.each(kBare.map((b) => [b.rule, b.text, b] as const))('%s: %s', async (_id, _text, b) => {
    const rule = ruleOf(b.rule);
    expect(referenceMatches(rule, b.text)).toEqual([]);
    const found = referenceMatches(rule, b.text, 'low');
    expect(found.map((m) => [m.value, m.rank])).toEqual([[b.value, kRank[b.level]]]);
    // The engine agrees, and reports nothing at a threshold above the level.
    const at = async (min: Confidence) =>
      (await scanStream(compileProgram([rule], re2WasmBackend, min), [Buffer.from(b.text)], { contentType: 'text/plain' })).findings.map((f) => f.confidence);
    expect(await at('low')).toEqual([b.level]);
    expect(await at(b.level)).toEqual([b.level]);
    expect(await at('high')).toEqual([]);
  });

  it.each(kBareNegative.map((b) => [b.rule, b.text] as const))('%s ignores %s at every level', (id, text) => {
    expect(referenceMatches(ruleOf(id), text, 'low')).toEqual([]);
  });
});
