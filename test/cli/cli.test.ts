import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allRuleDefs, managedRuleset } from '../../src/rules/index.js';
import { kOneReadBytes, kPoolMinBytes } from '../../src/cli/commands/scan.js';
import { sh } from '../serve/helpers.js';
import { fakeFactory, runCli, syntheticCard, tempDir } from './helpers.js';

const ndjsonPaths = (stdout: string): string[] => stdout.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { path: string }).path);

/** A tree with content to find, content to skip, and traps for the walker. */
function tree(): string {
  const root = tempDir();
  const outside = tempDir();
  writeFileSync(join(outside, 'elsewhere.txt'), 'SECRET-outside');
  mkdirSync(join(root, 'src/sub'), { recursive: true });
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
  writeFileSync(join(root, 'a.txt'), 'token SECRET-aaa here');
  writeFileSync(join(root, 'src/b.json'), '{"k":"SECRET-bbb"}');
  writeFileSync(join(root, 'src/sub/c.log'), 'nothing to see');
  writeFileSync(join(root, '.git/config'), 'SECRET-git');
  writeFileSync(join(root, 'node_modules/pkg/index.js'), 'SECRET-dep');
  // Named like an image: skipped by its type, never read (the fake would otherwise find the token).
  writeFileSync(join(root, 'logo.png'), 'SECRET-png');
  symlinkSync('..', join(root, 'src/sub/loop')); // a loop back to src/
  symlinkSync(join(outside, 'elsewhere.txt'), join(root, 'out-link.txt')); // out of the tree
  symlinkSync(join(outside), join(root, 'out-dir'));
  symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
  symlinkSync(join(root, 'node_modules/pkg'), join(root, 'vendor')); // a skipped folder by another name
  symlinkSync('b.json', join(root, 'src/b-again.json')); // the same file twice: scanned once
  return root;
}

describe('leakscan scan (mechanics, fake scanner)', () => {
  it('reads standard input when no path is given, exit 1 on findings', async () => {
    const f = fakeFactory();
    const r = await runCli(['scan'], { stdin: 'x SECRET-abc y', createScanner: f.create });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('<stdin>:1:3 (2-12)  fake-secret  high  SECRET-****  A fake secret');
    expect(r.stdout).not.toContain('SECRET-abc');
    expect(f.scanners[0]!.closed).toBe(true);
  });

  it('exits 0 without findings', async () => {
    const f = fakeFactory();
    const r = await runCli(['scan', '-'], { stdin: 'all clear', createScanner: f.create });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^no findings; 1 file scanned/m);
  });

  it('passes --content-type and --content-encoding for standard input, and rule selection to the scanner', async () => {
    const f = fakeFactory();
    await runCli(['scan', '--content-type', 'application/json', '--content-encoding', 'x-gzip', '--all-rules', '--workers', '0'], { stdin: '{}', createScanner: f.create });
    expect(f.scanners[0]!.seen[0]!.meta).toEqual({ contentType: 'application/json', contentEncoding: 'x-gzip' });
    expect(f.scanners[0]!.options).toEqual({ allRules: true, enable: [], disable: [], workers: 0 });
  });

  it('passes --min-confidence to the scanner only when given', async () => {
    for (const level of ['high', 'medium', 'low']) {
      const f = fakeFactory();
      const r = await runCli(['scan', '--min-confidence', level, '--workers', '0'], { stdin: 'x', createScanner: f.create });
      expect(r.code, r.stderr).toBe(0);
      expect(f.scanners[0]!.options.minConfidence).toBe(level);
    }
    const f = fakeFactory();
    await runCli(['scan', '--workers', '0'], { stdin: 'x', createScanner: f.create });
    expect('minConfidence' in f.scanners[0]!.options).toBe(false);
  });

  it('refuses a bad --min-confidence as a usage error with its code, before scanning', async () => {
    for (const bad of ['HIGH', 'none', '']) {
      const f = fakeFactory();
      const r = await runCli(['scan', '--min-confidence', bad], { stdin: 'x SECRET-abc', createScanner: f.create });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`leakscan: SDD_ERR_INVALID_OPTION: invalid --min-confidence ${JSON.stringify(bad)} (expected high, medium, low)\n`);
      expect(f.scanners).toHaveLength(0);
    }
  });

  it('walks folders: sorted, skipping .git, node_modules, binary types, loops and links out of the tree', async () => {
    const root = tree();
    const f = fakeFactory();
    const r = await runCli(['scan', '--format', 'ndjson', '.'], { cwd: root, createScanner: f.create });
    expect(r.code).toBe(1);
    expect(ndjsonPaths(r.stdout)).toEqual(['a.txt', 'src/b.json']);
    expect(r.stderr).toBe('');
    // Every regular file in the tree was handed over once; the image without being read.
    const seen = f.scanners[0]!.seen;
    expect(seen).toHaveLength(4);
    expect(seen.find((s) => s.meta?.contentType === 'image/png')?.bytes).toBe(0);
  });

  it('gives each file the content type of its extension, unless forced', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.json'), '{}');
    writeFileSync(join(root, 'b.html.gz'), 'not really gzip');
    writeFileSync(join(root, 'README'), 'text');
    // Scans run concurrently, so compare what was seen without its order.
    const metas = (f: ReturnType<typeof fakeFactory>) => f.scanners[0]!.seen.map((s) => JSON.stringify(s.meta)).sort();
    let f = fakeFactory();
    await runCli(['scan', root], { createScanner: f.create });
    expect(metas(f)).toEqual(['{"contentType":"application/json"}', '{"contentType":"text/html","contentEncoding":"gzip"}', '{}'].sort());
    f = fakeFactory();
    await runCli(['scan', '--content-type', 'text/plain', root], { createScanner: f.create });
    expect(metas(f)).toEqual(['{"contentType":"text/plain"}', '{"contentType":"text/plain"}', '{"contentType":"text/plain","contentEncoding":"gzip"}'].sort());
  });

  it('hands a small file over whole and streams big, compressed and special files', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a-small.txt'), 'SECRET-small');
    writeFileSync(join(root, 'b-cap.txt'), `${'x'.repeat(kOneReadBytes - 12)}SECRET-edge!`); // exactly the cap
    writeFileSync(join(root, 'c-big.txt'), `${'x'.repeat(kOneReadBytes)}SECRET-past`);
    writeFileSync(join(root, 'd-packed.txt.gz'), gzipSync('SECRET-packed'));
    writeFileSync(join(root, 'e-empty.txt'), '');
    const f = fakeFactory();
    const r = await runCli(['scan', '--format', 'ndjson', root], { createScanner: f.create });
    expect(r.code).toBe(1);
    const seen = f.scanners[0]!.seen.map((x) => ({ whole: x.whole, bytes: x.bytes, gz: x.meta?.contentEncoding === 'gzip' })).sort((a, b) => a.bytes - b.bytes);
    expect(seen).toEqual([
      { whole: true, bytes: 0, gz: false },
      { whole: true, bytes: 12, gz: false },
      { whole: false, bytes: gzipSync('SECRET-packed').length, gz: true },
      { whole: true, bytes: kOneReadBytes, gz: false },
      { whole: false, bytes: kOneReadBytes + 11, gz: false },
    ]);
    // Every byte of every file reached the scanner, whichever way it went (the fake does not
    // decompress, so the packed token is not found).
    expect(ndjsonPaths(r.stdout)).toEqual(['a-small.txt', 'b-cap.txt', 'c-big.txt'].map((n) => join(root, n)));
  });

  it.runIf(process.platform === 'linux')('streams a FIFO named on the command line (never opened for a blocking read up front)', async () => {
    const root = tempDir();
    const fifo = join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const writer = new Promise<void>((ok, ko) => writeFile(fifo, 'SECRET-fifo').then(ok, ko));
    const f = fakeFactory();
    const r = await runCli(['scan', '--format', 'ndjson', fifo], { createScanner: f.create });
    await writer;
    expect(r.code).toBe(1);
    expect(f.scanners[0]!.seen.map((x) => x.whole)).toEqual([false]);
    expect(ndjsonPaths(r.stdout)).toEqual([fifo]);
  });

  it('scans in its own thread unless there is enough to scan for a pool (or --workers says so)', async () => {
    const small = tempDir();
    writeFileSync(join(small, 'a.txt'), 'SECRET-a');
    const big = tempDir();
    // Sparse files: 64 of the 1 MiB each that is scanned at most (one of them 40 MiB long).
    for (let i = 0; i < 64; i++) {
      const fd = openSync(join(big, `f${String(i).padStart(2, '0')}.txt`), 'w');
      ftruncateSync(fd, i === 0 ? 40 * kOneReadBytes : kOneReadBytes);
      closeSync(fd);
    }
    const workersFor = async (argv: string[], cores: number, stdin?: string): Promise<number | undefined> => {
      const f = fakeFactory();
      const r = await runCli(['scan', ...argv], { createScanner: f.create, cores, ...(stdin !== undefined && { stdin }) });
      expect(r.stderr).toBe('');
      return f.scanners[0]!.options.workers;
    };
    expect(await workersFor([small], 4)).toBe(0);
    expect(await workersFor([], 4, 'SECRET-stdin')).toBe(0);
    expect(await workersFor([big], 4)).toBe(4);
    expect(await workersFor([big], 1)).toBe(0); // a pool of one only adds its start-up
    expect(await workersFor(['--workers', '3', small], 4)).toBe(3);
    expect(await workersFor(['--workers', '0', big], 4)).toBe(0);
    // Counted up to the cap a file: 63 MiB to scan, though 102 MiB on disk.
    expect(kPoolMinBytes).toBe(64 * kOneReadBytes);
    unlinkSync(join(big, 'f63.txt'));
    expect(await workersFor([big], 4)).toBe(0);
  });

  it('walks a folder of many files in name order, a few stats at a time', async () => {
    const root = tempDir();
    const names: string[] = [];
    for (let d = 0; d < 3; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let i = 0; i < 70; i++) {
        const name = join(`d${d}`, `f${String(i).padStart(3, '0')}.txt`);
        writeFileSync(join(root, name), `SECRET-${d}x${i}`);
        names.push(name);
      }
    }
    const f = fakeFactory();
    const r = await runCli(['scan', '--format', 'ndjson', '.'], { cwd: root, createScanner: f.create });
    expect(ndjsonPaths(r.stdout)).toEqual(names);
  });

  it('reports results in input order whatever order the scans finish in', async () => {
    const root = tempDir();
    for (let i = 0; i < 8; i++) writeFileSync(join(root, `f${i}.txt`), `SECRET-${i}${'x'.repeat(8 - i)}`);
    // Earlier files take longer, so they finish last.
    const f = fakeFactory((bytes) => bytes.length * 5);
    const r = await runCli(['scan', '--format', 'ndjson', '--workers', '4', root], { createScanner: f.create });
    expect(ndjsonPaths(r.stdout)).toEqual(Array.from({ length: 8 }, (_, i) => join(root, `f${i}.txt`)));
  });

  it('keeps scanning past a missing path, then exits 2', async () => {
    const root = tree();
    const f = fakeFactory();
    const r = await runCli(['scan', '--format', 'ndjson', 'missing.txt', 'a.txt'], { cwd: root, createScanner: f.create });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read "missing.txt": no such file or directory');
    expect(ndjsonPaths(r.stdout)).toEqual(['a.txt']);
  });

  it('goes on when the scanner fails on one input, then exits 2', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'SECRET-a');
    writeFileSync(join(root, 'boom.txt'), 'explode');
    writeFileSync(join(root, 'c.txt'), 'SECRET-c');
    const f = fakeFactory();
    const failing = async (o: Parameters<typeof f.create>[0]) => {
      const s = await f.create(o);
      const analyzeStream = s.analyzeStream.bind(s);
      s.analyzeStream = async (body, meta) => {
        const r = await analyzeStream(body, meta);
        if (r.bytesScanned === 7) throw Object.assign(new Error('a scan worker failed'), { code: 'SDD_ERR_WORKER_FAILED' });
        return r;
      };
      return s;
    };
    const r = await runCli(['scan', '--format', 'ndjson', '.'], { cwd: root, createScanner: failing });
    expect(r.code).toBe(2);
    expect(ndjsonPaths(r.stdout)).toEqual(['a.txt', 'c.txt']);
    expect(r.stderr).toContain('"boom.txt": scan failed: a scan worker failed');
  });

  it.skipIf(process.getuid?.() === 0)('reports an unreadable file and exits 2', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'locked.txt'), 'SECRET-locked');
    writeFileSync(join(root, 'open.txt'), 'SECRET-open');
    chmodSync(join(root, 'locked.txt'), 0o000);
    const r = await runCli(['scan', '--format', 'json', root], { createScanner: fakeFactory().create });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('permission denied');
    const doc = JSON.parse(r.stdout) as { errors: Array<{ path: string }>; summary: { findings: number } };
    expect(doc.errors.map((e) => e.path)).toEqual([join(root, 'locked.txt')]);
    expect(doc.summary.findings).toBe(1);
  });

  it.runIf(process.platform === 'linux')('turns a read that fails midway into an input error (exit 2), keeping the report', async () => {
    // /proc/self/mem opens as a regular file and fails on the first read (EIO), even for root.
    const r = await runCli(['scan', '--format', 'json', '/proc/self/mem'], { createScanner: fakeFactory().create });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read "\/proc\/self\/mem": .*EIO/);
    const doc = JSON.parse(r.stdout) as { results: Array<{ path: string }>; errors: Array<{ path: string; code: string }> };
    expect(doc.errors).toEqual([expect.objectContaining({ path: '/proc/self/mem', code: 'SDD_ERR_INPUT' })]);
    expect(doc.results.map((x) => x.path)).toEqual(['/proc/self/mem']);
  });

  it('writes --output to a file, not stdout, and does not scan that file', async () => {
    const root = tree();
    const r = await runCli(['scan', '--format', 'json', '--output', 'report.json', '.'], { cwd: root, createScanner: fakeFactory().create });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const doc = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as { results: Array<{ path: string }> };
    expect(doc.results.map((x) => x.path)).not.toContain('report.json');
  });

  it('replaces --output only with a complete report, and never scans an earlier one', async () => {
    const root = tree();
    const first = await runCli(['scan', '--format', 'json', '--output', 'report.json', '.'], { cwd: root, createScanner: fakeFactory().create });
    expect(first.code).toBe(1);
    const before = readFileSync(join(root, 'report.json'), 'utf8');
    // The second run finds the first report in the folder it scans, and leaves it out.
    const second = await runCli(['scan', '--format', 'json', '--output', 'report.json', '.'], { cwd: root, createScanner: fakeFactory().create });
    expect(second.code).toBe(1);
    const kept = readFileSync(join(root, 'report.json'), 'utf8');
    const doc = JSON.parse(kept) as { results: Array<{ path: string }> };
    expect(doc.results.map((x) => x.path)).not.toContain('report.json');
    expect(doc.results.length).toBe((JSON.parse(before) as { results: unknown[] }).results.length);
    // A run that fails before its report is complete leaves the last one as it was, and no temporary file.
    const failing = () => Promise.reject(Object.assign(new Error('minConfidence must be one of high, medium, low'), { code: 'SDD_ERR_INVALID_OPTION' }));
    const third = await runCli(['scan', '--format', 'json', '--output', 'report.json', '.'], { cwd: root, createScanner: failing });
    expect(third.code).toBe(2);
    expect(third.stderr).toMatch(/minConfidence/);
    expect(readFileSync(join(root, 'report.json'), 'utf8')).toBe(kept);
    expect(readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.each([
    [['--format', 'xml'], /Allowed choices/i],
    [['--enable', 'no-such-rule'], /unknown rule id or tag/],
    [['--min-confidence', 'x'], /SDD_ERR_INVALID_OPTION/],
    [['--content-type', 'not a type'], /invalid --content-type/],
    [['--content-encoding', 'zstd'], /zstd/],
  ])('a usage error (%j) writes nothing to --output: no file made, an existing one untouched', async (args, message) => {
    const root = tree();
    const fresh = await runCli(['scan', ...args, '--output', 'new.json', '.'], { cwd: root, createScanner: fakeFactory().create });
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toMatch(message);
    writeFileSync(join(root, 'old.json'), 'the last report\n');
    const kept = await runCli(['scan', ...args, '--output', 'old.json', '.'], { cwd: root, createScanner: fakeFactory().create });
    expect(kept.code).toBe(2);
    expect(readFileSync(join(root, 'old.json'), 'utf8')).toBe('the last report\n');
    const files = readdirSync(root);
    expect(files).not.toContain('new.json');
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('an unreadable input is recorded in a complete --output report (exit 2), as documented', async () => {
    const root = tree();
    const r = await runCli(['scan', '--format', 'json', '--output', 'report.json', 'a.txt', 'missing.txt'], { cwd: root, createScanner: fakeFactory().create });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot read "missing.txt"/);
    const doc = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8')) as { results: Array<{ path: string }>; errors: Array<{ path: string; code: string }> };
    expect(doc.results.map((x) => x.path)).toEqual(['a.txt']);
    expect(doc.errors).toEqual([expect.objectContaining({ path: 'missing.txt', code: 'SDD_ERR_INPUT' })]);
  });

  it('an input error with nothing scanned writes nothing to --output (exit 2): no file made, an existing one untouched', async () => {
    const root = tree();
    writeFileSync(join(root, 'broken.har'), '{"log": {"entries": "no"}}');
    for (const args of [['missing.txt'], ['missing.txt', 'broken.har']]) {
      const fresh = await runCli(['scan', '--format', 'sarif', '--output', 'new.sarif', ...args], { cwd: root, createScanner: fakeFactory().create });
      expect(fresh.code).toBe(2);
      expect(fresh.stderr).toMatch(/cannot read "missing.txt"/);
      expect(readdirSync(root)).not.toContain('new.sarif');
    }
    writeFileSync(join(root, 'old.sarif'), 'the last report\n');
    const kept = await runCli(['scan', '--format', 'sarif', '--output', 'old.sarif', 'broken.har'], { cwd: root, createScanner: fakeFactory().create });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toMatch(/not a HAR file/);
    expect(readFileSync(join(root, 'old.sarif'), 'utf8')).toBe('the last report\n');
    expect(readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('fails with 2 when --output cannot be written', async () => {
    const r = await runCli(['scan', '--output', join(tempDir(), 'no/such/dir/out.json')], { stdin: 'x', createScanner: fakeFactory().create });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write --output/);
  });

  it.each([
    [['scan', '--bogus'], /unknown option '--bogus'/],
    [['scan', '--format', 'xml'], /--format.*xml|xml.*--format|Allowed choices/i],
    [['scan', '--workers', 'many'], /whole number/],
    [['scan', '--enable', 'no-such-rule'], /unknown rule id or tag: "no-such-rule"/],
    [['scan', '--disable', 'pii,no-such-tag'], /no-such-tag/],
    [['scan', '--content-type', 'not a type'], /invalid --content-type/],
    [['scan', '--content-encoding', 'zstd'], /zstd/],
    [['frobnicate'], /unknown command/],
  ])('%j is a usage error (exit 2, message on stderr)', async (argv, message) => {
    const f = fakeFactory();
    const r = await runCli(argv, { stdin: 'SECRET-x', createScanner: f.create });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(f.scanners).toHaveLength(0);
  });

  it('draws progress on a terminal stderr only, never on stdout', async () => {
    const root = tempDir();
    for (let i = 0; i < 3; i++) writeFileSync(join(root, `f${i}.txt`), 'SECRET-p');
    const tty = await runCli(['scan', root], { stderrIsTTY: true, createScanner: fakeFactory(150).create });
    expect(tty.stderr).toMatch(/\d+\/3 files/);
    expect(tty.stderr).toContain('MiB/s');
    expect(tty.stdout).not.toMatch(/\r|MiB\/s/);
    const piped = await runCli(['scan', root], { stderrIsTTY: false, createScanner: fakeFactory(150).create });
    expect(piped.stderr).toBe('');
    const off = await runCli(['scan', '--no-progress', root], { stderrIsTTY: true, createScanner: fakeFactory(150).create });
    expect(off.stderr).toBe('');
  });
});

describe('leakscan rules', () => {
  it('--format json prints the rules array with each rule\'s confidence behaviour', async () => {
    const r = await runCli(['rules', '--format', 'json']);
    expect(r.code).toBe(0);
    const rules = JSON.parse(r.stdout) as Array<{ id: string; description: string; tags: string[]; enabledByDefault: boolean; confidence: string; withoutContext: string | null; checksum: boolean; context: boolean }>;
    expect(rules.map(({ id, description, tags, enabledByDefault }) => ({ id, description, tags, enabledByDefault }))).toEqual(managedRuleset.rules);
    const defs = new Map(allRuleDefs.map((d) => [d.id, d]));
    for (const rule of rules) {
      const def = defs.get(rule.id)!;
      expect(Object.keys(rule)).toEqual(['id', 'description', 'tags', 'enabledByDefault', 'confidence', 'withoutContext', 'checksum', 'context']);
      expect(rule.confidence).toBe(def.confidence ?? 'high');
      expect(rule.withoutContext).toBe(def.context?.without ?? null);
      expect(rule.checksum).toBe(def.validate !== undefined);
      expect(rule.context).toBe(def.context !== undefined);
    }
    // A card number is backed by Luhn; a rule that has context words says so.
    expect(rules.find((x) => x.id === 'card-visa')?.checksum).toBe(true);
    expect(rules.some((x) => x.context)).toBe(true);
  });

  it('text lists every rule with its default state, confidence and checksum', async () => {
    const r = await runCli(['rules']);
    expect(r.code).toBe(0);
    for (const rule of allRuleDefs) {
      const level = rule.context?.without === undefined ? (rule.confidence ?? 'high') : `${rule.confidence ?? 'high'}/${rule.context.without}`;
      expect(r.stdout).toMatch(new RegExp(`^${rule.id} +${rule.enabledByDefault ? 'on' : 'off'} +${level} +${rule.validate ? 'yes' : 'no'} `, 'm'));
    }
    expect(r.stdout).toContain(`${managedRuleset.rules.length} rules`);
    expect(r.stdout).toContain('CONFIDENCE: the level of a finding with its context');
  });

  it('prints help and version with exit 0', async () => {
    expect((await runCli(['--help'])).code).toBe(0);
    const v = await runCli(['--version']);
    expect(v.code).toBe(0);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(v.stdout).toMatch(new RegExp(`^leakscan ${version.replaceAll('.', '\\.')} \\(node ${process.versions.node}; prefilter (native|typescript), regex (re2 \\(system [^)]+\\)|re2-wasm)`));
  });

  it('runs as the bundle npm links (dist/bin/main.js): native parts found, its pool on the bundled worker', async () => {
    const main = fileURLToPath(new URL('../../dist/bin/main.js', import.meta.url));
    const version = await sh(`"${process.execPath}" "${main}" --version`, { timeoutMs: 30_000 });
    const unbundled = await sh(`"${process.execPath}" "${fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))}" --version`, { timeoutMs: 30_000 });
    // The bundle finds the same native builds from the package root as the unbundled modules do.
    expect(version.stdout.toString()).toBe(unbundled.stdout.toString());
    const dir = tempDir();
    const card = syntheticCard();
    writeFileSync(join(dir, 'a.txt'), `card ${card}\n`);
    writeFileSync(join(dir, 'b.txt'), `also ${card}\n`);
    for (const workers of ['0', '1']) {
      const r = await sh(`"${process.execPath}" "${main}" scan "${dir}" --format ndjson --no-progress --workers ${workers}`, { timeoutMs: 60_000 });
      expect(r.code, r.stderr.toString()).toBe(1);
      const lines = r.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as { ruleId?: string });
      expect(lines.filter((l) => l.ruleId?.startsWith('card-')).length, `--workers ${workers}`).toBe(2);
    }
  });

  it('--version names a slower fallback and why it is in use', async () => {
    const main = fileURLToPath(new URL('../../dist/bin/main.js', import.meta.url));
    const r = await sh(`"${process.execPath}" "${main}" --version`, { timeoutMs: 30_000, env: { ...process.env, LEAKSCAN_PREFILTER: 'js', LEAKSCAN_RE2_BINDING: 'off' } });
    expect(r.code).toBe(0);
    const out = r.stdout.toString();
    expect(out).toContain('prefilter typescript');
    expect(out).toContain('LEAKSCAN_PREFILTER=js');
    // The portable regex backend, as where no system RE2 or compiler is to be had.
    expect(out).toContain('regex re2-wasm');
    expect(out).toContain('LEAKSCAN_RE2_BINDING=off');
  });
});
