import { describe, expect, it } from 'vitest';
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
