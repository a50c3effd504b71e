/**
 * PuTTY private key files (`.ppk`, formats 2 and 3, as written by puttygen): a header naming the key
 * type, `Encryption`, `Comment`, `Public-Lines: N` and N base64 lines, optional key-derivation
 * headers (format 3, encrypted), `Private-Lines: M` and M base64 lines, then `Private-MAC` (40 hex
 * digits in format 2, 64 in format 3). The public blob is an SSH wire-format key whose first field
 * repeats the header's key type.
 */

/** The lines of `text`, whether broken by real newlines or by two-character `\n` / `\r\n` escapes. */
function linesOf(text: string): string[] {
  return text.replace(/\\r\\n|\\n/g, '\n').split(/\r?\n/);
}

const kBase64Line = /^[A-Za-z0-9+/]+={0,2}$/;

/** N base64 lines from `lines[at]`; the joined text, or null. */
function block(lines: readonly string[], at: number, n: number): string | null {
  if (n < 1 || n > 128 || at + n > lines.length) return null;
  const part = lines.slice(at, at + n);
  return part.every((l) => kBase64Line.test(l)) ? part.join('') : null;
}

/**
 * True when `text` holds a whole PuTTY private key file (through its `Private-MAC` line).
 * @example
 * ppkValid('PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n…\nPrivate-MAC: …'); // true when consistent
 */
export function ppkValid(text: string): boolean {
  const lines = linesOf(text.trim());
  const head = /^PuTTY-User-Key-File-([23]): ([A-Za-z0-9@.-]{1,64})$/.exec(lines[0] ?? '');
  if (head === null) return false;
  const format = head[1]!;
  const algorithm = head[2]!;
  if (!/^Encryption: (?:none|aes256-cbc)$/.test(lines[1] ?? '') || !(lines[2] ?? '').startsWith('Comment: ')) return false;
  const pub = /^Public-Lines: ([0-9]{1,3})$/.exec(lines[3] ?? '');
  if (pub === null) return false;
  const publicBlob = block(lines, 4, Number(pub[1]));
  if (publicBlob === null) return false;
  // The SSH wire format: a uint32 length, then the key type's name.
  const wire = Buffer.from(publicBlob, 'base64');
  if (wire.length < 4 || wire.readUInt32BE(0) !== algorithm.length || wire.subarray(4, 4 + algorithm.length).toString('latin1') !== algorithm) return false;
  let at = 4 + Number(pub[1]);
  // Format 3's key derivation (Argon2) headers of an encrypted file.
  while (at < lines.length && /^(?:Key-Derivation|Argon2-[A-Za-z]+): \S+$/.test(lines[at]!)) at++;
  const priv = /^Private-Lines: ([0-9]{1,3})$/.exec(lines[at] ?? '');
  if (priv === null || block(lines, at + 1, Number(priv[1])) === null) return false;
  at += 1 + Number(priv[1]);
  const mac = /^Private-MAC: ([0-9a-f]+)$/.exec(lines[at] ?? '');
  return mac !== null && mac[1]!.length === (format === '2' ? 40 : 64);
}
