import { describe, expect, it } from 'vitest';
import { Rng } from '../../bench/prng.js';
import { kContentKinds, kDensities, makeAdversarial, makeBody } from '../../bench/bodies.js';
import type { Program } from '../../src/engine/index.js';
import { PrefilterTables, newTriggerPass } from '../../src/engine/prefilter.js';
import { cut, prefilterImpls, program, scanChunks } from './helpers.js';

/**
 * The prefilter joins each keyword rule's hits as the matcher groups them (`PrefilterSpec.joins`).
 * That is a speed-up only: the same program with the joins left out of its prefilter tables must
 * give the same findings, in the same order, on every body and however the body is cut.
 */
function unjoined(p: Program): Program {
  const tables = new PrefilterTables({ ...p.spec, joins: [] });
  return { ...p, newPrefilter: (impl) => newTriggerPass(tables, impl) };
}

/** Credentials in URLs and e-mail addresses close together, with near misses between them. */
function crowdedText(rng: Rng, n: number): string {
  const word = () => rng.chars('abcdefghijklmnopqrstuvwxyz', rng.int(2, 9));
  const parts: string[] = [];
  let len = 0;
  while (len < n) {
    const r = rng.next();
    let p: string;
    if (r < 0.3) p = `postgres://${word()}:${rng.chars('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', rng.int(10, 20))}@${word()}.internal:5432/app`;
    else if (r < 0.55) p = `${word()}.${word()}@${word()}.example.com`;
    else if (r < 0.7) p = rng.pick(['@ ', 'a@-', 'x@', '@@', 'git@host', 'icon@2x.png', '\u00e9@', '@types/node']);
    else p = rng.chars(' ,;\n\t"<>', rng.int(1, 3));
    parts.push(p);
    len += p.length;
  }
  return parts.join('');
}

describe.each(prefilterImpls())('keyword joins (%s prefilter)', (impl) => {
  const joined = program('all');
  const plain = unjoined(joined);
  const withImpl = (p: Program): Program => ({ ...p, newPrefilter: () => p.newPrefilter(impl) });
  const a = withImpl(joined);
  const b = withImpl(plain);

  it('give the same findings as hits reported one by one, on crowded keyword text cut anywhere', async () => {
    const rng = new Rng(20261122);
    let total = 0;
    for (let round = 0; round < 12; round++) {
      const bytes = Buffer.from(crowdedText(rng, rng.int(200, 12000)));
      const at = Array.from({ length: rng.int(0, 8) }, () => rng.int(1, bytes.length));
      const chunks = cut(bytes, at);
      const x = await scanChunks(a, chunks, { contentType: 'text/plain' });
      const y = await scanChunks(b, chunks, { contentType: 'text/plain' });
      expect(x.findings).toEqual(y.findings);
      total += x.findings.length;
    }
    // The text is built to be full of findings: the comparison is not between two empty lists.
    expect(total).toBeGreaterThan(100);
  });

  it('give the same findings on the bench bodies and the keyword-heavy adversarial ones', async () => {
    const keywords = [...new Set(joined.spec.keywords.map((k) => k.text))];
    const bodies = [
      ...kContentKinds.flatMap((k) => kDensities.map((d) => makeBody(k, d, '16KB'))),
      makeAdversarial('at-signs', 64 * 1024),
      makeAdversarial('kw-all', 64 * 1024, keywords),
    ];
    let total = 0;
    for (const body of bodies) {
      const chunks = cut(body.bytes, [4096, 9000, 40000]);
      const x = await scanChunks(a, chunks, { contentType: body.contentType });
      const y = await scanChunks(b, chunks, { contentType: body.contentType });
      expect(x.findings, body.name).toEqual(y.findings);
      expect(x.notices, body.name).toEqual(y.notices);
      total += x.findings.length;
    }
    expect(total).toBeGreaterThan(100);
  });
});
