import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeForPositions, findingPositions } from '../../src/cli/inputs/positions.js';
import type { Finding } from '../../src/types.js';
import { closeSharedScanners, runCli as runCliWith, sharedRealScanner, syntheticCard, tempDir, type RunOptions } from './helpers.js';

const runCli = (argv: string[], opts: RunOptions = {}) => runCliWith(argv, { createScanner: sharedRealScanner, ...opts });
afterAll(closeSharedScanners);

function at(body: string, value: string, from = 0): Finding {
  const start = Buffer.from(body).indexOf(value, Buffer.byteLength(body.slice(0, from)));
  return { ruleId: 'x', description: 'x', tags: [], start, end: start + Buffer.byteLength(value), redacted: '*', confidence: 'high' };
}

/**
 * The positions as the command computed them before it walked the bytes itself: an indexOf per line
 * and a decode per point. Kept as the oracle for the byte walk, quirks included (a point inside an
 * invalid sequence decodes its halves apart).
 */
function positionsByIndexOf(findings: readonly Finding[], body: Uint8Array) {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const points = [...new Set(findings.flatMap((f) => [f.start, f.end]))].sort((a, b) => a - b);
  const at = new Map<number, { line: number; column: number }>();
  let line = 1;
  let lineStart = 0;
  let pos = 0; // bytes before `pos` are accounted for in `line` / `column`
  let column = 1;
  for (const p of points) {
    const target = Math.min(p, buf.length);
    for (;;) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl === -1 || nl >= target) break;
      line++;
      lineStart = nl + 1;
      pos = lineStart;
      column = 1;
    }
    if (pos < lineStart) pos = lineStart;
    column += buf.toString('utf8', pos, target).length;
    pos = target;
    at.set(p, { line, column });
  }
  return findings.map((f) => {
    const s = at.get(f.start)!;
    const e = at.get(f.end)!;
    return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
  });
}

describe('findingPositions against its indexOf-and-decode formulation', () => {
  it('agrees on random bodies of ASCII, multi-byte UTF-8, CRLF and invalid bytes', () => {
    const piece = fc.oneof(
      fc.constantFrom('a', 'Z', ' ', '\n', '\r\n', 'é', '€', '😀').map((t) => Buffer.from(t)),
      fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff).map((b) => Buffer.from([b])),
    );
    // Findings start and end between characters (or stray bytes), as the engine's offsets do.
    const body = fc.array(piece, { minLength: 1, maxLength: 80 }).map((a) => {
      const edges = [0];
      for (const x of a) edges.push(edges[edges.length - 1]! + x.length);
      return { bytes: Buffer.concat(a), edges };
    });
    fc.assert(
      fc.property(body, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), ({ bytes, edges }, spans) => {
        const findings = spans.map(([x, y]): Finding => {
          const i = x % edges.length;
          const start = edges[i]!;
          const end = edges[Math.min(edges.length - 1, i + (y % 6))]!;
          return { ruleId: 'x', description: 'x', tags: [], start, end, redacted: '*', confidence: 'high' };
        });
        expect(findingPositions(findings, bytes)).toEqual(positionsByIndexOf(findings, bytes));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('findingPositions', () => {
  it('counts lines at LF (CRLF once) and columns in UTF-16 code units, end exclusive', () => {
    const body = 'first\r\nsé 😀 VALUE1 and VALUE2\n\nVALUE3';
    const p = findingPositions([at(body, 'VALUE2'), at(body, 'VALUE1'), at(body, 'VALUE3')], Buffer.from(body));
    // Line 2 is `sé 😀 VALUE1…`: s, é, space, 😀 (two UTF-16 units), space → VALUE1 at column 7.
    expect(p).toEqual([
      { line: 2, column: 18, endLine: 2, endColumn: 24 },
      { line: 2, column: 7, endLine: 2, endColumn: 13 },
      { line: 4, column: 1, endLine: 4, endColumn: 7 },
    ]);
  });

  it('stays linear on one long line with many findings', () => {
    const body = 'ab '.repeat(300_000);
    const findings = Array.from({ length: 10_000 }, (_, i) => ({ ...at(body, 'ab'), start: i * 90, end: i * 90 + 2 }));
    const t = performance.now();
    const p = findingPositions(findings, Buffer.from(body))!;
    expect(performance.now() - t).toBeLessThan(2000);
    expect(p[9_999]).toEqual({ line: 1, column: 9_999 * 90 + 1, endLine: 1, endColumn: 9_999 * 90 + 3 });
  });

  it('gives none for a UTF-16 body', () => {
    expect(findingPositions([at('ab', 'a')], Buffer.from('ab'), 'text/plain; charset=utf-16le')).toBeUndefined();
  });

  it('decodes a cut-off gzip as far as it goes', () => {
    const packed = gzipSync('line one\nline two\n'.repeat(1000));
    const cut = decodeForPositions(packed.subarray(0, packed.length - 30), 'gzip');
    expect(Buffer.from(cut!).toString().startsWith('line one\nline two\n')).toBe(true);
    expect(decodeForPositions(Buffer.from('not gzip'), 'gzip')).toBeUndefined();
  });
});

describe('line and column in the command line', { timeout: 120_000 }, () => {
  const card = syntheticCard();
  const body = `{\n  "order": 17,\n  "payment": {\n    "card_number": "${card}"\n  }\n}\n`;
  const column = '    "card_number": "'.length + 1;

  it('text output gives line:column beside the byte offsets, also for gzip on standard input', async () => {
    const f = at(body, card);
    const plain = await runCli(['scan', '--workers', '0'], { stdin: body });
    expect(plain.stdout).toContain(`<stdin>:4:${column} (${f.start}-${f.end})  card-visa`);
    const packed = await runCli(['scan', '--workers', '0'], { stdin: gzipSync(body) });
    expect(packed.stdout).toContain(`<stdin>:4:${column} (${f.start}-${f.end})  card-visa`);
  });

  it('SARIF regions carry startLine/startColumn/endLine/endColumn, streamed files included', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.json'), body);
    // Past the one-read size: streamed, its first bytes kept for the positions.
    writeFileSync(join(dir, 'b.log'), `${body}${'filler\n'.repeat(200_000)}`);
    writeFileSync(join(dir, 'c.json.gz'), gzipSync(body));
    const r = await runCli(['scan', '.', '-f', 'sarif', '--workers', '0'], { cwd: dir });
    const log = JSON.parse(r.stdout) as { runs: Array<{ columnKind: string; results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }> }> }> };
    const f = at(body, card);
    const regions = log.runs[0]!.results.filter((x) => x.ruleId === 'card-visa').map((x) => [x.locations[0]!.physicalLocation.artifactLocation.uri, x.locations[0]!.physicalLocation.region]);
    const region = { byteOffset: f.start, byteLength: f.end - f.start, startLine: 4, startColumn: column, endLine: 4, endColumn: column + card.length };
    expect(regions).toEqual([['a.json', region], ['b.log', region], ['c.json.gz', region]]);
    expect(log.runs[0]!.columnKind).toBe('utf16CodeUnits');
  });
});
