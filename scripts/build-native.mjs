#!/usr/bin/env node
/**
 * The install step (package.json "install", run by `npm ci` / `npm install`). Builds, each optional:
 *
 * 1. the native prefilter (native/prefilter.c → build/Release/leakscan_prefilter.node). Without a C
 *    compiler or Node headers the engine runs its TypeScript prefilter (same findings, slower).
 * 2. the RE2 binding (native/re2/re2-binding.cc → native/re2/build/Release/leakscan_re2.node), one
 *    file compiled against the system RE2 that `pkg-config re2` finds (libre2-dev, Homebrew's re2,
 *    re2-devel; PKG_CONFIG_PATH for one installed elsewhere). RE2 itself is never compiled here.
 *    Without it, the engine runs on re2-wasm (same findings, slower); the install says why in one
 *    line and how to get the system RE2.
 *
 * Each build is keyed on its inputs (sources, build files, Node's ABI, platform, and the RE2 found):
 * a build that is current is kept and says so, so a repeated install costs nothing; a failed or
 * interrupted one left no key and is built again. Each step says what it builds and how long it took.
 *
 * In a checkout (the package installing itself, not installed as a dependency) it also puts
 * `leakscan` in node_modules/.bin, so `npx leakscan …` runs this checkout's build at once instead of
 * having npm install the checkout into its cache and run these scripts again.
 *
 * LEAKSCAN_SKIP_NATIVE=1 skips both builds, LEAKSCAN_SKIP_NATIVE_RE2=1 the second;
 * LEAKSCAN_REBUILD_NATIVE=1 builds even when current.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => console.log(`leakscan: ${msg}`);
const kPrefilterFallback = 'scans use the TypeScript prefilter (same findings, slower)';
const kRe2Fallback = 'leakscan runs on re2-wasm (same findings, slower)';
const kGetRe2 = 'for it install the system RE2 (apt-get install libre2-dev, brew install re2 or dnf install re2-devel) and run npm rebuild leakscan (npm run install in a checkout)';

// npm hands its own node-gyp to lifecycle scripts; outside npm, fall back to one on PATH.
const gyp = process.env.npm_config_node_gyp;
const [cmd, base] = gyp && existsSync(gyp) ? [process.execPath, [gyp]] : ['node-gyp', []];

/** Runs `node-gyp rebuild` in `dir`; returns null when it built, else the end of its output. */
function rebuild(dir, extra = []) {
  const r = spawnSync(cmd, [...base, 'rebuild', ...extra], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!r.error && r.status === 0) return null;
  return r.error ? r.error.message : (r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n');
}

/** What a build depends on: file contents, the Node ABI and platform, and any extra facts. */
function keyOf(files, extra) {
  const h = createHash('sha256');
  h.update(JSON.stringify([process.versions.modules, process.versions.napi, process.platform, process.arch, extra]));
  for (const f of files) h.update(`\0${relative(root, f)}\0`).update(readFileSync(f));
  return h.digest('hex');
}

/**
 * Builds `name` in `dir` unless its output is current. `what` says what the build uses; returns true
 * when the output is there (kept or built).
 */
function step({ name, dir, output, inputs, extra = [], what, fallback, gypArgs = [], facts = {} }) {
  const stampFile = join(dirname(output), 'leakscan-build.json');
  const key = keyOf(inputs, extra);
  if (process.env.LEAKSCAN_REBUILD_NATIVE !== '1' && existsSync(output) && existsSync(stampFile)) {
    try {
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
      if (stamp.key === key) {
        say(`${name}: current (built ${stamp.builtAt} in ${stamp.seconds} s, ${stamp.what}), kept`);
        return true;
      }
    } catch {
      // An unreadable stamp: build again.
    }
  }
  say(`${name}: ${what} …`);
  const started = Date.now();
  const failed = rebuild(dir, gypArgs);
  if (failed !== null) {
    console.warn(`leakscan: ${name} not built (${failed}); ${fallback}`);
    return false;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${JSON.stringify({ key, what, ...facts, builtAt: new Date().toISOString().slice(0, 16).replace('T', ' '), seconds: Number(seconds) })}\n`);
  say(`${name}: built in ${seconds} s`);
  return true;
}

/** `node_modules/.bin/leakscan` for `npx leakscan` in a checkout; never when installed as a dependency. */
function linkBin() {
  const prefix = process.env.npm_config_local_prefix;
  if (prefix === undefined || !existsSync(prefix)) return;
  if (realpathSync(prefix) !== realpathSync(root)) return;
  const bin = join(root, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const sh = join(bin, 'leakscan');
  writeFileSync(sh, '#!/bin/sh\n# Made by scripts/build-native.mjs: this checkout\'s CLI, for `npx leakscan` in the checkout.\nexec node "$(dirname "$0")/../../dist/bin/main.js" "$@"\n');
  chmodSync(sh, 0o755);
  writeFileSync(join(bin, 'leakscan.cmd'), '@node "%~dp0\\..\\..\\dist\\bin\\main.js" %*\r\n');
}

function main() {
  linkBin();
  if (process.env.LEAKSCAN_SKIP_NATIVE === '1') {
    console.warn(`leakscan: LEAKSCAN_SKIP_NATIVE=1, no native builds; ${kPrefilterFallback}`);
    return;
  }
  const prefilter = step({
    name: 'native prefilter',
    dir: root,
    output: join(root, 'build', 'Release', 'leakscan_prefilter.node'),
    inputs: [join(root, 'binding.gyp'), join(root, 'native', 'prefilter.c')],
    what: 'compiling native/prefilter.c',
    fallback: kPrefilterFallback,
  });
  if (!prefilter) return;

  if (process.env.LEAKSCAN_SKIP_NATIVE_RE2 === '1') {
    console.warn(`leakscan: RE2 binding not built (LEAKSCAN_SKIP_NATIVE_RE2=1); ${kRe2Fallback}`);
    return;
  }
  const lean = join(root, 'native', 're2');
  const re2 = systemRe2();
  if (typeof re2 === 'string') {
    // A binding from an earlier install would still load against the RE2 left behind: the line below
    // would then be wrong. What runs is what the install says.
    rmSync(join(lean, 'build'), { recursive: true, force: true });
    console.warn(`leakscan: RE2 binding not built (${re2}); ${kRe2Fallback}; ${kGetRe2}`);
    return;
  }
  step({
    name: 'RE2 binding',
    dir: lean,
    output: join(lean, 'build', 'Release', 'leakscan_re2.node'),
    inputs: [join(lean, 'binding.gyp'), join(lean, 're2-binding.cc')],
    extra: re2.key,
    what: `compiling native/re2/re2-binding.cc against the system RE2 (${re2.library})`,
    facts: { re2: basename(re2.library) },
    fallback: `${kRe2Fallback}; ${kGetRe2}`,
  });
}

/**
 * The system RE2 as pkg-config finds it: its flags, the library file they link (named in messages
 * and in `leakscan --version`), and what identifies this RE2 for the build key (flags, the library's
 * and header's size and time: an upgraded libre2 is linked again). A string says why there is none.
 */
function systemRe2() {
  const pc = (...args) => spawnSync('pkg-config', [...args, 're2'], { encoding: 'utf8' });
  const flags = pc('--cflags', '--libs');
  if (flags.error) return flags.error.code === 'ENOENT' ? 'no pkg-config to find the system RE2 with' : flags.error.message;
  if (flags.status !== 0) return 'no system RE2: pkg-config does not know re2';
  const libdirs = [...flags.stdout.matchAll(/(?:^|\s)-L(\S+)/g)].map((m) => m[1]);
  libdirs.push(pc('--variable=libdir').stdout.trim());
  const names = process.platform === 'darwin' ? ['libre2.dylib', 'libre2.a'] : ['libre2.so', 'libre2.a'];
  const library = libdirs.flatMap((d) => names.map((n) => join(d, n))).find((f) => f !== '' && existsSync(f));
  const header = join(pc('--variable=includedir').stdout.trim(), 're2', 're2.h');
  // A library found by the linker's default path only (no -L, no libdir): named by its flags.
  const real = library === undefined ? null : realpathSync(library);
  const id = (f) => (f !== null && existsSync(f) ? `${f} ${statSync(f).size} ${statSync(f).mtimeMs}` : '');
  return {
    library: real ?? `-lre2, ${flags.stdout.trim()}`,
    key: [flags.stdout.trim(), pc('--modversion').stdout.trim(), id(real), id(header)],
  };
}

main();
