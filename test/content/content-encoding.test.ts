import { describe, expect, it } from 'vitest';
import { kMaxCodings, parseContentEncoding } from '../../src/content/index.js';

describe('parseContentEncoding', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['identity', []],
    ['gzip', ['gzip']],
    ['x-gzip', ['gzip']],
    ['GZIP', ['gzip']],
    ['deflate', ['deflate']],
    ['br', ['br']],
    [' gzip , identity,br ', ['gzip', 'br']],
    ['deflate, gzip', ['deflate', 'gzip']],
    [',,gzip,', ['gzip']],
  ] as const)('%j → %j', (header, codings) => {
    expect(parseContentEncoding(header)).toEqual({ codings });
  });

  it('names every unknown coding in the error', () => {
    const r = parseContentEncoding('gzip, zstd, compress');
    expect(r.codings).toEqual(['gzip']);
    expect(r.error).toContain('"zstd"');
    expect(r.error).toContain('"compress"');
  });

  it('refuses more stacked codings than a server would use', () => {
    const header = Array.from({ length: kMaxCodings + 1 }, () => 'gzip').join(',');
    expect(parseContentEncoding(header).error).toMatch(/too many/);
    expect(parseContentEncoding(Array.from({ length: kMaxCodings }, () => 'gzip').join(',')).error).toBeUndefined();
  });
});
