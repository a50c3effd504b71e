import { describe, expect, it } from 'vitest';
import { basicAuthCredentialsValid, decodeBasicAuth } from '../../src/validators/basic-auth.js';

describe('decodeBasicAuth', () => {
  it('decodes the RFC 7617 §2 example', () => {
    // "Aladdin" / "open sesame" from RFC 7617.
    expect(decodeBasicAuth('QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toEqual({ user: 'Aladdin', password: 'open sesame' });
  });

  it('decodes the RFC 7617 §2.1 UTF-8 example', () => {
    // user "test", password "123£" encoded as UTF-8.
    expect(decodeBasicAuth('dGVzdDoxMjPCow==')).toEqual({ user: 'test', password: '123£' });
  });

  it('keeps colons in the password (only the first one separates)', () => {
    expect(decodeBasicAuth(Buffer.from('svc:a:b:c').toString('base64'))).toEqual({ user: 'svc', password: 'a:b:c' });
  });

  it('decodes a value with + in the standard alphabet', () => {
    expect(decodeBasicAuth('YTpiPz5+fn4=')).toEqual({ user: 'a', password: 'b?>~~~' });
  });

  it('keeps credentials that only look like JSON (not a whole document)', () => {
    expect(decodeBasicAuth(Buffer.from('{svc}:p4ss{').toString('base64'))).toEqual({ user: '{svc}', password: 'p4ss{' });
    expect(decodeBasicAuth(Buffer.from('[admin]:x"y}').toString('base64'))).toEqual({ user: '[admin]', password: 'x"y}' });
  });

  it('accepts unpadded base64', () => {
    expect(decodeBasicAuth('QWxhZGRpbjpvcGVuIHNlc2FtZQ')).toEqual({ user: 'Aladdin', password: 'open sesame' });
  });

  it.each([
    ['one padding character short', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ='],
    ['no colon', Buffer.from('Aladdin').toString('base64')],
    ['empty password', Buffer.from('Aladdin:').toString('base64')],
    ['empty user', Buffer.from(':open sesame').toString('base64')],
    ['control character', Buffer.from('Aladdin:open\nsesame').toString('base64')],
    ['invalid UTF-8', Buffer.from([0x61, 0x3a, 0xc3, 0x28]).toString('base64')],
    ['a word, not base64 of anything useful', 'realm'],
    // "a:b?>~~~" is YTpiPz5+fn4= in standard base64; HTTP Basic never uses the base64url alphabet.
    ['base64url alphabet', 'YTpiPz5-fn4'],
    // JSON documents have colons but are other tokens' payloads (a JWT header, encoded settings).
    ['a JSON object', Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64')],
    ['a JSON array', Buffer.from(' [{"user":"svc","scope":"read"}]').toString('base64')],
  ])('rejects %s', (_n, b64) => {
    expect(decodeBasicAuth(b64)).toBeNull();
    expect(basicAuthCredentialsValid(b64)).toBe(false);
  });
});
