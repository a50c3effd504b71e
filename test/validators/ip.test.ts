import { BlockList, isIPv4, isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4Public, ipv4Valid, ipv6Valid } from '../../src/validators/ip.js';

/**
 * The second implementation is Node's own address parser (node:net isIPv4/isIPv6) and a BlockList of
 * the IANA IPv4 special-purpose registry's blocks, written as CIDRs here.
 */
const kSpecial = new BlockList();
for (const [net, len] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) kSpecial.addSubnet(net, len, 'ipv4');

const octet = fc.integer({ min: 0, max: 255 });
const quad = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));

describe('ipv4Valid / ipv4Public', () => {
  it('agrees with node:net on dotted quads and near misses', () => {
    const text = fc.oneof(quad, fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,4}){2,4}$/));
    fc.assert(
      fc.property(text, (v) => {
        expect(ipv4Valid(v), v).toBe(isIPv4(v));
      }),
      { numRuns: 5000 },
    );
  });

  it('calls an address public exactly when no special-purpose block holds it', () => {
    fc.assert(
      fc.property(quad, (v) => {
        expect(ipv4Public(v), v).toBe(!kSpecial.check(v, 'ipv4'));
      }),
      { numRuns: 20000 },
    );
    for (const v of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.0', '172.32.0.1', '198.20.0.1', '223.255.255.255']) expect(ipv4Public(v), v).toBe(true);
    for (const v of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '192.0.2.10', '203.0.113.7', '224.0.0.1', '255.255.255.255']) {
      expect(ipv4Public(v), v).toBe(false);
    }
  });

  it.each(['1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.-4', ''])('rejects %j', (v) => expect(ipv4Valid(v)).toBe(false));
});

describe('ipv6Valid', () => {
  it("accepts RFC 4291's text forms", () => {
    for (const v of ['ABCD:EF01:2345:6789:ABCD:EF01:2345:6789', '2001:DB8:0:0:8:800:200C:417A', '2001:DB8::8:800:200C:417A', 'FF01::101', '::1', '::']) {
      expect(ipv6Valid(v), v).toBe(true);
    }
  });

  it('agrees with node:net on addresses written out, compressed and broken', () => {
    const group = fc.stringMatching(/^[0-9a-fA-F]{1,5}$/);
    const text = fc.tuple(fc.array(group, { minLength: 0, maxLength: 9 }), fc.nat(9), fc.boolean()).map(([gs, at, compress]) => {
      if (!compress) return gs.join(':');
      return `${gs.slice(0, at).join(':')}::${gs.slice(at).join(':')}`;
    });
    fc.assert(
      fc.property(text, (v) => {
        expect(ipv6Valid(v), v).toBe(isIPv6(v));
      }),
      { numRuns: 5000 },
    );
  });

  it.each(['1:2:3:4:5:6:7', '1::2::3', '12345::1', '1:2:3:4:5:6:7:8:9', 'g::1', '12:30:45'])('rejects %j', (v) => expect(ipv6Valid(v)).toBe(false));
});
