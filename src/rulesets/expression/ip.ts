import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number in its family's space, so CIDRs and ranges are two comparisons. */
export interface IpValue {
  readonly v6: boolean;
  readonly n: bigint;
}

/** An inclusive address range of one family (a single address, a CIDR or `a..b`). */
export interface IpRange {
  readonly v6: boolean;
  readonly lo: bigint;
  readonly hi: bigint;
}

/** Parses an IPv4 or IPv6 literal (no zone, no brackets); null when it is not one. */
export function parseIp(text: string): IpValue | null {
  if (isIPv4(text)) {
    let n = 0n;
    for (const part of text.split('.')) n = (n << 8n) | BigInt(Number(part));
    return { v6: false, n };
  }
  if (!isIPv6(text)) return null;
  let s = text;
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) is two hextets.
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIp(tail);
    if (v4 === null || v4.v6) return null;
    s = `${s.slice(0, lastColon + 1)}${(v4.n >> 16n).toString(16)}:${(v4.n & 0xffffn).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right];
  if (groups.length !== 8) return null;
  let n = 0n;
  for (const g of groups) n = (n << 16n) | BigInt(parseInt(g, 16));
  return { v6: true, n };
}

/** `192.0.2.0/24` → the range it covers; null when malformed or the prefix length is out of range. */
export function parseCidr(text: string): IpRange | null {
  const slash = text.indexOf('/');
  const ip = parseIp(text.slice(0, slash));
  const lenText = text.slice(slash + 1);
  if (ip === null || !/^[0-9]{1,3}$/.test(lenText)) return null;
  const bits = ip.v6 ? 128n : 32n;
  const len = BigInt(Number(lenText));
  if (len > bits) return null;
  const hostMask = (1n << (bits - len)) - 1n;
  return { v6: ip.v6, lo: ip.n & ~hostMask & ((1n << bits) - 1n), hi: ip.n | hostMask };
}

export function inRanges(ip: IpValue, ranges: readonly IpRange[]): boolean {
  for (const r of ranges) if (r.v6 === ip.v6 && ip.n >= r.lo && ip.n <= r.hi) return true;
  return false;
}
