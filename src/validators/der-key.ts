/**
 * Private keys as DER without PEM armour (a key pasted as one base64 line, a `privateKey` field),
 * recognised by their ASN.1 structure rather than by a label (X.690 DER, RFC 8017 A.1.2, RFC 5208 /
 * RFC 5958, RFC 5915). Certificates, public keys and encrypted keys have other structures and fail.
 */

/** One DER tag-length-value at `at` within [.., limit): its tag and content span, or null. */
function tlv(b: Uint8Array, at: number, limit: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > limit) return null;
  const tag = b[at]!;
  let len = b[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 3 || start + n > limit || b[start] === 0) return null;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[start + i]!;
    start += n;
    // DER takes the shortest form: a long form only for lengths of 128 and more.
    if (len < 0x80) return null;
  }
  const end = start + len;
  return end <= limit ? { tag, start, end } : null;
}

const kSequence = 0x30;
const kInteger = 0x02;
const kOctetString = 0x04;
const kOid = 0x06;

export type DerKeyKind = 'pkcs1-rsa' | 'pkcs8' | 'sec1-ec';

/**
 * The kind of private key `der` holds, or null. The whole input must be the one outer SEQUENCE:
 * - PKCS#1 RSAPrivateKey: version 0 and eight INTEGERs (modulus of at least 64 bytes);
 * - PKCS#8 PrivateKeyInfo / OneAsymmetricKey: version 0 or 1, an AlgorithmIdentifier starting with
 *   its OID, then the key as an OCTET STRING of at least 16 bytes;
 * - SEC 1 ECPrivateKey: version 1 and the key as an OCTET STRING of at least 16 bytes.
 */
export function derPrivateKeyKind(der: Uint8Array): DerKeyKind | null {
  const outer = tlv(der, 0, der.length);
  if (outer === null || outer.tag !== kSequence || outer.end !== der.length) return null;
  const version = tlv(der, outer.start, outer.end);
  if (version === null || version.tag !== kInteger || version.end - version.start !== 1) return null;
  const v = der[version.start]!;
  const next = tlv(der, version.end, outer.end);
  if (next === null) return null;
  if (v === 0 && next.tag === kInteger) {
    if (next.end - next.start < 64) return null;
    let count = 0;
    for (let at = version.end; at < outer.end; count++) {
      const t = tlv(der, at, outer.end);
      if (t === null || t.tag !== kInteger) return null;
      at = t.end;
    }
    return count === 8 ? 'pkcs1-rsa' : null;
  }
  if ((v === 0 || v === 1) && next.tag === kSequence) {
    const oid = tlv(der, next.start, next.end);
    const key = tlv(der, next.end, outer.end);
    if (oid === null || oid.tag !== kOid || key === null || key.tag !== kOctetString) return null;
    return key.end - key.start >= 16 ? 'pkcs8' : null;
  }
  if (v === 1 && next.tag === kOctetString) return next.end - next.start >= 16 ? 'sec1-ec' : null;
  return null;
}

/**
 * True when `text` is standard base64 (line breaks allowed, padding only at the end) of a DER
 * private key (see `derPrivateKeyKind`).
 * @example
 * derPrivateKeyBase64Valid(pkcs8.export({ type: 'pkcs8', format: 'der' }).toString('base64')); // true
 */
export function derPrivateKeyBase64Valid(text: string): boolean {
  const b64 = text.replace(/\\[rn]|[\r\n]/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  return derPrivateKeyKind(Buffer.from(b64, 'base64')) !== null;
}
