import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScanner, LocalScanner } from '../../src/scanner.js';
import type { ScanMeta, ScanReport, Scanner } from '../../src/types.js';
import { asyncChunks, escapeHtml, exampleTexts, kTestCard, nodeStream, randomBytes, randomCuts, webStream } from './helpers.js';

// The pooled scanner must give exactly the in-thread report (findings, kind, byte counts, truncation,
// notices in order) for the same input, whatever the body's form: string, bytes, chunked stream, Web
// stream, Node stream, a stream that fails half-way, with and without Content-Encoding.

const kCap = 1_048_576;

interface Case {
  name: string;
  bytes: Uint8Array;
  /** The body as a string, when it is UTF-8 text (scan() accepts strings too). */
  text?: string;
  meta: ScanMeta;
  /** Also read as Web, Node and finely cut streams. */
  allStreams?: boolean;
}

function textCase(name: string, text: string, meta: ScanMeta): Case {
  return { name, bytes: Buffer.from(text, 'utf8'), text, meta };
}

/**
 * Managed rules minus the few whose RE2 patterns take seconds to compile and warm up (JWT, HTTP
 * credentials, private keys, generic secrets…): every trigger kind (keywords, digit runs, tokens) and
 * every family is still covered, and the suite stays fast.
 */
export const kRules = { disable: ['jwt', 'http', 'pypi', 'private-key', 'generic', 'url', 'credentials', 'card-track-data', 'iban'] };

/** Sparse filler (no sensitive value), as most real bodies are: large bodies are built from it. */
const kFiller = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ';

/** About `length` bytes: `block`, sparse filler, a card straddling the cap, `block` again past the cap, filler. */
function sparseAround(block: string, length: number): string {
  const fill = (n: number): string => kFiller.repeat(Math.ceil(n / kFiller.length)).slice(0, Math.max(0, n));
  let s = `${block}\n`;
  s += fill(kCap - 8 - Buffer.byteLength(s));
  s += ` ${kTestCard} ${block}\n`;
  return s + fill(length - Buffer.byteLength(s));
}

// Brotli's default quality (11) takes seconds on a megabyte; the decoder does not care.
const br = (b: Uint8Array): Buffer => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } });

let built: Case[] | undefined;
function cases(): Case[] {
  built ??= buildCases();
  return built;
}

function buildCases(): Case[] {
  // Dense bodies are the engine's slow case, and each rule's RE2 pattern is compiled on its first use
  // in every thread: one example of every third rule is variety enough here (the rules have their own
  // tests).
  const texts = exampleTexts(1).filter((_, i) => i % 3 === 0);
  const plain = `${texts.join('\n')}\ncard ${kTestCard}\n`;
  const json = JSON.stringify({ items: texts, card: kTestCard, note: 'naïve café 😀' });
  const html = `<html><body>${texts.map((t) => `<p title="${escapeHtml(t)}">${escapeHtml(t)}</p>`).join('\n')}</body></html>`;
  const xml = `<?xml version="1.0"?><r>${texts.map((t) => `<i>${escapeHtml(t)}</i>`).join('')}</r>`;
  const few = texts.filter((_, i) => i % 10 === 0).join('\n');
  const bigPlain = sparseAround(few, kCap + 300_000);
  const bigJson = JSON.stringify({ head: texts.slice(0, 20), filler: Array.from({ length: 12_000 }, (_, i) => `${i} ${kFiller}`), tail: texts.slice(-20) });
  // One 2-byte character straddles the cap, so the kept bytes end inside it.
  const straddle = `x${'é'.repeat(kCap / 2 + 5000)} ${kTestCard}`;
  const gz = gzipSync(Buffer.from(json));
  const corrupt = Buffer.from(gzipSync(Buffer.from(plain)));
  for (let i = 40; i < 60; i++) corrupt[i] = corrupt[i]! ^ 0x5a;

  return [
    textCase('plain text', plain, { contentType: 'text/plain' }),
    { ...textCase('json', json, { contentType: 'application/json; charset=utf-8' }), allStreams: true },
    textCase('html', html, { contentType: 'text/html' }),
    textCase('xml', xml, { contentType: 'application/xml' }),
    textCase('sniffed json', json, {}),
    textCase('binary content type', plain, { contentType: 'image/png' }),
    textCase('unsupported charset', plain, { contentType: 'text/plain; charset=x-no-such-charset' }),
    textCase('empty body', '', { contentType: 'text/plain' }),
    textCase('lone surrogate', `a\ud800b ${kTestCard} \udc00`, { contentType: 'text/plain' }),
    { name: 'utf-16le', bytes: Buffer.from(plain, 'utf16le'), meta: { contentType: 'text/plain; charset=utf-16le' } },
    {
      name: 'invalid utf-8',
      bytes: Buffer.concat([Buffer.from(plain.slice(0, 3000)), Buffer.from([0xff, 0xe2, 0x82, 0x20, 0xc0, 0xaf]), Buffer.from(json)]),
      meta: { contentType: 'application/json' },
    },
    { ...textCase('text past the cap', bigPlain, { contentType: 'text/plain' }), allStreams: true },
    textCase('json past the cap', bigJson, { contentType: 'application/json' }),
    textCase('character straddling the cap', straddle, { contentType: 'text/plain' }),
    { name: 'gzip', bytes: gz, meta: { contentType: 'application/json', contentEncoding: 'gzip' }, allStreams: true },
    { name: 'x-gzip', bytes: gz, meta: { contentType: 'application/json', contentEncoding: 'X-Gzip' } },
    { name: 'deflate', bytes: deflateSync(Buffer.from(html)), meta: { contentType: 'text/html', contentEncoding: 'deflate' } },
    { name: 'br', bytes: br(Buffer.from(xml)), meta: { contentType: 'application/xml', contentEncoding: 'br' } },
    {
      name: 'gzip then br',
      bytes: br(gzipSync(Buffer.from(plain))),
      meta: { contentType: 'text/plain', contentEncoding: 'gzip, identity, br' },
    },
    { name: 'identity', bytes: Buffer.from(json), meta: { contentType: 'application/json', contentEncoding: 'identity' } },
    {
      name: 'gzip past the cap',
      bytes: gzipSync(Buffer.from(bigPlain)),
      meta: { contentType: 'text/plain', contentEncoding: 'gzip' },
      allStreams: true,
    },
    { name: 'br past the cap', bytes: br(Buffer.from(bigJson)), meta: { contentType: 'application/json', contentEncoding: 'br' } },
    // Random bytes do not compress: more than the cap of compressed input is needed to decode the cap,
    // and the body is longer than what the pool keeps of an encoded body (the rest is only counted).
    { name: 'gzip of random bytes', bytes: gzipSync(randomBytes(2 * kCap + 500_000, 9)), meta: { contentType: 'text/plain', contentEncoding: 'gzip' } },
    { name: 'truncated gzip', bytes: gz.subarray(0, Math.floor(gz.length / 2)), meta: { contentType: 'application/json', contentEncoding: 'gzip' } },
    { name: 'corrupt gzip', bytes: corrupt, meta: { contentType: 'text/plain', contentEncoding: 'gzip' } },
    { name: 'unsupported coding', bytes: gz, meta: { contentType: 'application/json', contentEncoding: 'zstd' } },
    { name: 'too many codings', bytes: gz, meta: { contentType: 'application/json', contentEncoding: 'gzip, gzip, gzip, gzip' } },
  ];
}

/** Each variant builds a fresh body (streams are consumed) and runs one scanner's method on it. */
type Variant = { name: string; run: (s: Scanner, c: Case) => Promise<ScanReport> };

const variants: Variant[] = [
  { name: 'bytes', run: (s, c) => s.analyze(c.bytes, c.meta) },
  { name: 'string', run: (s, c) => s.analyze(c.text!, c.meta) },
  { name: 'chunked async iterable', run: (s, c) => s.analyzeStream(asyncChunks(randomCuts(c.bytes, c.bytes.length)), c.meta) },
  { name: 'small chunks', run: (s, c) => s.analyzeStream(asyncChunks(randomCuts(c.bytes, 3, 700)), c.meta) },
  { name: 'web stream', run: (s, c) => s.analyzeStream(webStream(randomCuts(c.bytes, 11, 20_000)), c.meta) },
  { name: 'node stream', run: (s, c) => s.analyzeStream(nodeStream(randomCuts(c.bytes, 5, 16_384)), c.meta) },
  {
    name: 'stream failing half-way',
    run: (s, c) => {
      const chunks = randomCuts(c.bytes, 13, 30_000);
      return s.analyzeStream(asyncChunks(chunks, { index: Math.floor(chunks.length / 2), message: 'socket hang up' }), c.meta);
    },
  },
];

const kCoreVariants = ['bytes', 'string', 'chunked async iterable', 'stream failing half-way'];

function variantsFor(c: Case): Variant[] {
  return variants.filter((v) => (v.name !== 'string' || c.text !== undefined) && (c.allStreams === true || kCoreVariants.includes(v.name)));
}

describe('pooled reports equal in-thread reports', () => {
  let local: Scanner;
  let pool: Scanner;
  beforeAll(async () => {
    [local, pool] = await Promise.all([createScanner({ ...kRules, workers: 0 }), createScanner({ ...kRules, workers: 1 })]);
  }, 60_000);
  afterAll(async () => {
    await pool?.close();
  });

  it('createScanner({ workers: 0 }) is the in-thread scanner and the default is not', async () => {
    expect(local).toBeInstanceOf(LocalScanner);
    expect(pool).not.toBeInstanceOf(LocalScanner);
  });

  for (const c of cases()) {
    it(c.name, async () => {
      for (const v of variantsFor(c)) {
        const [want, got] = await Promise.all([v.run(local, c), v.run(pool, c)]);
        expect({ variant: v.name, report: got }).toStrictEqual({ variant: v.name, report: want });
      }
    });
  }

  it('finds something on the example bodies, so the comparison is not vacuous', async () => {
    const plain = cases().find((c) => c.name === 'plain text')!;
    const gz = cases().find((c) => c.name === 'gzip past the cap')!;
    const [a, b] = await Promise.all([pool.analyze(plain.bytes, plain.meta), pool.analyze(gz.bytes, gz.meta)]);
    expect(a.findings.length).toBeGreaterThan(10);
    expect(b.truncated).toBe(true);
    expect(b.bytesScanned).toBe(kCap);
    expect(b.bytesReceived).toBe(gz.bytes.length);
  });

  it('scan() and scanStream() return the report findings', async () => {
    const body = Buffer.from(JSON.stringify({ card: kTestCard }));
    const meta = { contentType: 'application/json' };
    const want = (await local.analyze(body, meta)).findings;
    expect(want.length).toBeGreaterThan(0);
    expect(await pool.scan(body, meta)).toStrictEqual(want);
    expect(await pool.scan(body.toString(), meta)).toStrictEqual(want);
    expect(await pool.scanStream(webStream([body.subarray(0, 9), body.subarray(9)]), meta)).toStrictEqual(want);
  });

  it("leaves the caller's bytes usable", async () => {
    const body = Buffer.alloc(10_000, 'a');
    body.write(kTestCard, 5000);
    await pool.scan(body, { contentType: 'text/plain' });
    expect(body.length).toBe(10_000);
    expect(body.toString('utf8', 5000, 5000 + kTestCard.length)).toBe(kTestCard);
  });
});

describe('pooled reports equal in-thread reports under other options', () => {
  // Financial rules only (cheap to compile). A findings cap hit mid-body and a byte cap that is not a
  // multiple of zlib's 16 KiB output pieces: there, where the body was cut into chunks changes
  // bytesScanned and bytesSeen, so the pool must hand the engine the same cuts. Then a cap below the
  // 512-byte sniffing window, and a zero cap.
  const optionSets = [
    { disable: ['pii', 'secrets'], maxFindings: 3, maxBytes: 300_000 },
    { disable: ['pii', 'secrets'], maxBytes: 300 },
    { disable: ['pii', 'secrets'], maxBytes: 0 },
  ];
  // About 500 KB, a card every 50 rows (about 20 KB apart).
  const spread = Array.from({ length: 1200 }, (_, i) => `row ${i}: ${i % 50 === 0 ? kTestCard : 'nothing here'} ${kFiller.repeat(4)}`).join('\n');
  const bodies: Case[] = [
    { name: 'cards spread out', bytes: Buffer.from(spread), meta: { contentType: 'text/plain' } },
    { name: 'cards spread out, sniffed', bytes: Buffer.from(spread), meta: {} },
    { name: 'cards spread out, gzip', bytes: gzipSync(Buffer.from(spread)), meta: { contentType: 'text/plain', contentEncoding: 'gzip' } },
    { name: 'examples', bytes: Buffer.from(exampleTexts(1).join('\n')), meta: { contentType: 'text/plain' } },
  ];
  for (const options of optionSets) {
    it(JSON.stringify(options), async () => {
      const [local, pool] = await Promise.all([createScanner({ ...options, workers: 0 }), createScanner({ ...options, workers: 1 })]);
      try {
        for (const c of bodies) {
          for (const v of variants.filter((x) => x.name !== 'string')) {
            const [want, got] = await Promise.all([v.run(local, c), v.run(pool, c)]);
            expect({ body: c.name, variant: v.name, report: got }).toStrictEqual({ body: c.name, variant: v.name, report: want });
          }
        }
        if (options.maxFindings !== undefined) {
          const r = await pool.analyze(bodies[0]!.bytes, bodies[0]!.meta);
          expect(r.findings).toHaveLength(3);
          expect(r.notices.map((n) => n.code)).toContain('SDD_FINDINGS_TRUNCATED');
        }
      } finally {
        await pool.close();
      }
    });
  }
});
