/**
 * IP address literals: IPv4 dotted quads (decimal octets, no leading zeros) and IPv6 text forms
 * (RFC 4291 section 2.2: eight groups of 1-4 hex digits, at most one `::`; no embedded IPv4 tail,
 * no zone), and whether an IPv4 address is globally routable (outside RFC 6890's special ranges).
 *
 * @example
 * ipv4Valid('192.0.2.1'); // true
 * ipv6Valid('2001:db8::1'); // true
 * ipv4Public('10.1.2.3'); // false
 */

/** The four octets of a dotted quad, or null. */
export function ipv4Octets(v: string): number[] | null {
  const parts = v.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

export function ipv4Valid(v: string): boolean {
  return ipv4Octets(v) !== null;
}

/**
 * Special-purpose IPv4 blocks (RFC 6890 and successors) as [first octet, second-octet mask,
 * second-octet value, prefix length ≥ 16 third octet or -1]: this network, private (RFC 1918), shared
 * (RFC 6598), loopback, link-local, IETF protocol assignments, documentation (TEST-NET-1/2/3),
 * benchmarking (RFC 2544), multicast and reserved (224/3).
 */
function ipv4Special(o: number[]): boolean {
  const [a, b, c] = [o[0]!, o[1]!, o[2]!];
  if (a === 0 || a === 10 || a === 127 || a >= 224) return true;
  if (a === 100 && b >= 64 && b <= 127) return true;
  if (a === 169 && b === 254) return true;
  if (a === 172 && b >= 16 && b <= 31) return true;
  if (a === 192 && b === 168) return true;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return true;
  if (a === 198 && (b === 18 || b === 19)) return true;
  if (a === 198 && b === 51 && c === 100) return true;
  if (a === 203 && b === 0 && c === 113) return true;
  return false;
}

/** A valid dotted quad outside every special-purpose block: an address on the public internet. */
export function ipv4Public(v: string): boolean {
  const o = ipv4Octets(v);
  return o !== null && !ipv4Special(o);
}

export function ipv6Valid(v: string): boolean {
  if (!/^[0-9A-Fa-f:]+$/.test(v)) return false;
  const halves = v.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | null => {
    if (h === '') return [];
    const g = h.split(':');
    return g.every((x) => x.length >= 1 && x.length <= 4) ? g : null;
  };
  const left = groups(halves[0]!);
  if (left === null) return false;
  if (halves.length === 1) return left.length === 8;
  const right = groups(halves[1]!);
  return right !== null && left.length + right.length <= 7;
}
