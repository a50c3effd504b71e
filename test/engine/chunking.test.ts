import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allRuleDefs } from '../../src/rules/index.js';
import { scanStream } from '../../src/engine/stream.js';
import { cut, program, scanChunks } from './helpers.js';

// Chunk-split invariance: scanStream over any cutting of a body gives exactly the findings of the
// whole body, for every content type. Bodies mix planted values, their escaped forms, multi-byte and
// invalid UTF-8, so cuts land inside escapes, characters and matches.
const fragments = [
  '4111 1111 1111 1111', '4111111111111111', '\\u0034111111111111111', '&#52;111-1111-1111-1111', '&#x34;111111111111111',
  'AKIAZ7Q2MBVX4NKW3P5R', 'AKIA\\u005A7Q2MBVX4NKW3P5R', 'bob@example.com', 'bob&#64;example.com', 'bob\\u0040example.org',
  'AB123456C', 'password = "Xk9#mQ2!pL7z"', 'password: hunter2hunter', ' ', ', ', '"', '<td>', '</td>', '&amp;', '\\n', '\\\\',
  'é', '😀', '한국', '\u00a0', 'lorem ipsum ', '1234 5678 ', '0000-', '@@', 'AKIA', '\\u00', '&#', '\n',
];
const invalid = [Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from([0xc0, 0xaf])];

const body = fc
  .array(fc.oneof(fc.constantFrom(...fragments).map((s) => Buffer.from(s, 'utf8')), fc.constantFrom(...invalid)), { maxLength: 60 })
  .map((parts) => Buffer.concat(parts));
const contentTypes = ['text/plain', 'text/html; charset=utf-8', 'application/json', 'application/xml', undefined];

describe('scanStream is invariant under chunking', () => {
  for (const ct of contentTypes) {
    it(`content type ${ct ?? '(sniffed)'}`, async () => {
      let found = 0;
      await fc.assert(
        fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 12 }), async (bytes, positions) => {
          const p = program('test');
          const meta = ct === undefined ? {} : { contentType: ct };
          const whole = await scanChunks(p, [bytes], meta);
          const chunks = cut(bytes, positions.map((x) => x % (bytes.length + 1)));
          const parts = await scanChunks(p, chunks, meta);
          expect(parts.findings).toEqual(whole.findings);
          const single = await scanChunks(p, cut(bytes, Array.from({ length: bytes.length }, (_, i) => i)), meta);
          expect(single.findings).toEqual(whole.findings);
          found += whole.findings.length;
        }),
        { numRuns: 60 },
      );
      // The property is not vacuous: the generated bodies do contain findings (15-46 over the 60
      // bodies, text/plain and sniffed the lowest; a floor of 10 failed 3 of 14 suite runs).
      expect(found).toBeGreaterThan(3);
    });
  }
});

// The same property with the whole managed catalogue: bodies are made of the rules' own example texts
// (positives and negatives), so real patterns, windows and checks meet every kind of cut.
describe('scanStream is invariant under chunking, managed rules', () => {
  const examples = allRuleDefs.flatMap((r) => [...r.examples.positive, ...r.examples.negative].map((e) => e.text));
  const joiners = ['\n', ' ', '","', '</td><td>', '&amp;', '\\n'];
  const managedBody = fc
    .array(fc.oneof(fc.constantFrom(...examples), fc.constantFrom(...joiners)), { minLength: 1, maxLength: 10 })
    .map((parts) => Buffer.from(parts.join(''), 'utf8'));
  for (const ct of ['text/plain', 'text/html', 'application/json', 'application/xml']) {
    it(`content type ${ct}`, { timeout: 180_000 }, async () => {
      let found = 0;
      await fc.assert(
        fc.asyncProperty(managedBody, fc.array(fc.nat(), { maxLength: 16 }), async (bytes, positions) => {
          const p = program('all');
          const whole = await scanChunks(p, [bytes], { contentType: ct });
          const parts = await scanChunks(p, cut(bytes, positions.map((x) => x % (bytes.length + 1))), { contentType: ct });
          expect(parts.findings).toEqual(whole.findings);
          found += whole.findings.length;
        }),
        { numRuns: 25 },
      );
      expect(found).toBeGreaterThan(5);
    });
  }
});

// Regression (found by the property above on a clean CI run): two rules reporting the same span came
// out in confirmation order, which depends on where the chunks were cut. Findings are now ordered by
// start, end and rule id.
describe('finding order', () => {
  it('is total: equal spans are ordered by rule id, whatever the chunking', async () => {
    const body = Buffer.from(
      'export CLOUDFLARE_API_TOKEN=E_2nHLsA3JSMTg9lhnkru4rzfp9KTH5V2DiDI47v\nHEROKU_KEY="' +
        'MIIEowIBAAKCAQEAebiRMmEBz3zeadDKVqFW '.repeat(40) +
        '"AUTH_TOKEN=f5e97d8ec0e228a7fcd3687e9cdb5e9a',
    );
    const p = program('all');
    const whole = await scanChunks(p, [body], { contentType: 'text/html' });
    expect(whole.findings.filter((f) => f.start === 28).map((f) => f.ruleId)).toEqual(['cloudflare-api-key', 'generic-api-key']);
    for (const at of [100, 200, 400, 800]) {
      const parts = await scanChunks(p, [body.subarray(0, at), body.subarray(at)], { contentType: 'text/html' });
      expect(parts.findings).toEqual(whole.findings);
    }
  });
});

// A chunk larger than the slice size (kSliceBytes) is decoded and matched slice by slice, and the
// matcher compacts its buffer by the same amount: neither may change the findings. Bodies well past the
// default slice, with matches and multi-byte characters across many slice borders.
describe('slice size', () => {
  const examples = allRuleDefs.flatMap((r) => r.examples.positive.map((e) => e.text));
  const filler = ['Lorem ipsum dolor sit amet, ', 'café crème ', '한국어 ', '😀 ', '\n', '{"k":"v"}, ', '<td>x</td>'];
  const bigBody = (seed: number): Buffer => {
    const parts: string[] = [];
    let n = seed;
    for (let size = 0; size < 150_000; ) {
      n = (n * 1103515245 + 12345) % 2 ** 31;
      const s = n % 5 === 0 ? examples[n % examples.length]! : filler[n % filler.length]!;
      parts.push(s, ' ');
      size += Buffer.byteLength(s) + 1;
    }
    return Buffer.from(parts.join(''), 'utf8');
  };
  for (const ct of ['text/plain', 'application/json', 'text/html']) {
    it(`findings do not depend on it (${ct})`, { timeout: 120_000 }, async () => {
      const p = program('all');
      const bytes = bigBody(ct.length);
      const scan = (sliceBytes?: number) => scanStream(p, [bytes], { contentType: ct }, sliceBytes === undefined ? {} : { sliceBytes });
      const reference = await scan();
      expect(reference.findings.length).toBeGreaterThan(100);
      for (const sliceBytes of [1000, 4093, 65_536, 1 << 20]) expect((await scan(sliceBytes)).findings).toEqual(reference.findings);
    });
  }
});

describe('token gates that read past their token', () => {
  // mailchimp-api-key's gate reads `-us<digit>` after its 32-character token: a body cut before those
  // arrive must not lose the key (the gate passes when unsure).
  it('keep a value cut at every position', async () => {
    const p = program('all');
    const body = Buffer.from('key: 0a1b2c3d4e5f60718293a4b5c6d7e8f9-us12 and nric s8812345z end', 'utf8');
    const whole = (await scanChunks(p, [body], { contentType: 'text/plain' })).findings.map((f) => `${f.ruleId}@${f.start}`);
    expect(whole).toEqual(expect.arrayContaining(['mailchimp-api-key@5', 'sg-nric@52']));
    for (let at = 1; at < body.length; at++) {
      const cutAt = (await scanChunks(p, cut(body, [at]), { contentType: 'text/plain' })).findings.map((f) => `${f.ruleId}@${f.start}`);
      expect(cutAt, `cut at ${at}`).toEqual(whole);
    }
  });
});
