import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { kMaxScanBytes } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { closeSharedScanners, runCli as runCliWith, sharedRealScanner, syntheticAwsKeyId, syntheticCard, syntheticStripeKey, tempDir, type RunOptions } from './helpers.js';

// The real engine in-process, shared per option set (see sharedRealScanner); the spawned
// executable at the end goes through the CLI's own scanner factory.
// Compiling every rule takes seconds on a loaded machine: generous timeouts below.
const runCli = (argv: string[], opts: RunOptions = {}) => runCliWith(argv, { createScanner: sharedRealScanner, ...opts });
afterAll(closeSharedScanners);

interface Line {
  path: string;
  ruleId: string;
  tags: string[];
  start: number;
  end: number;
  redacted: string;
}
const lines = (stdout: string): Line[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

/** Byte span of `value` in `body` (UTF-8), as findings report it. */
function span(body: string, value: string): [number, number] {
  const at = Buffer.from(body).indexOf(Buffer.from(value));
  return [at, at + Buffer.byteLength(value)];
}

function covering(found: Line[], family: string, [start, end]: [number, number]): Line | undefined {
  return found.find((f) => f.tags.includes(family) && f.start <= start && f.end >= end);
}

describe('leakscan scan with the engine', { timeout: 120_000 }, () => {
  it('finds a card and an AWS access key id in JSON on standard input (exit 1)', async () => {
    const card = syntheticCard();
    const aws = syntheticAwsKeyId();
    // Spaced card groups, as a checkout page would show them.
    const shown = card.replace(/(\d{4})(?=\d)/g, '$1 ');
    const body = JSON.stringify({ payment: { card_number: shown }, config: { aws_access_key_id: aws } });
    const r = await runCli(['scan', '--format', 'ndjson', '--workers', '0', '--content-type', 'application/json'], { stdin: body });
    expect(r.stderr).toBe('');
    expect(r.code, r.stderr).toBe(1);
    const found = lines(r.stdout);
    for (const f of found) expect(f.path).toBe('-');
    expect(covering(found, 'financial-information', span(body, shown)), r.stdout).toBeDefined();
    expect(covering(found, 'secrets', span(body, aws)), r.stdout).toBeDefined();
    expect(r.stdout).not.toContain(card);
    expect(r.stdout).not.toContain(shown);
    expect(r.stdout).not.toContain(aws);
  });

  it('exits 0 on a clean body', async () => {
    const r = await runCli(['scan', '--workers', '0'], { stdin: '{"status":"ok","items":[1,2,3]}' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^no findings/m);
  });

  it('scans folders, gzip files by extension, and skips binary files with the engine notice', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'logs'));
    const card = syntheticCard();
    writeFileSync(join(root, 'logs/app.log.gz'), gzipSync(`paid with card ${card} today\n`));
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    writeFileSync(join(root, 'blob'), Buffer.from([0x00, 0x01, 0x02, 0x03]));
    const r = await runCli(['scan', '--format', 'json', '--workers', '0', '.'], { cwd: root });
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string; contentKind: string; findings: Line[]; notices: Array<{ code: string }> }> };
    const byPath = new Map(doc.results.map((x) => [x.path, x]));
    expect(byPath.get('logs/app.log.gz')!.findings.some((f) => f.tags.includes('financial-information'))).toBe(true);
    for (const p of ['logo.png', 'blob']) {
      expect(byPath.get(p)!.contentKind).toBe('binary');
      expect(byPath.get(p)!.notices.map((n) => n.code)).toContain('SDD_SKIP_BINARY');
    }
  });

  it('reads a file up to the 1 MB cap whole and scans its last bytes; counts a longer one past the cap', async () => {
    const root = tempDir();
    const card = syntheticCard();
    const tail = ` card ${card}\n`;
    const atCap = `${'lorem ipsum '.repeat(kMaxScanBytes / 12 + 1).slice(0, kMaxScanBytes - tail.length)}${tail}`;
    writeFileSync(join(root, 'a-cap.txt'), atCap);
    writeFileSync(join(root, 'b-over.txt'), `${atCap}${tail}`);
    const r = await runCli(['scan', '--format', 'json', '--workers', '0', root]);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string; bytesScanned: number; bytesSeen: number; truncated: boolean; findings: Line[] }> };
    const [cap, over] = doc.results;
    expect(cap).toMatchObject({ bytesScanned: kMaxScanBytes, bytesSeen: kMaxScanBytes, truncated: false });
    expect(covering(cap!.findings, 'financial-information', span(atCap, card)), JSON.stringify(cap!.findings)).toBeDefined();
    expect(over).toMatchObject({ bytesScanned: kMaxScanBytes, bytesSeen: kMaxScanBytes + tail.length, truncated: true });
    // The card past the cap is not scanned: the only finding is the one inside it.
    expect(over!.findings.map((f) => f.start)).toEqual(cap!.findings.map((f) => f.start));
  });

  it('honours --disable by tag', async () => {
    const body = `card ${syntheticCard()}`;
    const on = await runCli(['scan', '--workers', '0', '--format', 'ndjson'], { stdin: body });
    expect(on.code, on.stderr).toBe(1);
    const off = await runCli(['scan', '--workers', '0', '--format', 'ndjson', '--disable', 'financial-information'], { stdin: body });
    expect(off.code).toBe(0);
    expect(off.stdout).toBe('');
  });
});

/** A rule that reports its match without its context words at `medium` (see RuleDef.context.without). */
const nhsBare = allRuleDefs.find((r) => r.id === 'uk-nhs')?.context?.without === 'medium';

describe('--min-confidence with the engine', { timeout: 120_000 }, () => {
  // A mod-11-valid NHS number with no NHS label: a checksum without its context word (medium).
  const body = '{"ref":"6871775781","gp":"Dr Osei"}';
  const nhs = (stdout: string) => lines(stdout).filter((f) => f.ruleId === 'uk-nhs') as Array<Line & { confidence: string }>;

  it.skipIf(!nhsBare)('drops a medium finding at the default threshold and reports it at medium and low', async () => {
    const byDefault = await runCli(['scan', '--format', 'ndjson', '--workers', '0', '--enable', 'uk-nhs'], { stdin: body });
    expect(nhs(byDefault.stdout)).toEqual([]);
    for (const level of ['medium', 'low']) {
      const r = await runCli(['scan', '--format', 'ndjson', '--workers', '0', '--enable', 'uk-nhs', '--min-confidence', level], { stdin: body });
      expect(r.code, r.stderr).toBe(1);
      const found = nhs(r.stdout);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ start: 8, end: 18, confidence: 'medium' });
      expect(r.stdout).not.toContain('6871775781');
    }
  });

  it('reports a labelled value at high whatever the threshold, in every format', async () => {
    const labelled = '{"nhsNumber":"6871775781"}';
    for (const level of ['high', 'medium', 'low']) {
      const r = await runCli(['scan', '--format', 'ndjson', '--workers', '0', '--min-confidence', level], { stdin: labelled });
      expect(nhs(r.stdout).map((f) => f.confidence)).toEqual(['high']);
    }
    const text = await runCli(['scan', '--workers', '0'], { stdin: labelled });
    expect(text.stdout).toMatch(/^<stdin>:1:15 \(14-24\)  uk-nhs  high  \S+  /m);
    const sarif = JSON.parse((await runCli(['scan', '--format', 'sarif', '--workers', '0'], { stdin: labelled })).stdout) as { runs: Array<{ results: Array<{ ruleId: string; level: string; rank: number }> }> };
    expect(sarif.runs[0]!.results.find((x) => x.ruleId === 'uk-nhs')).toMatchObject({ level: 'error', rank: 85 });
  });
});

describe('planted secret: no output carries the raw value', { timeout: 120_000 }, () => {
  const key = syntheticStripeKey();
  const card = syntheticCard();
  const body = `STRIPE_SECRET_KEY=${key}\ncard=${card}\n`;

  it.each(['text', 'json', 'ndjson', 'sarif'])('--format %s on stdout', async (format) => {
    const r = await runCli(['scan', '--all-rules', '--workers', '0', '--format', format], { stdin: body });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toContain(key);
    expect(r.stdout).not.toContain(card);
    expect(r.stderr).not.toContain(key);
  });

  it('finds the planted secret itself (else the tests above would prove nothing about it)', async () => {
    const nd = await runCli(['scan', '--all-rules', '--workers', '0', '--format', 'ndjson'], { stdin: body });
    const [start, end] = span(body, key);
    expect(lines(nd.stdout).some((f) => f.tags.includes('secrets') && f.start <= start && f.end >= end), nd.stdout).toBe(true);
  });

  it.each(['text', 'json', 'ndjson', 'sarif'])('--format %s with --output', async (format) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'leak.env'), body);
    const r = await runCli(['scan', '--all-rules', '--workers', '0', '--format', format, '--output', 'out.txt', 'leak.env'], { cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const written = readFileSync(join(dir, 'out.txt'), 'utf8');
    expect(written.length).toBeGreaterThan(0);
    expect(written).not.toContain(key);
    expect(written).not.toContain(card);
    expect(r.stdout + r.stderr).not.toContain(key);
  });
});

describe('the real executable', { timeout: 120_000 }, () => {
  const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
  const main = join(process.cwd(), 'src/cli/main.ts');

  it('scans standard input in a child process: exit code, ndjson, nothing raw', () => {
    const aws = syntheticAwsKeyId();
    const body = JSON.stringify({ aws_access_key_id: aws });
    const r = spawnSync(tsx, [main, 'scan', '--format', 'ndjson', '-'], { input: body, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain(aws);
    expect(lines(r.stdout).some((f) => f.tags.includes('secrets') && f.path === '-')).toBe(true);
    // Not a terminal: no progress bar.
    expect(r.stderr).not.toContain('files');
  });

  it('lists at least 60 managed rules as JSON', () => {
    const r = spawnSync(tsx, [main, 'rules', '--format', 'json'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    const rules = JSON.parse(r.stdout) as Array<{ id: string; description: string; tags: string[]; enabledByDefault: boolean }>;
    expect(rules.length).toBeGreaterThanOrEqual(60);
    for (const rule of rules) {
      expect(typeof rule.id).toBe('string');
      expect(typeof rule.enabledByDefault).toBe('boolean');
      expect(rule.tags.length).toBeGreaterThan(0);
    }
  });

  it('exits 2 on an unknown rule id, naming it', () => {
    const r = spawnSync(tsx, [main, 'scan', '--enable', 'no-such-rule-xyz', '-'], { input: '', encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('no-such-rule-xyz');
  });
});
