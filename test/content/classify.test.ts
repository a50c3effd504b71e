import { describe, expect, it } from 'vitest';
import { classifyContentType, parseMediaType } from '../../src/content/index.js';

describe('classifyContentType', () => {
  it.each([
    ['text/html', 'html'],
    ['application/xhtml+xml', 'html'],
    ['application/json', 'json'],
    ['text/json', 'json'],
    ['application/ld+json', 'json'],
    ['application/problem+json', 'json'],
    ['application/vnd.api+json', 'json'],
    ['application/x-ndjson', 'json'],
    ['application/javascript', 'json'],
    ['text/javascript', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['application/rss+xml', 'xml'],
    ['application/atom+xml', 'xml'],
    ['application/soap+xml', 'xml'],
    ['image/svg+xml', 'xml'],
    ['text/plain', 'text'],
    ['text/csv', 'text'],
    ['text/markdown', 'text'],
    ['text/x-anything-new', 'text'],
    ['application/x-www-form-urlencoded', 'text'],
    ['application/yaml', 'text'],
    ['application/x-yaml', 'text'],
    ['application/toml', 'text'],
    ['application/x-pem-file', 'text'],
    ['image/png', 'binary'],
    ['image/jpeg', 'binary'],
    ['audio/mpeg', 'binary'],
    ['video/mp4', 'binary'],
    ['font/woff2', 'binary'],
    ['application/octet-stream', 'binary'],
    ['application/pdf', 'binary'],
    ['application/zip', 'binary'],
    ['application/gzip', 'binary'],
    ['application/wasm', 'binary'],
    ['application/x-protobuf', 'binary'],
    ['application/msgpack', 'binary'],
    ['application/epub+zip', 'binary'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'binary'],
    ['application/x-some-vendor-thing', 'unknown'],
    ['multipart/byteranges; boundary=x', 'unknown'],
  ] as const)('%s is %s', (header, kind) => {
    expect(classifyContentType(header).kind).toBe(kind);
  });

  it('gives binary types a skip reason naming the type, and others none', () => {
    expect(classifyContentType('IMAGE/PNG').skipReason).toBe('binary media type image/png is not scanned');
    expect(classifyContentType('application/json').skipReason).toBeUndefined();
    expect(classifyContentType(undefined).skipReason).toBeUndefined();
  });

  it('is case-insensitive and ignores whitespace around the type', () => {
    const info = classifyContentType('  Application/JSON ;  Charset = "UTF-8" ');
    expect(info).toEqual({ mediaType: 'application/json', kind: 'json', charset: 'utf-8' });
  });

  it('reads quoted-string charsets with escapes', () => {
    expect(classifyContentType('text/plain; charset="iso-8859-1"').charset).toBe('iso-8859-1');
    expect(classifyContentType('text/plain; charset="wind\\ows-1252"').charset).toBe('windows-1252');
    expect(classifyContentType('text/plain; format=flowed; charset=KOI8-R').charset).toBe('koi8-r');
  });

  it('keeps the first charset parameter, and skips junk parameters', () => {
    expect(classifyContentType('text/html; charset=utf-8; charset=latin1').charset).toBe('utf-8');
    expect(classifyContentType('text/html; ;;garbage; charset=latin1').charset).toBe('latin1');
    expect(classifyContentType('text/html; charset=').charset).toBeUndefined();
    expect(classifyContentType('text/html; q="unterminated').kind).toBe('html');
  });

  it('treats absent, empty and malformed headers as unknown', () => {
    for (const h of [undefined, '', '   ', 'json', '/json', 'text/', 'text/ html', 'te xt/html', '*/*', '"text/html"', 'text/html/extra']) {
      const info = classifyContentType(h);
      expect(info.kind, JSON.stringify(h)).toBe('unknown');
      expect(info.mediaType, JSON.stringify(h)).toBe('');
    }
  });

  it('reads a folded header as Fetch does: the last valid type wins', () => {
    expect(classifyContentType('text/html, application/json').kind).toBe('json');
    expect(classifyContentType('application/json, nonsense').kind).toBe('json');
    expect(classifyContentType('text/plain; charset="a,b", text/plain').charset).toBe('a,b');
  });

  it('treats an unfamiliar type that declares a charset as text', () => {
    expect(classifyContentType('application/x-custom; charset=utf-8').kind).toBe('text');
  });

  it('hands out one frozen result per header value, and stays right past its bound of remembered values', () => {
    const a = classifyContentType('Text/HTML; charset=ISO-8859-1');
    expect(classifyContentType('Text/HTML; charset=ISO-8859-1')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => {
      (a as { kind: string }).kind = 'binary';
    }).toThrow(TypeError);
    // Many distinct values (a hostile stream of headers) cycle through the bounded memo.
    for (let i = 0; i < 1000; i++) {
      const v = i % 3 === 0 ? `image/x-${i}` : i % 3 === 1 ? `application/x-${i}+json; charset=UTF-${i}` : `application/x-${i}`;
      const info = classifyContentType(v);
      expect(info.kind).toBe(i % 3 === 0 ? 'binary' : i % 3 === 1 ? 'json' : 'unknown');
      if (i % 3 === 1) expect(info.charset).toBe(`utf-${i}`);
    }
    expect(classifyContentType('Text/HTML; charset=ISO-8859-1')).toStrictEqual({ mediaType: 'text/html', kind: 'html', charset: 'iso-8859-1' });
  });
});

describe('parseMediaType', () => {
  it('returns lower-cased essence and parameters', () => {
    const mt = parseMediaType('Multipart/Form-Data; Boundary="----abc; def"');
    expect(mt?.essence).toBe('multipart/form-data');
    expect(mt?.params.get('boundary')).toBe('----abc; def');
  });
  it('rejects non-token characters in type and subtype', () => {
    expect(parseMediaType('text/ht(ml')).toBeNull();
    expect(parseMediaType('te@xt/html')).toBeNull();
  });
});
