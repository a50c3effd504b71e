import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { looksLikeJsonPrefix, sniffKind } from '../../src/content/index.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const concat = (...parts: Array<Uint8Array | number[]>): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

describe('sniffKind', () => {
  it.each([
    ['{"user":"alice"}', 'json'],
    ['\n\t  [ {"a": 1}, {"b": [true, null]} ]', 'json'],
    ['{"a":1}\n{"a":2}\n', 'json'],
    ['{"truncated": "in the mid', 'json'],
    [")]}'\n[\"xssi\"]", 'json'],
    ['while(1);{"a":1}', 'json'],
    ['[section]\nkey=value', 'text'],
    ['[2024-01-01 12:00:00] INFO started', 'text'],
    ['{ this is not json }', 'text'],
    ['"a bare string"', 'text'],
    ['42', 'text'],
    ['<?xml version="1.0"?><feed/>', 'xml'],
    ['<?xml version="1.0"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml">', 'html'],
    ['<!DOCTYPE html><html><body>x', 'html'],
    ['<!doctype HTML>', 'html'],
    ['  <html lang="en">', 'html'],
    ['<HEAD><TITLE>x</TITLE>', 'html'],
    ['<div class="a">', 'html'],
    ['<p>hello</p>', 'html'],
    ['<!-- generated --><html>', 'html'],
    ['<!-- generated -->\n<?xml version="1.0"?><a/>', 'xml'],
    ['<soap:Envelope xmlns:soap="x">', 'xml'],
    ['<svg xmlns="http://www.w3.org/2000/svg">', 'xml'],
    ['<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN">', 'xml'],
    ['hello world', 'text'],
    ['key=value\nother=1\n', 'text'],
    ['', 'text'],
    ['BZh is how the word starts', 'text'],
    ['\x1b[31mred log line\x1b[0m', 'text'],
  ] as const)('%j is %s', (body, kind) => {
    expect(sniffKind(enc(body))).toBe(kind);
  });

  it('skips a UTF-8 BOM', () => {
    expect(sniffKind(concat([0xef, 0xbb, 0xbf], enc('{"a":1}')))).toBe('json');
    expect(sniffKind(concat([0xef, 0xbb, 0xbf], enc('<html>')))).toBe('html');
  });

  it('decodes UTF-16 with a BOM instead of calling its NUL bytes binary', () => {
    const le = (s: string) => concat([0xff, 0xfe], [...s].flatMap((c) => [c.charCodeAt(0), 0]));
    const be = (s: string) => concat([0xfe, 0xff], [...s].flatMap((c) => [0, c.charCodeAt(0)]));
    expect(sniffKind(le('{"a":1}'))).toBe('json');
    expect(sniffKind(be('<html><body>'))).toBe('html');
    expect(sniffKind(le('plain words'))).toBe('text');
  });

  it.each([
    ['PNG', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]],
    ['JPEG', [0xff, 0xd8, 0xff, 0xe0]],
    ['GIF', [...'GIF89a'].map((c) => c.charCodeAt(0))],
    ['PDF', [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0))],
    ['ZIP', [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]],
    ['gzip', [0x1f, 0x8b, 0x08, 0x00]],
    ['bzip2', [...'BZh91AY&SY'].map((c) => c.charCodeAt(0))],
    ['WEBP', [...'RIFF\x10\x00\x00\x00WEBPVP8 '].map((c) => c.charCodeAt(0))],
  ])('%s magic is binary', (_name, bytes) => {
    expect(sniffKind(Uint8Array.from(bytes))).toBe('binary');
  });

  it('calls a NUL or other binary control byte binary, but not TAB, LF, FF, CR or ESC', () => {
    expect(sniffKind(enc('text with a \0 inside'))).toBe('binary');
    expect(sniffKind(enc('text with a \x01 inside'))).toBe('binary');
    expect(sniffKind(enc('tab\tline\nfeed\fret\rurn\x1b'))).toBe('text');
  });

  it('looks only at the head', () => {
    const body = concat(enc('x'.repeat(4096)), [0]);
    expect(sniffKind(body)).toBe('text');
  });
});

describe('looksLikeJsonPrefix', () => {
  const container = fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()));

  it('accepts every prefix of a JSON container (a sniffed head is cut anywhere)', () => {
    fc.assert(
      fc.property(container, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        for (let i = 1; i <= text.length; i++) {
          if (!looksLikeJsonPrefix(text.slice(0, i))) throw new Error(`rejected prefix ${JSON.stringify(text.slice(0, i))}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('accepts NDJSON', () => {
    fc.assert(
      fc.property(fc.array(container, { minLength: 1, maxLength: 5 }), (values) => looksLikeJsonPrefix(values.map((v) => JSON.stringify(v)).join('\n'))),
    );
  });

  it('rejects JSON followed by a syntax error', () => {
    fc.assert(
      fc.property(container, fc.constantFrom('}', ']', ':', 'x', ',,', '@'), (value, junk) => !looksLikeJsonPrefix(`${JSON.stringify(value)}${junk}`)),
    );
  });

  it('rejects common non-JSON starts', () => {
    for (const s of ['[section]', '[1, 2,, 3]', '{a: 1}', "{'a': 1}", '[INFO] x', '{"a" 1}', '{"a":1,}x', 'true', '']) {
      expect(looksLikeJsonPrefix(s), s).toBe(false);
    }
  });
});
