/**
 * The credentials of an HTTP Basic `Authorization` header (RFC 7617): standard base64 of
 * `user-id ":" password`, printable text. A `Basic …` value that does not decode to that shape (or
 * decodes to a JSON document) is a word in prose or some other token, not a credential.
 *
 * @example
 * decodeBasicAuth('YWxhZGRpbjpvcGVuc2VzYW1l'); // { user: 'aladdin', password: 'opensesame' }
 * basicAuthCredentialsValid('YWxhZGRpbg=='); // false: no colon
 */
export function decodeBasicAuth(b64: string): { user: string; password: string } | null {
  if (b64.length < 4 || b64.length % 4 === 1 || !kBase64.test(b64)) return null;
  if (b64.includes('=') && b64.length % 4 !== 0) return null;
  let text: string;
  try {
    text = kUtf8.decode(Buffer.from(b64, 'base64'));
  } catch {
    return null;
  }
  // Control characters never occur in a typed user name or password (RFC 7617 §2: no CTLs).
  if (/[\u0000-\u001f\u007f]/u.test(text)) return null;
  // A JSON document (a JWT's header or claims, an encoded config) is some other token's payload.
  if (/^\s*[{[]/.test(text) && isJson(text)) return null;
  const colon = text.indexOf(':');
  if (colon < 1 || colon === text.length - 1) return null;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** True when `b64` decodes to printable `user:password` with both parts non-empty. */
export function basicAuthCredentialsValid(b64: string): boolean {
  return decodeBasicAuth(b64) !== null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const kUtf8 = new TextDecoder('utf-8', { fatal: true });
const kBase64 = /^[A-Za-z0-9+/]+={0,2}$/;
