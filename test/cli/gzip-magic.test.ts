import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { peekStream, startsWithGzip } from '../../src/cli/inputs/magic.js';
import { closeSharedScanners, fakeFactory, runCli as runCliWith, sharedRealScanner, syntheticCard, tempDir, type RunOptions } from './helpers.js';

const runCli = (argv: string[], opts: RunOptions = {}) => runCliWith(argv, { createScanner: sharedRealScanner, ...opts });
afterAll(closeSharedScanners);

/** A JSON body with a synthetic Luhn-valid card under a context word, and the card's byte span in it. */
function cardBody(): { body: string; start: number; end: number } {
  const card = syntheticCard();
  const body = JSON.stringify({ order: 17, payment: { card_number: card } });
  const start = Buffer.from(body).indexOf(card);
  return { body, start, end: start + card.length };
}

describe('gzip recognised by its magic bytes', { timeout: 120_000 }, () => {
  it('decodes gzip piped to standard input and reports offsets in the decoded body', async () => {
    const { body, start, end } = cardBody();
    const r = await runCli(['scan', '-', '--format', 'ndjson', '--workers', '0'], { stdin: gzipSync(body) });
    expect(r.code, r.stderr).toBe(1);
    const found = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const card = found.find((f) => f.ruleId === 'card-visa');
    expect(card, r.stdout).toMatchObject({ path: '-', start, end, decoded: { contentEncoding: 'gzip', detectedBy: 'magic' } });
  });

  it('says so in text output, and still decodes with --content-type given', async () => {
    const { body, start, end } = cardBody();
    const r = await runCli(['scan', '--workers', '0', '--content-type', 'application/json'], { stdin: gzipSync(body) });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('<stdin>: note: decoded gzip (recognised by its magic bytes); offsets are in the decoded body');
    expect(r.stdout).toContain(`<stdin>:1:${start + 1} (${start}-${end})  card-visa`);
    expect(r.stdout).not.toMatch(/binary skipped/);
  });

  it('decodes a gzipped file whose name does not say so, small or streamed', async () => {
    const dir = tempDir();
    const { body, start, end } = cardBody();
    writeFileSync(join(dir, 'body.json'), gzipSync(body));
    // Past the one-read size: the streamed path peeks at the first bytes instead.
    const big = `${body}\n${'x'.repeat(1_100_000)}`;
    const stored = gzipSync(big, { level: 0 }); // stored blocks: bigger than the one-read size on disk
    expect(stored.length).toBeGreaterThan(1_048_576);
    writeFileSync(join(dir, 'dump'), stored);
    const r = await runCli(['scan', '.', '--format', 'json', '--workers', '0'], { cwd: dir });
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string; decoded?: unknown; findings: Array<{ ruleId: string; start: number; end: number }> }> };
    for (const res of doc.results) {
      expect(res.decoded, res.path).toEqual({ contentEncoding: 'gzip', detectedBy: 'magic' });
      expect(res.findings.find((f) => f.ruleId === 'card-visa'), res.path).toMatchObject({ start, end });
    }
    expect(doc.results.map((x) => x.path).sort()).toEqual(['body.json', 'dump']);
  });

  it('gives a clear notice for a truncated gzip, not a crash', async () => {
    const { body } = cardBody();
    const packed = gzipSync(`${body}\n${'filler line\n'.repeat(2000)}`);
    const r = await runCli(['scan', '-', '--workers', '0'], { stdin: packed.subarray(0, packed.length - 20) });
    expect(r.stderr).toBe('');
    expect([0, 1]).toContain(r.code);
    expect(r.stdout).toContain('<stdin>: note: decoded gzip (recognised by its magic bytes)');
    expect(r.stdout).toMatch(/<stdin>: note SDD_DECODE_ERROR: .*(corrupt or truncated).*unexpected end of file/);
  });

  it('leaves gzip alone under --content-encoding identity, and honours br', async () => {
    const f = fakeFactory();
    await runCli(['scan', '--content-encoding', 'identity', '--workers', '0'], { stdin: gzipSync('SECRET-x'), createScanner: f.create });
    expect(f.scanners[0]!.seen[0]!.meta).toEqual({ contentEncoding: 'identity' });
    const g = fakeFactory();
    await runCli(['scan', '--content-encoding', 'br', '--workers', '0'], { stdin: gzipSync('SECRET-x'), createScanner: g.create });
    expect(g.scanners[0]!.seen[0]!.meta).toEqual({ contentEncoding: 'br' });
  });

  it('does not read a file whose name says binary (.tgz) nor treat plain text as gzip', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'backup.tgz'), gzipSync('SECRET-inside'));
    writeFileSync(join(dir, 'plain.txt'), 'SECRET-plain');
    const f = fakeFactory();
    const r = await runCli(['scan', '.', '--format', 'json', '--workers', '0'], { cwd: dir, createScanner: f.create });
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string; decoded?: unknown; contentKind: string }> };
    expect(doc.results.map((x) => [x.path, x.contentKind, x.decoded])).toEqual([['backup.tgz', 'binary', undefined], ['plain.txt', 'text', undefined]]);
  });
});

describe('peekStream', () => {
  it('returns the head and yields every byte, whatever the chunking', async () => {
    const { head, body } = await peekStream(Readable.from([Buffer.from([0x1f]), Buffer.from([0x8b, 1, 2]), Buffer.from([3])]), 2);
    expect(startsWithGzip(head)).toBe(true);
    const all: number[] = [];
    for await (const c of body) all.push(...c);
    expect(all).toEqual([0x1f, 0x8b, 1, 2, 3]);
  });

  it('handles a body shorter than the head, and hands a read error on', async () => {
    const short = await peekStream(Readable.from([Buffer.from([0x1f])]), 2);
    expect(startsWithGzip(short.head)).toBe(false);
    const failing = (async function* () {
      yield Buffer.from('ab');
      throw new Error('EIO');
    })();
    const p = await peekStream(failing, 4);
    await expect((async () => {
      for await (const _ of p.body) void _;
    })()).rejects.toThrow('EIO');
  });
});
