/**
 * Structure of a PEM-armoured private key block (RFC 7468, the legacy RFC 1421 encrypted form, OpenSSH
 * and OpenPGP armour), as text that may carry its line breaks as real newlines or as the two-character
 * escapes `\n` / `\r` of a pasted `.env` or JSON-in-a-string value. Checks that the body holds at
 * least 64 base64 characters and nothing else, and that it starts the way its label says it must:
 * DER (PKCS#1, SEC 1, DSA, PKCS#8, encrypted PKCS#8) always starts with a SEQUENCE tag, so with `M`;
 * OpenSSH keys with the magic `openssh-key-v1\0`. Bodies of RFC 1421 encrypted keys (with
 * `Proc-Type:` headers) and OpenPGP packets have no fixed start.
 *
 * @example
 * pemPrivateKeyValid('-----BEGIN PRIVATE KEY-----\nMIIE…(≥ 64 base64)…\n-----END PRIVATE KEY-----'); // true
 * pemPrivateKeyValid('-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----'); // false
 */
export function pemPrivateKeyValid(block: string): boolean {
  const m = kHeader.exec(block);
  if (m === null) return false;
  const label = m[1]!.trim();
  let rest = block.slice(m[0].length);
  const end = rest.indexOf('-----END');
  if (end >= 0) rest = rest.slice(0, end);
  // Most blocks are base64 lines between real line breaks, padding only at a line's end: two scans
  // and one removal of the breaks decide those, as the line loop below would.
  if (!kNotPlainBody.test(rest) && !kMisplacedPadding.test(rest)) return bodyValid(label, rest.replace(kLineBreaks, ''), false);
  // Line breaks may be escaped, and the block may be string literals joined in code (`"…" + "…"`).
  const lines = rest.replace(/["'][ \t]*\+?[ \t\r\n]*["']/g, '\n').replace(/\\r\\n|\\n|\\r/g, '\n').split(/\r?\n|\r/);
  let body = '';
  let headers = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (kArmorHeader.test(line)) {
      // Header lines come before the body only.
      if (body !== '') return false;
      headers = true;
      continue;
    }
    // Lines may also be joined by spaces (a key pasted into a one-line variable).
    for (const chunk of line.split(/[ \t]+/)) {
      // OpenPGP armour ends the body with a CRC-24 line `=XXXX`.
      if (label.startsWith('PGP') && /^=[A-Za-z0-9+/]{4}$/.test(chunk)) continue;
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(chunk)) return false;
      body += chunk;
    }
  }
  return bodyValid(label, body, headers);
}

/** The joined base64 body against its label: long enough, and starting as the label says. */
function bodyValid(label: string, body: string, headers: boolean): boolean {
  if (body.length < 64) return false;
  if (label === 'OPENSSH PRIVATE KEY') return body.startsWith('b3BlbnNzaC1rZXktdjE');
  if (label.startsWith('PGP') || headers) return true;
  return body.startsWith('M');
}

/** A character other than base64's and real line breaks: the line loop decides. */
const kNotPlainBody = /[^A-Za-z0-9+/=\r\n]/;
/** Padding that does not end a line of base64: at a line's start, a third `=`, or base64 after it. */
const kMisplacedPadding = /(?:^|[\r\n])=|===|=[A-Za-z0-9+/]/;
const kLineBreaks = /[\r\n]+/g;

const kHeader = /^-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)-----/;
const kArmorHeader = /^[A-Za-z][A-Za-z0-9-]{0,40}: ?\S.*$/;
