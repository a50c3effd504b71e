import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kBase64JsonDecoder, mayHoldCandidate } from '../../src/engine/decoded.js';
import { referenceMatches } from '../../src/rules/reference.js';
import { scanStream, type Program } from '../../src/engine/index.js';
import { program } from './helpers.js';

// The base64 stage (src/engine/decoded.ts): JSON encoded in base64 is decoded once and scanned with the
// same rules; findings point at the base64 characters that encode the value.

const kCard = '4111111111111111';
const kAkia = 'AKIAZ7Q2MBVX4NKW3P5R';
const inner = JSON.stringify({ card: kCard, note: 'renewal', aws: kAkia });
const b64 = (s: string | Buffer, url = false): string => Buffer.from(s).toString(url ? 'base64url' : 'base64');

async function scan(p: Program, body: string, contentType: string) {
  const bytes = Buffer.from(body);
  const r = await scanStream(p, [bytes], { contentType });
  return { r, bytes };
}

/** The text the base64 characters [start, end) of `body` stand for (JSON's `\/` undone first). */
function decodedAt(body: Buffer, start: number, end: number): string {
  return Buffer.from(body.toString('latin1', start, end).replace(/\\\//g, '/'), 'base64').toString('latin1');
}

describe('base64-encoded JSON', () => {
  it('is decoded once and its values reported at the characters that encode them', async () => {
    const { r, bytes } = await scan(program('all'), `{"id":7,"blob":"${b64(inner)}"}`, 'application/json');
    const found = r.findings.filter((f) => f.ruleId === 'card-visa' || f.ruleId === 'aws-access-key-id');
    expect(found.map((f) => f.ruleId).sort()).toEqual(['aws-access-key-id', 'card-visa']);
    for (const f of found) {
      // Whole groups of four characters, inside the base64 value, that decode to text holding the value.
      expect((f.end - f.start) % 4 === 0 || bytes[f.end] === 0x22).toBe(true);
      expect(decodedAt(bytes, f.start, f.end)).toContain(f.ruleId === 'card-visa' ? kCard : kAkia);
      expect(f.redacted).not.toContain(f.ruleId === 'card-visa' ? kCard : kAkia);
    }
    expect(r.findings.some((f) => f.ruleId === 'base64-json')).toBe(false);
  });

  it('maps through JSON escapes in the base64 text and reads the URL-safe alphabet', async () => {
    const notUtf8 = b64(Buffer.concat([Buffer.from(inner.slice(0, -1)), Buffer.from(',"k":"\xff\xfe?"}', 'latin1')]));
    const escapedBody = `{"blob":"${b64(inner + ' '.repeat(40) + '?>?>?>')}"}`.replace(/\//g, '\\/');
    for (const [body, type] of [
      [escapedBody, 'application/json'],
      [`GET /cb?state=${b64(inner, true)}&ok=1`, 'text/plain'],
    ] as const) {
      const { r, bytes } = await scan(program('all'), body, type);
      const card = r.findings.filter((f) => f.ruleId === 'card-visa');
      expect(card, body).toHaveLength(1);
      expect(decodedAt(bytes, card[0]!.start, card[0]!.end)).toContain(kCard);
    }
    // Not UTF-8 text: left as written.
    const { r } = await scan(program('all'), `{"blob":"${notUtf8}"}`, 'application/json');
    expect(r.findings.filter((f) => f.ruleId === 'card-visa')).toEqual([]);
  });

  it('leaves JWTs, binary data and a second level alone', async () => {
    const jwt = `${b64(JSON.stringify({ alg: 'HS256' }), true)}.${b64(JSON.stringify({ card: kCard }), true)}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
    const binary = b64(Buffer.concat([Buffer.from('{"card":"' + kCard + '"'), Buffer.from([0, 1, 2, 3, 0x7d])]));
    const nested = b64(JSON.stringify({ inner: b64(inner) }));
    for (const v of [jwt, binary, nested]) {
      const { r } = await scan(program('all'), `{"v":"${v}"}`, 'application/json');
      expect(r.findings.filter((f) => f.ruleId === 'card-visa' || f.ruleId === 'aws-access-key-id'), v).toEqual([]);
    }
  });

  it('keeps to the findings cap across the decoded texts', async () => {
    const blob = b64(JSON.stringify({ a: kCard, b: '4012888888881881', c: kAkia }));
    const bytes = Buffer.from(`[${Array.from({ length: 5 }, () => `"${blob}"`).join(',')}]`);
    const r = await scanStream(program('all'), [bytes], { contentType: 'application/json' }, { maxFindings: 7 });
    expect(r.findings).toHaveLength(7);
    expect(r.truncated).toBe(true);
  });
});

describe('mayHoldCandidate (the decoder window shortcut)', () => {
  // The shortcut may only skip windows where the decoder's pattern and boundaries (the reference
  // matcher) find no candidate starting in the group: checked on generated text with keywords,
  // dots, padding and JWT-like tokens.
  it('never refuses a range where the reference finds a candidate start', () => {
    const run = (min: number) => fc.string({ unit: fc.constantFrom(...'aZ09+/_-'), minLength: min, maxLength: 30 });
    const piece = fc.oneof(
      fc.constantFrom('.', '=', '==', ' ', '"', 'x', ':'),
      run(1),
      fc.tuple(fc.constantFrom('eyJ', 'ewog', 'W3si'), run(18)).map(([k, r]) => k + r),
    );
    let refused = 0;
    let found = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        const from = text.length === 0 ? 0 : a % text.length;
        const to = Math.min(text.length, from + 1 + (b % 8));
        const starts = referenceMatches(kBase64JsonDecoder, text).map((m) => m.start);
        const inRange = starts.some((s) => s >= from && s < to);
        found += inRange ? 1 : 0;
        if (mayHoldCandidate(text, from, to)) return true;
        refused++;
        return !inRange;
      }),
      { numRuns: 3000, seed: 20261128 },
    );
    // Not vacuous: both answers were given, and candidates were there to lose.
    expect(refused).toBeGreaterThan(100);
    expect(found).toBeGreaterThan(20);
  });

  it('answers as a walk over every run of the range does, refusing as much', () => {
    // The shortcut's definition walked plainly: each run starting in the range, whole.
    const isRun = (c: string | undefined) => c !== undefined && /[A-Za-z0-9+/_-]/.test(c);
    const walk = (text: string, from: number, to: number): boolean => {
      let i = from;
      if (i > 0 && isRun(text[i - 1])) while (i < to && isRun(text[i])) i++;
      while (i < to) {
        if (!isRun(text[i])) {
          i++;
          continue;
        }
        const start = i;
        while (i < text.length && isRun(text[i])) i++;
        if (i === text.length) return true;
        const keyword = ['eyJ', 'eyAi', 'ewog', 'ewoi', 'ew0K', 'W3si', 'W3sK'].some((k) => text.startsWith(k, start));
        if (text[start - 1] !== '.' && text[i] !== '.' && keyword) return true;
      }
      return false;
    };
    const run = fc.string({ unit: fc.constantFrom(...'aZ09+/_-eyJW3s'), maxLength: 12 });
    const piece = fc.oneof(fc.constantFrom('.', '=', ' ', '"', 'é', 'eyJ', 'W3si', 'ewog', '.eyJ'), run);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        const from = text.length === 0 ? 0 : a % (text.length + 1);
        const to = Math.min(text.length, from + 1 + (b % 12));
        expect(mayHoldCandidate(text, from, to)).toBe(walk(text, from, to));
      }),
      { numRuns: 20000, seed: 20261129 },
    );
  });

  it('refuses the segments of a JWT and keeps a base64 JSON value', () => {
    const jwt = `${b64('{"alg":"HS256"}', true)}.${b64('{"sub":"1234567890"}', true)}.c2lnbmF0dXJl`;
    const text = `token=${jwt} and blob=${b64(inner)} end`;
    const header = text.indexOf('eyJ');
    const payload = text.indexOf('eyJ', header + 1);
    expect(mayHoldCandidate(text, header, header + 3)).toBe(false);
    expect(mayHoldCandidate(text, payload, payload + 3)).toBe(false);
    const blob = text.indexOf('blob=') + 5;
    expect(mayHoldCandidate(text, blob, blob + 3)).toBe(true);
    // Unsure at the end of the text received so far.
    expect(mayHoldCandidate('x eyJhbGciOiJIUzI1NiJ9', 2, 5)).toBe(true);
  });
});
