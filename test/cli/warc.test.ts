import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { dechunk, isWarcPath, warcBodies } from '../../src/cli/inputs/warc.js';
import { closeSharedScanners, runCli as runCliWith, sharedRealScanner, tempDir, type RunOptions } from './helpers.js';

const runCli = (argv: string[], opts: RunOptions = {}) => runCliWith(argv, { createScanner: sharedRealScanner, ...opts });
afterAll(closeSharedScanners);

// Synthetic, written for these tests (shop.example.test, the well-known test card numbers).
const kFixture = new URL('./fixtures/synthetic.warc', import.meta.url);
const fixtureBytes = readFileSync(kFixture);

/** One WARC record, as the fixture's are written. */
function record(type: string, n: number, extra: string[], block: Buffer): Buffer {
  const head = ['WARC/1.0', `WARC-Type: ${type}`, `WARC-Record-ID: <urn:uuid:10000000-0000-4000-8000-00000000000${n}>`, ...extra, `Content-Length: ${block.length}`].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]);
}

function span(body: string, value: string): [number, number] {
  const at = Buffer.from(body).indexOf(value);
  return [at, at + Buffer.byteLength(value)];
}

interface Line { path: string; ruleId: string; start: number; end: number; entry: { url: string; method: string; status: number; index: number }; decoded?: unknown }
const ndjson = (out: string): Line[] => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

describe('WARC input', { timeout: 120_000 }, () => {
  it('scans response records with their HTTP headers: chunked joined, method from the request record', async () => {
    const dir = tempDir();
    copyFileSync(kFixture, join(dir, 'crawl.warc'));
    const r = await runCli(['scan', 'crawl.warc', '-f', 'ndjson', '--workers', '0'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const order = '{"order": 17,\n "payment": {"card_number": "4111 1111 1111 1111"}}';
    const checkout = 'receipt\ncard_number: 5555 5555 5555 4444\n';
    const [vs, ve] = span(order, '4111 1111 1111 1111');
    const [ms, me] = span(checkout, '5555 5555 5555 4444');
    expect(ndjson(r.stdout).map((l) => [l.path, l.ruleId, l.start, l.end, l.entry])).toEqual([
      ['crawl.warc', 'card-visa', vs, ve, { url: 'https://shop.example.test/api/order?id=17', method: 'GET', status: 200, index: 2 }],
      ['crawl.warc', 'card-mastercard', ms, me, { url: 'https://shop.example.test/api/checkout', method: 'POST', status: 201, index: 3 }],
    ]);
  });

  it('decodes a gzip Content-Encoding from the HTTP headers, and reads a .warc.gz of gzip members', async () => {
    const body = '{"payment": {"card_number": "4111 1111 1111 1111"}}';
    const http = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n'), gzipSync(body)]);
    const warc = Buffer.concat([
      record('warcinfo', 0, ['Content-Type: application/warc-fields'], Buffer.from('software: tests\r\n')),
      record('response', 1, ['WARC-Target-URI: <https://cdn.example.test/a.json>', 'Content-Type: application/http; msgtype=response'], http),
    ]);
    const dir = tempDir();
    writeFileSync(join(dir, 'a.warc'), warc);
    // One gzip member per record, as crawlers write .warc.gz.
    writeFileSync(join(dir, 'b.warc.gz'), Buffer.concat([gzipSync(fixtureBytes.subarray(0, 0)), gzipSync(warc)]));
    const r = await runCli(['scan', '.', '-f', 'ndjson', '--workers', '0'], { cwd: dir });
    const [s, e] = span(body, '4111 1111 1111 1111');
    expect(ndjson(r.stdout).map((l) => [l.path, l.start, l.end, l.entry.url, l.entry.method, l.decoded])).toEqual([
      ['a.warc', s, e, 'https://cdn.example.test/a.json', '', { contentEncoding: 'gzip', detectedBy: 'header' }],
      ['b.warc.gz', s, e, 'https://cdn.example.test/a.json', '', { contentEncoding: 'gzip', detectedBy: 'header' }],
    ]);
    const text = await runCli(['scan', 'a.warc', '--workers', '0'], { cwd: dir });
    expect(text.stdout).toContain("a.warc#1 (https://cdn.example.test/a.json 200): note: decoded gzip (as the response's Content-Encoding says); offsets are in the decoded body");
  });

  it('reports the records before a truncated one, then SDD_ERR_INPUT_FORMAT; a non-WARC .warc is an error', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cut.warc'), fixtureBytes.subarray(0, fixtureBytes.indexOf('receipt')));
    writeFileSync(join(dir, 'fake.warc'), 'hello');
    const r = await runCli(['scan', '.', '-f', 'json', '--workers', '0'], { cwd: dir });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string; entry: { index: number } }>; errors: Array<{ path: string; code: string; message: string }> };
    expect(doc.results.map((x) => [x.path, x.entry.index])).toEqual([['cut.warc', 2]]);
    expect(doc.errors).toEqual([
      { path: 'cut.warc', code: 'SDD_ERR_INPUT_FORMAT', message: expect.stringMatching(/^WARC record 3 at byte \d+: truncated/) as unknown as string },
      { path: 'fake.warc', code: 'SDD_ERR_INPUT_FORMAT', message: 'not a WARC file: it does not start with "WARC/1."' },
    ]);
  });
});

describe('warc helpers', () => {
  it('joins chunks, keeping what a cut-off capture has', () => {
    expect(dechunk(Buffer.from('3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n')).toString()).toBe('abcde');
    expect(dechunk(Buffer.from('5\r\nab')).toString()).toBe('ab');
  });
  it('names, resource records and skipped record types', () => {
    expect(isWarcPath('x/crawl.WARC.gz')).toBe(true);
    expect(isWarcPath('warc')).toBe(false);
    const { bodies, error } = warcBodies(fixtureBytes);
    expect(error).toBeUndefined();
    expect(bodies.map((b) => [b.entry.index, b.entry.method, b.entry.status, b.contentType])).toEqual([
      [2, 'GET', 200, 'application/json'],
      [3, 'POST', 201, 'text/plain; charset=utf-8'],
      [5, '', 0, 'text/plain'],
    ]);
  });
});
