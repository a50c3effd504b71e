import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJwt, decodeJwtJson, jwtAlg, jwtClaims, jwtValid } from '../../src/validators/jwt.js';

const enc = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v), 'utf8').toString('base64url');
const sig = (n = 32) => randomBytes(n).toString('base64url');
const jwt = (header: unknown, claims: unknown, s = sig()) => `${enc(header)}.${enc(claims)}.${s}`;

describe('jwtValid', () => {
  it('accepts the examples of RFC 7519 (§3.1, HS256; §6.1, an unsecured JWT with an empty signature)', () => {
    const header = 'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9';
    const claims = 'eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ';
    const rfc3_1 = `${header}.${claims}.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk`;
    const rfc6_1 = `eyJhbGciOiJub25lIn0.${claims}.`;
    expect(jwtValid(rfc3_1)).toBe(true);
    expect(jwtAlg(rfc3_1)).toBe('HS256');
    expect(jwtClaims(rfc3_1)).toEqual({ iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true });
    expect(jwtValid(rfc6_1)).toBe(true);
    expect(jwtAlg(rfc6_1)).toBe('none');
  });

  it.each([
    ['HS256', jwt({ alg: 'HS256', typ: 'JWT' }, { sub: '1', iat: 1 })],
    ['RS256 with kid', jwt({ alg: 'RS256', kid: 'k1' }, { iss: 'x', aud: ['a', 'b'] }, sig(256))],
    ['ES256', jwt({ typ: 'JWT', alg: 'ES256' }, {}, sig(64))],
    ['alg none, empty signature', jwt({ alg: 'none' }, { sub: '1' }, '')],
    ['nested JWT payload', `${enc({ alg: 'HS256', cty: 'JWT' })}.${sig(40)}.${sig()}`],
    ['header with spaces', jwt('{ "alg" : "HS384" }', { a: 1 })],
    ['non-ASCII claims', jwt({ alg: 'HS256' }, { name: '김철수' })],
  ])('accepts %s', (_n, token) => {
    expect(jwtValid(token)).toBe(true);
  });

  it.each([
    ['header without alg', jwt({ typ: 'JWT' }, { sub: '1' })],
    ['empty alg', jwt({ alg: '' }, { sub: '1' })],
    ['numeric alg', jwt({ alg: 256 }, { sub: '1' })],
    ['header is an array', jwt(['alg', 'HS256'], { sub: '1' })],
    ['header is not JSON', `${enc('{alg:HS256}')}.${enc({ sub: '1' })}.${sig()}`],
    ['header is random bytes', `eyJ${sig(20)}.${enc({ sub: '1' })}.${sig()}`],
    ['payload is not a JSON object', jwt({ alg: 'HS256' }, 'just text')],
    ['payload is a JSON array', jwt({ alg: 'HS256' }, [1, 2])],
    ['two segments', `${enc({ alg: 'HS256' })}.${enc({ sub: '1' })}`],
    ['four segments', `${jwt({ alg: 'HS256' }, { sub: '1' })}.${sig()}`],
    ['padding in a segment', `${enc({ alg: 'HS256' })}=.${enc({ sub: '1' })}.${sig()}`],
    ['standard base64 characters', `${enc({ alg: 'HS256' })}.${enc({ sub: '1' })}.ab+/cd`],
    ['impossible segment length', `${enc({ alg: 'HS256' })}.${enc({ sub: '1' })}.abcde`],
    ['header not UTF-8', `${Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]).toString('base64url')}.${enc({})}.${sig()}`],
  ])('rejects %s', (_n, token) => {
    expect(jwtValid(token)).toBe(false);
  });

  it('a one-character change in the header breaks it', () => {
    const good = jwt({ alg: 'HS256', typ: 'JWT' }, { sub: '1' });
    expect(jwtValid(good)).toBe(true);
    // eyJhbGciOi… → eyJhbGcjOi…: the header no longer decodes to JSON.
    expect(jwtValid(good.replace('eyJhbGci', 'eyJhbGcj'))).toBe(false);
  });
});

describe('jwtAlg / jwtClaims / decodeJwtJson', () => {
  it('reads the alg and the claims', () => {
    const t = jwt({ alg: 'none' }, { role: 'anon', iss: 'supabase' }, '');
    expect(jwtAlg(t)).toBe('none');
    expect(jwtClaims(t)).toEqual({ role: 'anon', iss: 'supabase' });
  });
  it('returns null for non-JSON', () => {
    expect(jwtAlg('not-a-token')).toBeNull();
    expect(jwtClaims('onlyone')).toBeNull();
    expect(decodeJwtJson(enc('[1]'))).toBeNull();
    expect(decodeJwtJson('a')).toBeNull();
  });
});

describe('decodeJwt', () => {
  // The one-decode reader must say what the three separate readers say, token by token.
  const agrees = (t: string) => {
    const d = decodeJwt(t);
    expect(d !== null).toBe(jwtValid(t));
    if (d === null) return;
    expect(d.header.alg).toBe(jwtAlg(t));
    expect(d.claims).toEqual(jwtClaims(t));
  };

  it('agrees with jwtValid, jwtAlg and jwtClaims on the examples above and their breakages', () => {
    const tokens = [
      jwt({ alg: 'HS256', typ: 'JWT' }, { sub: '1' }),
      jwt({ alg: 'none' }, { role: 'anon', iss: 'supabase' }, ''),
      `${enc({ alg: 'HS256', cty: 'JWT' })}.${sig(40)}.${sig()}`,
      `${enc({ alg: 'HS256', cty: 'jwt' })}.${enc({ sub: '1' })}.${sig()}`,
      jwt({ typ: 'JWT' }, { sub: '1' }),
      jwt({ alg: 'HS256' }, [1, 2]),
      jwt({ alg: 'HS256' }, { sub: '1' }, 'a'),
      `${enc({ alg: 'HS256' })}.${enc({ sub: '1' })}`,
      'a.b.c.d',
    ];
    for (const t of tokens) agrees(t);
  });

  it('agrees with them on random three-segment strings built from JSON and base64url pieces', () => {
    const json = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ alg: fc.oneof(fc.constantFrom('HS256', 'none', 'NONE', ''), fc.integer()), cty: fc.option(fc.constantFrom('JWT', 'jwt', 'x')) }).map((v) => JSON.stringify(v)),
    );
    const segment = fc.oneof(json.map(enc), fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/), fc.constant(''));
    fc.assert(fc.property(segment, segment, segment, (h, p, s) => agrees(`${h}.${p}.${s}`)), { numRuns: 500 });
  });
});

describe('decodeJwt header cache', () => {
  it('decodes each header segment once, frozen and shared, and stays right past its bound', () => {
    const tokens = Array.from({ length: 300 }, (_, i) => jwt({ alg: 'HS256', kid: `k${i}` }, { sub: String(i) }));
    for (const round of [0, 1]) {
      for (let i = 0; i < tokens.length; i++) {
        const d = decodeJwt(tokens[i]!)!;
        expect(d.header.kid, `round ${round}`).toBe(`k${i}`);
        expect(d.claims!.sub).toBe(String(i));
        expect(Object.isFrozen(d.header)).toBe(true);
      }
    }
    // Tokens sharing a header share its object; a header that is not JSON is refused every time.
    expect(decodeJwt(jwt({ alg: 'HS256' }, { a: 1 }))!.header).toBe(decodeJwt(jwt({ alg: 'HS256' }, { b: 2 }))!.header);
    const bad = `${Buffer.from('not json').toString('base64url')}.${enc({ sub: '1' })}.${sig()}`;
    expect(decodeJwt(bad)).toBeNull();
    expect(decodeJwt(bad)).toBeNull();
  });
});

