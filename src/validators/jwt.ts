/**
 * Structure of a compact JSON Web Token (RFC 7519 / RFC 7515): three base64url segments joined by
 * dots, whose first segment (the JOSE header) decodes to a JSON object naming its algorithm in `alg`,
 * and whose second (the claims set) decodes to a JSON object, unless the header says the payload is
 * itself a JWT (`"cty": "JWT"`, a nested token). The signature segment is only checked for alphabet
 * and length; whether it may be empty depends on `alg` and is the caller's decision.
 *
 * detect-secrets decodes header and payload the same way; a shape-only `eyJ…` match also hits
 * base64 blobs that merely start with `{"`.
 *
 * @example
 * jwtValid(b64url('{"alg":"HS256","typ":"JWT"}') + '.' + b64url('{"sub":"1"}') + '.' + sig); // true
 * jwtValid(b64url('{"typ":"JWT"}') + '.' + b64url('{}') + '.' + sig); // false: no alg
 */
export function jwtValid(token: string): boolean {
  return decodeJwt(token) !== null;
}

/** A token's header and claims, each decoded once; what `jwtValid`, `jwtAlg` and `jwtClaims` read. */
export interface DecodedJwt {
  /** Frozen: tokens with the same header segment share one decoded header. */
  header: Readonly<Record<string, unknown>> & { readonly alg: string };
  /** The claims set; null when the payload is a nested token (`cty: JWT`) and not JSON itself. */
  claims: Record<string, unknown> | null;
}

/**
 * The token decoded when `jwtValid` holds, else null: one decode of header and payload for callers that
 * need the token's validity, `alg` and claims together (a rule's validator runs once per match).
 */
export function decodeJwt(token: string): DecodedJwt | null {
  // Three segments: two dots and no third (found by index, no array of the parts).
  const d1 = token.indexOf('.');
  const d2 = d1 < 0 ? -1 : token.indexOf('.', d1 + 1);
  if (d2 < 0 || token.indexOf('.', d2 + 1) >= 0) return null;
  const h = token.slice(0, d1);
  const p = token.slice(d1 + 1, d2);
  const s = token.slice(d2 + 1);
  const header = decodeHeader(h);
  if (header === null || typeof header.alg !== 'string' || header.alg.length === 0) return null;
  let claims: Record<string, unknown> | null;
  if (typeof header.cty === 'string' && header.cty.toUpperCase() === 'JWT') {
    if (!isBase64Url(p)) return null;
    claims = decodeJwtJson(p);
  } else {
    claims = decodeJwtJson(p);
    if (claims === null) return null;
  }
  if (s.length !== 0 && !isBase64Url(s)) return null;
  return { header: header as DecodedJwt['header'], claims };
}

/**
 * A header segment decoded once: a service signs its tokens with one or two headers, so a body of
 * tokens holds a handful of distinct ones. Frozen, since every token with that header shares it;
 * at most kHeaderCache of them, forgotten all at once past that.
 */
function decodeHeader(segment: string): Readonly<Record<string, unknown>> | null {
  let header = kHeaders.get(segment);
  if (header === undefined) {
    const decoded = decodeJwtJson(segment);
    header = decoded === null ? null : Object.freeze(decoded);
    if (kHeaders.size >= kHeaderCache) kHeaders.clear();
    kHeaders.set(segment, header);
  }
  return header;
}
const kHeaders = new Map<string, Readonly<Record<string, unknown>> | null>();
const kHeaderCache = 256;

/** The `alg` of a token's header, or null when the header is not a JSON object with a string `alg`. */
export function jwtAlg(token: string): string | null {
  const dot = token.indexOf('.');
  const header = decodeJwtJson(dot < 0 ? token : token.slice(0, dot));
  return header !== null && typeof header.alg === 'string' ? header.alg : null;
}

/** The claims of a token (its second segment as a JSON object), or null. */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  return parts.length >= 2 ? decodeJwtJson(parts[1]!) : null;
}

/** One base64url segment decoded as UTF-8 JSON; null unless it is a JSON object. */
export function decodeJwtJson(segment: string): Record<string, unknown> | null {
  const bytes = decodeBase64Url(segment);
  if (bytes === null) return null;
  let text: string;
  try {
    text = kUtf8.decode(bytes);
  } catch {
    return null;
  }
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const kUtf8 = new TextDecoder('utf-8', { fatal: true });
const kBase64Url = /^[A-Za-z0-9_-]*$/;

/** Unpadded base64url (RFC 4648 §5) as JWS requires: no foreign character, no impossible length. */
function isBase64Url(segment: string): boolean {
  return segment.length % 4 !== 1 && kBase64Url.test(segment);
}

/** `segment` decoded when it is unpadded base64url, else null. */
function decodeBase64Url(segment: string): Uint8Array | null {
  return isBase64Url(segment) ? Buffer.from(segment, 'base64url') : null;
}
