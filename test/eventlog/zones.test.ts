import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventsOf, hostName, parseZoneArgs, pathOf, ServeError, zoneIdOfHost, ZoneResolver } from '../../src/eventlog/index.js';

const A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccccccccccccccccccc';

describe('zones', () => {
  it('reads the host name of a Host header', () => {
    expect(hostName('Shop.Example:8080')).toBe('shop.example');
    expect(hostName('shop.example.')).toBe('shop.example');
    expect(hostName('[::1]:8080')).toBe('[::1]');
    expect(hostName('bad host')).toBe('');
    expect(hostName(undefined)).toBe('');
  });

  it('derives a stable zone id from the host: the first 32 hex digits of its SHA-256', () => {
    expect(zoneIdOfHost('Shop.Example:443')).toBe(createHash('sha256').update('shop.example').digest('hex').slice(0, 32));
    expect(new ZoneResolver().zoneOf('shop.example')).toBe(zoneIdOfHost('shop.example'));
  });

  it('maps exact hosts, then the longest wildcard suffix, then the default zone', () => {
    const z = new ZoneResolver(parseZoneArgs([`shop.example=${A}`, `*.example=${B}`, `*.eu.example=${C}`, A.replace(/a/g, 'd')]));
    expect(z.zoneOf('shop.example:8080')).toBe(A);
    expect(z.zoneOf('www.example')).toBe(B);
    expect(z.zoneOf('fr.eu.example')).toBe(C);
    expect(z.zoneOf('example')).toBe('d'.repeat(32));
    expect(z.zoneOf('other.test')).toBe('d'.repeat(32));
  });

  it('refuses malformed zone arguments', () => {
    for (const bad of [['shop=123'], ['nothex'], [A, B], [`bad host=${A}`]]) {
      expect(() => parseZoneArgs(bad), bad.join(' ')).toThrow(ServeError);
    }
  });
});

describe('events', () => {
  it('store the path without its query string or fragment', () => {
    expect(pathOf('/reset?token=abc#x')).toBe('/reset');
    expect(pathOf('http://shop.example/a/b?k=v')).toBe('/a/b');
  });

  it('are one per finding with the exchange\'s metadata', () => {
    const [e] = eventsOf(
      { requestId: 'ab'.repeat(16), timestamp: 0, zone: A, method: 'GET', status: 200, contentEncoding: null, fields: { host: 'Shop.Example', path: '/a', contentType: null } },
      { host: 'shop.example', path: '/a', contentType: null },
      [{ ruleId: 'card-visa', description: 'Visa', tags: ['financial-information'], start: 1, end: 17, redacted: '************1111', confidence: 'high' }],
    );
    expect(e).toMatchObject({ id: `${'ab'.repeat(16)}-0`, timestamp: '1970-01-01T00:00:00.000Z', action: 'log', redacted: '************1111', path: '/a', host: 'shop.example' });
  });
});
