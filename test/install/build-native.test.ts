/**
 * scripts/build-native.mjs's bookkeeping, with a stand-in for node-gyp (the compile itself is
 * node-gyp's): a build is kept while its inputs are unchanged, redone when one changes, redone after a
 * failed build, and the checkout's `leakscan` goes into node_modules/.bin only when the package
 * installs itself.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sh } from '../serve/helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

// The stand-in node-gyp: logs each call's folder, writes the .node the folder's build makes, and fails
// when FAIL_GYP names the folder.
const kFakeGyp = `
const { appendFileSync, mkdirSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
appendFileSync(process.env.GYP_LOG, process.cwd() + '\\n');
if (process.env.FAIL_GYP && process.cwd().endsWith(process.env.FAIL_GYP)) { console.error('error: compiler exploded'); process.exit(1); }
mkdirSync(join(process.cwd(), 'build', 'Release'), { recursive: true });
writeFileSync(join(process.cwd(), 'build', 'Release', basename(process.cwd()) === 're2' ? 'leakscan_re2.node' : 'leakscan_prefilter.node'), 'x');
`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'leakscan-install-'));
  for (const f of ['scripts/build-native.mjs', 'scripts/re2-sources.mjs', 'binding.gyp', 'native/prefilter.c', 'native/re2/binding.gyp', 'native/re2/re2-binding.cc', 'native/re2/exports.map']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    cpSync(join(repo, f), join(dir, f));
  }
  // A re2 package with two sources, compiled at its install (its objects are there).
  const re2 = join(dir, 'node_modules', 're2');
  mkdirSync(join(re2, 'vendor', 're2', 're2'), { recursive: true });
  mkdirSync(join(re2, 'vendor', 'abseil-cpp'), { recursive: true });
  writeFileSync(join(re2, 'package.json'), JSON.stringify({ name: 're2', version: '9.9.9', main: 'index.js' }));
  writeFileSync(join(re2, 'index.js'), '');
  writeFileSync(join(re2, 'binding.gyp'), JSON.stringify({ sources: ['vendor/re2/re2/a.cc', 'vendor/re2/re2/b.cc'] }));
  for (const f of ['a', 'b']) {
    writeFileSync(join(re2, 'vendor', 're2', 're2', `${f}.cc`), '');
    mkdirSync(join(re2, 'build', 'Release', 'obj.target', 're2', 'vendor', 're2', 're2'), { recursive: true });
    writeFileSync(join(re2, 'build', 'Release', 'obj.target', 're2', 'vendor', 're2', 're2', `${f}.o`), '');
  }
  writeFileSync(join(re2, 'build', 'Release', 're2.node'), '');
  writeFileSync(join(dir, 'gyp.cjs'), kFakeGyp);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function install(env: Record<string, string> = {}): Promise<{ out: string; built: string[] }> {
  const log = join(dir, 'gyp.log');
  writeFileSync(log, '');
  const r = await sh(`"${process.execPath}" scripts/build-native.mjs`, {
    timeoutMs: 30_000,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', npm_config_node_gyp: join(dir, 'gyp.cjs'), GYP_LOG: log, ...env },
  });
  expect(r.code).toBe(0);
  const built = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((d) => (d.endsWith('re2') ? 're2' : 'prefilter'));
  return { out: r.stdout.toString() + r.stderr, built };
}

describe('install builds', () => {
  it('builds both, links the objects the re2 package compiled, then keeps them while current', async () => {
    const first = await install();
    expect(first.built).toEqual(['prefilter', 're2']);
    expect(first.out).toContain('lean RE2 binding: linking the 2 RE2 and Abseil objects re2@9.9.9 compiled at its install');
    expect(first.out).toMatch(/native prefilter: built in [0-9.]+ s/);
    const again = await install();
    expect(again.built).toEqual([]);
    expect(again.out).toMatch(/native prefilter: current \(built .*\), kept/);
    expect(again.out).toMatch(/lean RE2 binding: current \(built .*\), kept/);
  });

  it('rebuilds what an input change touches, and only that', async () => {
    await install();
    writeFileSync(join(dir, 'native', 'prefilter.c'), `${readFileSync(join(dir, 'native', 'prefilter.c'), 'utf8')}\n/* changed */\n`);
    expect((await install()).built).toEqual(['prefilter']);
    // The re2 package reinstalled (npm ci compiles it again): its objects are new, the binding is relinked.
    const o = join(dir, 'node_modules', 're2', 'build', 'Release', 'obj.target', 're2', 'vendor', 're2', 're2', 'a.o');
    writeFileSync(o, 'new');
    expect((await install()).built).toEqual(['re2']);
  });

  it('compiles the sources when the package came prebuilt (no objects)', async () => {
    rmSync(join(dir, 'node_modules', 're2', 'build', 'Release', 'obj.target'), { recursive: true });
    expect((await install()).out).toContain('lean RE2 binding: compiling 2 RE2 and Abseil sources of re2@9.9.9');
  });

  it('a failed build leaves no key: it says why, falls back, and is built by the next install', async () => {
    const failed = await install({ FAIL_GYP: 're2' });
    expect(failed.out).toContain('lean RE2 binding did not build (error: compiler exploded)');
    expect(failed.out).toContain("RE2 searches go through the re2 package's exec");
    expect((await install()).built).toEqual(['re2']);
    // Interrupted: the output is there but the key is not.
    rmSync(join(dir, 'build', 'Release', 'leakscan-build.json'));
    expect((await install()).built).toEqual(['prefilter']);
  });

  it('puts leakscan in node_modules/.bin only when the package installs itself', async () => {
    await install({ npm_config_local_prefix: join(dir, '..') });
    expect(existsSync(join(dir, 'node_modules', '.bin', 'leakscan'))).toBe(false);
    await install({ npm_config_local_prefix: dir });
    const bin = join(dir, 'node_modules', '.bin', 'leakscan');
    mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'cli', 'main.js'), 'console.log("cli", process.argv.slice(2).join(" "))');
    chmodSync(bin, 0o755);
    const r = await sh(`"${bin}" scan x`, { timeoutMs: 10_000, env: { PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` } });
    expect(r.stdout.toString()).toBe('cli scan x\n');
  });

  it('LEAKSCAN_SKIP_NATIVE=1 builds nothing and says what scans use instead', async () => {
    const r = await install({ LEAKSCAN_SKIP_NATIVE: '1' });
    expect(r.built).toEqual([]);
    expect(r.out).toContain('scans use the TypeScript prefilter');
  });
});
