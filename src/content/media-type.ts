/**
 * RFC 9110 §8.3.1 media-type parsing, tolerant the way browsers are (Fetch "extract a MIME type"):
 * a header that was folded from several fields (`text/html, application/json`) yields its last valid
 * media type, malformed parameters are skipped rather than failing the whole value, and only a
 * malformed `type/subtype` makes the value unusable.
 */

/** A parsed media type: lower-cased `type`/`subtype`, parameter names lower-cased, values as sent. */
export interface MediaType {
  type: string;
  subtype: string;
  /** Lower-cased `type/subtype`. */
  essence: string;
  params: Map<string, string>;
}

// RFC 9110 tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const kToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isOws(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/** Splits on `sep` outside quoted strings (a `,` inside `charset="a,b"` is not a separator). */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      cur += c;
      if (c === '\\' && i + 1 < s.length) cur += s[++i]!;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
      cur += c;
    } else if (c === sep) {
      parts.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  parts.push(cur);
  return parts;
}

/** Value of a parameter: a token, or a quoted-string with its backslash escapes removed. */
function parseParamValue(raw: string): string | undefined {
  if (raw.startsWith('"')) {
    let out = '';
    for (let i = 1; i < raw.length; i++) {
      const c = raw[i]!;
      if (c === '\\') {
        if (i + 1 < raw.length) out += raw[++i]!;
      } else if (c === '"') {
        // Anything after the closing quote is junk; keep the value (browsers do the same).
        return out;
      } else {
        out += c;
      }
    }
    // Unterminated quoted-string: tolerated, value runs to the end.
    return out;
  }
  return raw === '' ? undefined : raw;
}

/** Parses one media type (no commas). Returns null when `type/subtype` is malformed. */
function parseOneMediaType(value: string): MediaType | null {
  const parts = splitOutsideQuotes(value, ';');
  const head = (parts[0] ?? '').trim();
  const slash = head.indexOf('/');
  if (slash <= 0) return null;
  const type = head.slice(0, slash).toLowerCase();
  const subtype = head.slice(slash + 1).trimEnd().toLowerCase();
  if (!kToken.test(type) || !kToken.test(subtype)) return null;
  const params = new Map<string, string>();
  for (const p of parts.slice(1)) {
    let i = 0;
    while (isOws(p[i])) i++;
    const eq = p.indexOf('=', i);
    if (eq < 0) continue;
    const name = p.slice(i, eq).toLowerCase();
    // RFC 9110 has no whitespace around "=", but senders do it; browsers drop such parameters,
    // we keep them since the only parameter we use is charset and the intent is unambiguous.
    const nameTrim = name.trimEnd();
    if (!kToken.test(nameTrim)) continue;
    let rawValue = p.slice(eq + 1);
    while (isOws(rawValue[0])) rawValue = rawValue.slice(1);
    if (!rawValue.startsWith('"')) rawValue = rawValue.trimEnd();
    const v = parseParamValue(rawValue);
    // First occurrence wins (Fetch's MIME type parser).
    if (v !== undefined && !params.has(nameTrim)) params.set(nameTrim, v);
  }
  return { type, subtype, essence: `${type}/${subtype}`, params };
}

/**
 * Parses a `Content-Type` header value. A comma-joined list is read as Fetch does: the last valid
 * media type wins, and it keeps an earlier charset when the essence is unchanged and it has none.
 * `*\/*` (as in `Accept`) is not a content type and is skipped.
 */
export function parseMediaType(header: string): MediaType | null {
  let result: MediaType | null = null;
  for (const piece of splitOutsideQuotes(header, ',')) {
    const mt = parseOneMediaType(piece);
    if (mt === null || mt.essence === '*/*') continue;
    if (result !== null && result.essence === mt.essence && !mt.params.has('charset')) {
      const cs = result.params.get('charset');
      if (cs !== undefined) mt.params.set('charset', cs);
    }
    result = mt;
  }
  return result;
}
