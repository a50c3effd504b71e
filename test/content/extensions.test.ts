import { describe, expect, it } from 'vitest';
import { classifyContentType, contentTypeForPath } from '../../src/content/index.js';

const kindOf = (path: string) => classifyContentType(contentTypeForPath(path).contentType).kind;

describe('contentTypeForPath', () => {
  it.each([
    ['index.html', 'html'],
    ['page.HTM', 'html'],
    ['a/b/data.json', 'json'],
    ['capture.har', 'json'],
    ['events.ndjson', 'json'],
    ['events.jsonl', 'json'],
    ['bundle.js', 'json'],
    ['feed.xml', 'xml'],
    ['feed.rss', 'xml'],
    ['icon.svg', 'xml'],
    ['notes.txt', 'text'],
    ['server.log', 'text'],
    ['table.csv', 'text'],
    ['.env', 'text'],
    ['.env.production', 'text'],
    ['config.yaml', 'text'],
    ['config.yml', 'text'],
    ['README.md', 'text'],
    ['settings.ini', 'text'],
    ['nginx.conf', 'text'],
    ['app.properties', 'text'],
    ['main.ts', 'text'],
    ['script.py', 'text'],
    ['Dockerfile', 'text'],
    ['id_rsa', 'text'],
    ['photo.PNG', 'binary'],
    ['photo.jpeg', 'binary'],
    ['clip.mp4', 'binary'],
    ['font.woff2', 'binary'],
    ['doc.pdf', 'binary'],
    ['archive.zip', 'binary'],
    ['module.wasm', 'binary'],
    ['lib.so', 'binary'],
    ['README', 'unknown'],
    ['data.unknownext', 'unknown'],
  ] as const)('%s is %s', (path, kind) => {
    expect(kindOf(path)).toBe(kind);
    expect(contentTypeForPath(path).contentEncoding).toBeUndefined();
  });

  it('reads a trailing .gz or .br as the Content-Encoding of the inner type', () => {
    expect(contentTypeForPath('logs/app.ndjson.gz')).toEqual({ contentType: 'application/x-ndjson', contentEncoding: 'gzip' });
    expect(contentTypeForPath('page.html.br')).toEqual({ contentType: 'text/html', contentEncoding: 'br' });
    expect(contentTypeForPath('dump.gz')).toEqual({ contentType: undefined, contentEncoding: 'gzip' });
  });

  it('does not decompress what would be skipped as binary anyway', () => {
    const r = contentTypeForPath('backup.tar.gz');
    expect(r.contentEncoding).toBeUndefined();
    expect(classifyContentType(r.contentType).kind).toBe('binary');
    expect(classifyContentType(contentTypeForPath('release.tgz').contentType).kind).toBe('binary');
  });

  it('uses only the file name, whatever the folders are called', () => {
    expect(contentTypeForPath('site.json/readme.txt').contentType).toBe('text/plain');
    expect(contentTypeForPath('C:\\data\\x.json').contentType).toBe('application/json');
  });
});
