import type { RuleDef } from '../types.js';
import { ipv4Public, ipv4Valid, ipv6Valid } from '../../validators/ip.js';

const kQuad = '[0-9]{1,3}(?:\\.[0-9]{1,3}){3}';
// A quad and any further dotted groups: `1.2.3.4.5` is taken whole and fails validation, so a dot
// may end an address (the end of a sentence) without a version number's piece being reported.
const kDotted = `${kQuad}(?:\\.[0-9]+)*`;

/** IP addresses: personal data under the GDPR when they identify a subscriber, and infrastructure detail. */
export const networkRules: readonly RuleDef[] = [
  {
    id: 'ip-address',
    description: 'IPv4 address (dotted quad), private or public.',
    family: 'pii',
    tags: ['network', 'ip'],
    enabledByDefault: false,
    note: 'Off by default: pages print server, resolver and example addresses everywhere; enable by id or the ip tag.',
    trigger: { keywords: ['.'], next: '0-9' },
    lead: 3,
    pattern: kDotted,
    maxLength: 15,
    // Not a piece of a longer dotted number (a version 1.2.3.4.5, an OID): see kDotted.
    boundary: { left: 'A-Za-z0-9.', right: 'A-Za-z0-9' },
    validate: ipv4Valid,
    examples: {
      positive: [
        { text: '{"client_ip":"10.24.7.19","status":200}', match: '10.24.7.19' },
        { text: 'Connecting to 81.2.69.160:443...', match: '81.2.69.160' },
        { text: 'Blocked a login from 81.2.69.160.', match: '81.2.69.160' },
      ],
      negative: [{ text: 'version 1.2.3.4.5' }, { text: 'oid 1.3.6.1.4.1.311 end' }, { text: 'build 10.0.19045' }, { text: 'host 300.1.2.3' }],
    },
  },
  {
    id: 'ip-address-public',
    description: 'Public IPv4 address (outside private, loopback, link-local, shared, documentation and multicast ranges).',
    family: 'pii',
    tags: ['network', 'ip'],
    enabledByDefault: false,
    note: 'Off by default: a public address in a response is often a server or CDN address rather than a user\'s.',
    trigger: { keywords: ['.'], next: '0-9' },
    lead: 3,
    pattern: kDotted,
    maxLength: 15,
    boundary: { left: 'A-Za-z0-9.', right: 'A-Za-z0-9' },
    validate: ipv4Public,
    examples: {
      positive: [
        { text: 'X-Forwarded-For: 81.2.69.160, 10.0.0.2', match: '81.2.69.160' },
        { text: '{"lastLoginIp":"145.254.33.18"}', match: '145.254.33.18' },
        { text: 'Last seen at 145.254.33.18.', match: '145.254.33.18' },
      ],
      negative: [{ text: 'X-Forwarded-For: 10.0.0.2' }, { text: 'listen 127.0.0.1:8080' }, { text: 'see 203.0.113.7 (documentation range)' }],
    },
  },
  {
    id: 'ip-address-v6',
    description: 'IPv6 address (eight hex groups, or fewer around one ::).',
    family: 'pii',
    tags: ['network', 'ip'],
    enabledByDefault: false,
    note: 'Off by default, as ip-address. Forms with an embedded IPv4 tail (::ffff:192.0.2.1) or a zone are not matched.',
    // A colon followed by a hex digit or a second colon; the shared pass drops the others (`":"`,
    // `: `), and hits close together form one group, so an address costs one window.
    trigger: { keywords: [':'], next: '0-9A-Fa-f:' },
    // The first colon of an address comes after at most four hex digits.
    lead: 4,
    pattern: '[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}',
    maxLength: 39,
    boundary: { left: 'A-Za-z0-9:.', right: 'A-Za-z0-9:.' },
    validate: (v) => ipv6Valid(v) && /[0-9]/.test(v) && v.length > 2,
    examples: {
      positive: [
        { text: '{"remote_addr":"2a02:1810:4d02:4b00::1c"}', match: '2a02:1810:4d02:4b00::1c' },
        { text: 'peer 2600:1f18:24e6:b900:6b2c:5d1e:7f3a:9c01 connected', match: '2600:1f18:24e6:b900:6b2c:5d1e:7f3a:9c01' },
      ],
      negative: [{ text: 'at 12:30:45 today' }, { text: 'mac 00:1a:2b:3c:4d:5e' }, { text: 'a 1:2:3:4:5:6:7 b' }],
    },
  },
];
