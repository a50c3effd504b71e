import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { harBodies, isHarPath, looksLikeHar } from '../../src/cli/inputs/har.js';
import { closeSharedScanners, runCli as runCliWith, sharedRealScanner, tempDir, type RunOptions } from './helpers.js';

const runCli = (argv: string[], opts: RunOptions = {}) => runCliWith(argv, { createScanner: sharedRealScanner, ...opts });
afterAll(closeSharedScanners);

// Synthetic, written for these tests: the well-known test card numbers, example.test hosts.
const kFixture = new URL('./fixtures/synthetic.har', import.meta.url);
const fixtureBytes = readFileSync(kFixture);

interface HarDoc { log: { entries: Array<{ response: { content: { text?: string; encoding?: string } } }> } }

/** The decoded response body of fixture entry `i`, and the byte span of `value` in it. */
function spanIn(i: number, value: string): [number, number] {
  const content = (JSON.parse(fixtureBytes.toString('utf8')) as HarDoc).log.entries[i]!.response.content;
  const body = content.encoding === 'base64' ? Buffer.from(content.text!, 'base64') : Buffer.from(content.text!, 'utf8');
  const at = body.indexOf(value);
  expect(at, `entry ${i}`).toBeGreaterThanOrEqual(0);
  return [at, at + Buffer.byteLength(value)];
}

function fixtureDir(): string {
  const dir = tempDir();
  copyFileSync(kFixture, join(dir, 'export.har'));
  return dir;
}

describe('HAR input', { timeout: 120_000 }, () => {
  it('scans each response body with its own type, base64 decoded, offsets inside that body', async () => {
    const dir = fixtureDir();
    const r = await runCli(['scan', 'export.har', '-f', 'ndjson', '--workers', '0'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const found = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const [visaStart, visaEnd] = spanIn(0, '4111 1111 1111 1111');
    const [mcStart, mcEnd] = spanIn(2, '5555 5555 5555 4444');
    expect(found).toEqual([
      expect.objectContaining({ path: 'export.har', ruleId: 'card-visa', start: visaStart, end: visaEnd, entry: { url: 'https://shop.example.test/api/order?id=17', method: 'GET', status: 200, index: 0 } }),
      expect.objectContaining({ path: 'export.har', ruleId: 'card-mastercard', start: mcStart, end: mcEnd, entry: { url: 'https://shop.example.test/api/checkout', method: 'POST', status: 201, index: 2 } }),
    ]);
    // The documented keys come first, in their order; the entry is added after them.
    expect(Object.keys(found[0]!)).toEqual(['path', 'ruleId', 'description', 'tags', 'start', 'end', 'redacted', 'confidence', 'entry']);
  });

  it('shows the URL in text output and counts the archive as one file', async () => {
    const r = await runCli(['scan', 'export.har', '--workers', '0'], { cwd: fixtureDir() });
    const [s, e] = spanIn(2, '5555 5555 5555 4444');
    // The checkout body is two lines: the card is on the second, after `  "card_number": "`.
    expect(r.stdout).toContain(`export.har#2 (POST https://shop.example.test/api/checkout 201):2:19 (${s}-${e})  card-mastercard  high`);
    expect(r.stdout).toMatch(/^2 findings in 1 file; 1 file scanned \(4 archived responses, \d+ B\), 1 binary skipped/m);
  });

  it('lists every response in JSON with its entry, and keeps SARIF fingerprints apart', async () => {
    const dir = fixtureDir();
    const json = JSON.parse((await runCli(['scan', 'export.har', '-f', 'json', '--workers', '0'], { cwd: dir })).stdout) as {
      results: Array<{ path: string; entry: { index: number }; contentKind: string }>;
      summary: { files: number; entries: number; filesWithFindings: number };
    };
    expect(json.results.map((x) => [x.path, x.entry.index, x.contentKind])).toEqual([['export.har', 0, 'json'], ['export.har', 1, 'binary'], ['export.har', 2, 'json'], ['export.har', 4, 'html']]);
    expect(json.summary).toMatchObject({ files: 1, entries: 4, filesWithFindings: 1 });
    const sarif = JSON.parse((await runCli(['scan', 'export.har', '-f', 'sarif', '--workers', '0'], { cwd: dir })).stdout) as {
      runs: Array<{ results: Array<{ properties: { entry?: { url: string } }; partialFingerprints: Record<string, string>; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }>;
    };
    const results = sarif.runs[0]!.results;
    expect(results.map((x) => x.properties.entry?.url)).toEqual(['https://shop.example.test/api/order?id=17', 'https://shop.example.test/api/checkout']);
    expect(results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual(['export.har', 'export.har']);
    expect(new Set(results.map((x) => Object.values(x.partialFingerprints)[0])).size).toBe(2);
  });

  it('reads a gzipped .har.gz, and a HAR saved as .json', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.har.gz'), gzipSync(fixtureBytes));
    writeFileSync(join(dir, 'b.json'), fixtureBytes);
    const r = await runCli(['scan', '.', '-f', 'ndjson', '--workers', '0'], { cwd: dir });
    const found = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { path: string; entry?: { index: number } });
    expect(found.map((f) => [f.path, f.entry?.index])).toEqual([['a.har.gz', 0], ['a.har.gz', 2], ['b.json', 0], ['b.json', 2]]);
  });

  it('reports a malformed HAR with SDD_ERR_INPUT_FORMAT and still scans the other files', async () => {
    const dir = fixtureDir();
    writeFileSync(join(dir, 'broken.har'), fixtureBytes.subarray(0, 300));
    writeFileSync(join(dir, 'other.har'), '{"log": {"pages": []}}');
    const r = await runCli(['scan', '.', '-f', 'json', '--workers', '0'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^leakscan: "broken\.har": not a HAR file: invalid JSON/m);
    expect(r.stderr).toMatch(/^leakscan: "other\.har": not a HAR file: no "log\.entries" array$/m);
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string }>; errors: Array<{ path: string; code: string }> };
    expect(doc.errors.map((e) => [e.path, e.code])).toEqual([['broken.har', 'SDD_ERR_INPUT_FORMAT'], ['other.har', 'SDD_ERR_INPUT_FORMAT']]);
    expect(new Set(doc.results.map((x) => x.path))).toEqual(new Set(['export.har']));
  });

  it('scans a .json that only looks like a HAR as ordinary JSON', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.json'), '{"log": {"note": "not an archive"}}');
    const r = await runCli(['scan', 'c.json', '-f', 'json', '--workers', '0'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { results: Array<{ path: string; entry?: unknown }> }).results).toEqual([expect.objectContaining({ path: 'c.json' })]);
  });
});

describe('harBodies', () => {
  it('skips entries without a body and reads what a HAR omits as empty', () => {
    const bodies = harBodies(Buffer.from(JSON.stringify({ log: { entries: [{ request: {}, response: { content: { text: 'x' } } }, { response: { content: {} } }] } })));
    expect(bodies.map((b) => b.entry)).toEqual([{ index: 0, url: '', method: '', status: 0 }]);
    expect(() => harBodies(Buffer.from('{"log":{"entries":[null]}}'))).toThrow(/entry 0 is not an object/);
  });
  it('recognises HAR names and first bytes', () => {
    expect(isHarPath('a/b.HAR')).toBe(true);
    expect(isHarPath('b.har.gz')).toBe(true);
    expect(isHarPath('har')).toBe(false);
    expect(looksLikeHar(Buffer.from('\uFEFF {\n "log" : {'))).toBe(true);
    expect(looksLikeHar(Buffer.from('{"logs": {'))).toBe(false);
  });
});
