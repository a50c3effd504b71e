import { describe, expect, it } from 'vitest';
import { LocalScanner } from '../../src/scanner.js';
import { storedFields, type ScanText } from '../../src/eventlog/index.js';
import { maskRanges } from '../../src/redact/index.js';
import { syntheticAwsKeyId, syntheticCard, syntheticStripeKey } from '../cli/helpers.js';

const scanner = new LocalScanner({ allRules: true });
const scan: ScanText = (text) => scanner.scan(text, { contentType: 'text/plain' });
const every = (): boolean => true;

/** Every form a raw value could be read back in: plain, spaced in fours, percent-encoded, lower case. */
function forms(value: string): string[] {
  const spaced = value.replace(/(.{4})(?=.)/g, '$1 ');
  return [value, spaced, encodeURIComponent(spaced), spaced.replace(/ /g, '+'), value.toLowerCase()];
}

function expectNone(stored: object, values: readonly string[]): void {
  const text = JSON.stringify(stored).toLowerCase();
  for (const v of values) for (const f of forms(v)) expect(text, f).not.toContain(f.toLowerCase());
}

describe('request fields of an event', () => {
  it('mask values in the path as sent, percent-decoded and with + as a space', async () => {
    const card = syntheticCard();
    const aws = syntheticAwsKeyId();
    const spaced = card.replace(/(\d{4})(?=\d)/g, '$1 ');
    const cases = [
      `/acct/${aws}/${card}`,
      `/s/${encodeURIComponent(spaced)}`,
      `/s/${spaced.replace(/ /g, '+')}/x`,
      `/k/${[...aws].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')}`,
    ];
    for (const path of cases) {
      const stored = await storedFields({ host: 'shop.example', path, contentType: 'application/json' }, scan, every);
      expectNone(stored, [card, aws]);
      expect(stored.path, path).toMatch(/\*{4,}/);
      expect(stored.host).toBe('shop.example');
    }
    const plain = await storedFields({ host: 'shop.example', path: `/acct/${aws}/${card}`, contentType: null }, scan, every);
    // The rest of the path stays: only the values are masked, each keeping at most its last 4 characters.
    expect(plain.path).toBe(`/acct/${'*'.repeat(16)}${aws.slice(-4)}/${'*'.repeat(12)}${card.slice(-4)}`);
    // A percent-encoded value is masked as its decoded value.
    const enc = await storedFields({ host: '', path: `/s/${encodeURIComponent(spaced)}`, contentType: null }, scan, every);
    expect(enc.path).toBe(`/s/${'*'.repeat(15)}${card.slice(-4)}`);
  });

  it('mask values in the Host header, matched in its own case and stored in lower case', async () => {
    const card = syntheticCard();
    const aws = syntheticAwsKeyId();
    for (const host of [`${card}.shop.example`, `${aws}.shop.example:8080`]) {
      const stored = await storedFields({ host, path: '/', contentType: null }, scan, every);
      expectNone(stored, [card, aws]);
      expect(stored.host).toMatch(/^\*+[0-9a-z]{4}\.shop\.example(:8080)?$/);
    }
  });

  it('keep what the zone\'s rules do not select, and leave clean fields as they are', async () => {
    const key = syntheticStripeKey();
    const path = `/hooks/${key}/x`;
    expect((await storedFields({ host: 'a.example', path, contentType: null }, scan, (f) => f.ruleId !== 'stripe-secret-key')).path).toBe(path);
    expect((await storedFields({ host: 'a.example', path, contentType: null }, scan, every)).path).not.toContain(key);
    const clean = { host: 'Shop.Example:8443', path: '/api/v1/users/42%2Fprofile', contentType: 'text/html; charset=utf-8' };
    expect(await storedFields(clean, scan, every)).toEqual({ host: 'shop.example:8443', path: clean.path, contentType: clean.contentType });
  });

  it('bound the path after masking, so a cut never leaves part of a value unmasked', async () => {
    const card = syntheticCard();
    const path = `/${'p'.repeat(2040)}/${card}`; // the card straddles the 2,048-character bound
    const stored = await storedFields({ host: '', path, contentType: null }, scan, every);
    expect(stored.path.length).toBe(2048);
    expect(stored.path).not.toContain(card.slice(0, 6));
  });

  it('mask every field whole when the scan fails', async () => {
    const card = syntheticCard();
    const failing: ScanText = () => Promise.reject(new Error('pool closed'));
    const stored = await storedFields({ host: `${card}.example`, path: `/x/${card}`, contentType: 'text/plain' }, failing, every);
    expectNone(stored, [card]);
  });
});

describe('maskRanges', () => {
  it('masks overlapping and touching ranges as one, and the rest as it is', () => {
    expect(maskRanges('abcdefghijklmnop', [[2, 6], [4, 10], [10, 12]])).toBe('ab********klmnop');
    expect(maskRanges('abc', [])).toBe('abc');
    expect(maskRanges('abcdefgh', [[0, 8]], () => 'XXXXXXXX1234')).toBe('*********234');
  });
});
