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

// The stand-in pkg-config: knows re2 unless NO_RE2 is set; its library is `lib/libre2.so` in the folder.
const kFakePkgConfig = `#!/bin/sh
[ -n "$NO_RE2" ] && { echo "Package re2 was not found" >&2; exit 1; }
case "$1" in
  --variable=libdir) echo "$FAKE_RE2/lib" ;;
  --variable=includedir) echo "$FAKE_RE2/include" ;;
  --modversion) echo 0.0.0 ;;
  *) echo "-I$FAKE_RE2/include -L$FAKE_RE2/lib -lre2" ;;
esac
`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'leakscan-install-'));
  for (const f of ['scripts/build-native.mjs', 'binding.gyp', 'native/prefilter.c', 'native/re2/binding.gyp', 'native/re2/re2-binding.cc']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    cpSync(join(repo, f), join(dir, f));
  }
  // A system RE2 that pkg-config finds.
  mkdirSync(join(dir, 'sys', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'sys', 'include', 're2'), { recursive: true });
  writeFileSync(join(dir, 'sys', 'lib', 'libre2.so'), 'v1');
  writeFileSync(join(dir, 'sys', 'include', 're2', 're2.h'), '');
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'pkg-config'), kFakePkgConfig);
  chmodSync(join(dir, 'bin', 'pkg-config'), 0o755);
  writeFileSync(join(dir, 'gyp.cjs'), kFakeGyp);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function install(env: Record<string, string> = {}): Promise<{ out: string; built: string[] }> {
  const log = join(dir, 'gyp.log');
  writeFileSync(log, '');
  const r = await sh(`"${process.execPath}" scripts/build-native.mjs`, {
    timeoutMs: 30_000,
    cwd: dir,
    env: { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, FAKE_RE2: join(dir, 'sys'), npm_config_node_gyp: join(dir, 'gyp.cjs'), GYP_LOG: log, ...env },
  });
  expect(r.code).toBe(0);
  const built = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((d) => (d.endsWith('re2') ? 're2' : 'prefilter'));
  return { out: r.stdout.toString() + r.stderr, built };
}

describe('install builds', () => {
  it('builds both against the system RE2, then keeps them while current', async () => {
    const first = await install();
    expect(first.built).toEqual(['prefilter', 're2']);
    expect(first.out).toContain(`RE2 binding: compiling native/re2/re2-binding.cc against the system RE2 (${join(dir, 'sys', 'lib', 'libre2.so')})`);
    expect(first.out).toMatch(/native prefilter: built in [0-9.]+ s/);
    expect(JSON.parse(readFileSync(join(dir, 'native', 're2', 'build', 'Release', 'leakscan-build.json'), 'utf8'))).toMatchObject({ re2: 'libre2.so' });
    const again = await install();
    expect(again.built).toEqual([]);
    expect(again.out).toMatch(/native prefilter: current \(built .*\), kept/);
    expect(again.out).toMatch(/RE2 binding: current \(built .*\), kept/);
  });

  it('rebuilds what an input change touches, and only that', async () => {
    await install();
    writeFileSync(join(dir, 'native', 'prefilter.c'), `${readFileSync(join(dir, 'native', 'prefilter.c'), 'utf8')}\n/* changed */\n`);
    expect((await install()).built).toEqual(['prefilter']);
    // The system RE2 upgraded: the binding is built against the new one.
    writeFileSync(join(dir, 'sys', 'lib', 'libre2.so'), 'v2, longer');
    expect((await install()).built).toEqual(['re2']);
  });

  it('without a system RE2 says so in one line, how to get it, and runs on re2-wasm', async () => {
    await install();
    const r = await install({ NO_RE2: '1' });
    expect(r.built).toEqual([]);
    // The binding an earlier install built is gone with it: what runs is what the line says.
    expect(existsSync(join(dir, 'native', 're2', 'build'))).toBe(false);
    const line = r.out.split('\n').filter((l) => l.includes('RE2 binding'));
    expect(line).toEqual([expect.stringContaining('RE2 binding not built (no system RE2: pkg-config does not know re2); leakscan runs on re2-wasm')]);
    expect(line[0]).toContain('apt-get install libre2-dev, brew install re2 or dnf install re2-devel');
    // Installed later: the next install builds it.
    expect((await install()).built).toEqual(['re2']);
  });

  it('a failed build leaves no key: it says why, falls back, and is built by the next install', async () => {
    const failed = await install({ FAIL_GYP: 're2' });
    expect(failed.out).toContain('RE2 binding not built (error: compiler exploded); leakscan runs on re2-wasm');
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
    mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'bin', 'main.js'), 'console.log("cli", process.argv.slice(2).join(" "))');
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
