#!/usr/bin/env node
/**
 * Where native/re2/binding.gyp finds RE2: the sources the `re2` npm package ships and builds
 * (`vendor/re2`, `vendor/abseil-cpp`), listed from that package's own binding.gyp, so the list follows
 * whatever version the lockfile installs. `node scripts/re2-sources.mjs sources|include` prints one
 * path per line for gyp's `<!@(...)`; `check` exits 1 (with the reason on stderr) when they cannot be
 * found, which scripts/build-native.mjs reads as "skip the lean binding".
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const require = createRequire(import.meta.url);

function packageDir() {
  try {
    return dirname(require.resolve('re2/package.json'));
  } catch {
    return null;
  }
}

function sources(dir) {
  const gyp = readFileSync(join(dir, 'binding.gyp'), 'utf8');
  const windows = process.platform === 'win32';
  const files = [...gyp.matchAll(/"(vendor\/[^"]+\.cc)"/g)].map((m) => m[1]);
  // The Windows-only files sit in the package's win condition; every other file is portable.
  return [...new Set(files)].filter((f) => windows || !/win32_|_win\.cc$/.test(f)).map((f) => join(dir, f));
}

/** gyp runs this from the .gyp file's folder and wants paths relative to it (make rules break on absolute ones). */
const fromHere = (p) => relative(process.cwd(), p);

const what = process.argv[2];
const dir = packageDir();
if (dir === null) {
  console.error('the re2 package is not installed');
  process.exit(1);
}
const include = [join(dir, 'vendor', 're2'), join(dir, 'vendor', 'abseil-cpp')];
if (what === 'include') {
  console.log(include.map(fromHere).join('\n'));
} else if (what === 'sources') {
  console.log(sources(dir).map(fromHere).join('\n'));
} else if (what === 'check') {
  const list = existsSync(join(dir, 'binding.gyp')) ? sources(dir) : [];
  const missing = [...include, ...list].filter((p) => !existsSync(p));
  if (list.length === 0 || missing.length > 0) {
    console.error(list.length === 0 ? `no RE2 sources listed in ${dir}/binding.gyp` : `missing: ${missing.slice(0, 3).join(', ')}`);
    process.exit(1);
  }
  console.log(`${list.length} RE2 and Abseil sources in ${dir}`);
} else {
  console.error('usage: re2-sources.mjs sources|include|check');
  process.exit(2);
}
