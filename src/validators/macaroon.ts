/**
 * The binary macaroon, version 2 (libmacaroons' format, which pymacaroons writes and PyPI's upload
 * tokens carry after `pypi-`, in unpadded base64url): version byte 2; the macaroon's optional location
 * (field 1) and identifier (field 2), an end-of-section byte 0; each caveat's optional location (1),
 * identifier (2) and optional verification id (4) closed by 0; a 0 closing the caveats; then the
 * signature (field 6) of 32 bytes, and nothing after it. A field is its type byte, a varint length
 * and that many bytes. A token cut anywhere (a copy that lost its tail) fails to parse.
 *
 * @example
 * macaroonV2Valid('AgETaHR0cDovL2V4YW1wbGUub3JnLwIFa2V5aWQAAAYgfN7nklEcW8b1KEhYBd_psk54XijiqZMB-dcRxgnjjvc'); // true
 * macaroonV2Valid('AgETaHR0cDovL2V4YW1wbGUub3JnLwIFa2V5aWQAAAYgfN7nklEcW8b1KEhYBd'); // false: cut
 */
export function macaroonV2Valid(b64url: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(b64url) || b64url.length % 4 === 1) return false;
  const bytes = Buffer.from(b64url, 'base64url');
  let at = 0;
  if (bytes[at++] !== 2) return false;

  /** Reads one field of type `type` if it is next (or fails when `required`); false on a bad length. */
  const field = (type: number, required: boolean): boolean | 'absent' => {
    if (bytes[at] !== type) return required ? false : 'absent';
    at++;
    let length = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= bytes.length || shift > 28) return false;
      const b = bytes[at++]!;
      length += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    if (at + length > bytes.length) return false;
    at += length;
    return true;
  };
  const section = (caveat: boolean): boolean => {
    if (field(1, false) === false || field(2, true) !== true) return false;
    if (caveat && field(4, false) === false) return false;
    return bytes[at++] === 0;
  };

  if (!section(false)) return false;
  while (at < bytes.length && bytes[at] !== 0) if (!section(true)) return false;
  if (bytes[at++] !== 0) return false;
  // The signature: type 6, length 32, the last 32 bytes.
  return bytes[at] === 6 && bytes[at + 1] === 32 && at + 34 === bytes.length;
}
