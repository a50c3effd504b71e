#!/usr/bin/env node
/**
 * Where native/re2/binding.gyp finds RE2: the sources the `re2` npm package ships and builds
 * (`vendor/re2`, `vendor/abseil-cpp`), listed from that package's own binding.gyp, so the list follows
 * whatever version the lockfile installs. When the package compiled them itself at install, its object
 * files are linked instead, so RE2 and Abseil are compiled once, not twice.
 *
 *   node scripts/re2-sources.mjs sources   files gyp compiles (none when the objects are linked)
 *   node scripts/re2-sources.mjs objects   the package's object files gyp links (none when compiling)
 *   node scripts/re2-sources.mjs include   include folders
 *   node scripts/re2-sources.mjs check     exits 1 (reason on stderr) when there is nothing to build from;
 *                                          else says which way it builds
 *
 * LEAKSCAN_RE2_FROM=sources compiles the sources even when the objects are there.
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

/** Source files of the package's build, relative to its folder. */
function sources(dir) {
  const gyp = readFileSync(join(dir, 'binding.gyp'), 'utf8');
  const windows = process.platform === 'win32';
  const files = [...gyp.matchAll(/"(vendor\/[^"]+\.cc)"/g)].map((m) => m[1]);
  // The Windows-only files sit in the package's win condition; every other file is portable.
  return [...new Set(files)].filter((f) => windows || !/win32_|_win\.cc$/.test(f));
}

/**
 * The package's object file for each source (node-gyp's make layout), or null when any is missing:
 * the package came prebuilt (nothing compiled here), or its build failed or was interrupted.
 */
function objects(dir, files) {
  if (process.env.LEAKSCAN_RE2_FROM === 'sources' || process.platform === 'win32') return null;
  const base = join(dir, 'build', 'Release', 'obj.target', 're2');
  const out = files.map((f) => join(base, f.replace(/\.cc$/, '.o')));
  return out.length > 0 && out.every((o) => existsSync(o)) && existsSync(join(dir, 'build', 'Release', 're2.node')) ? out : null;
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
const files = existsSync(join(dir, 'binding.gyp')) ? sources(dir) : [];
const linked = objects(dir, files);
if (what === 'include') {
  console.log(include.map(fromHere).join('\n'));
} else if (what === 'sources') {
  console.log(linked === null ? files.map((f) => fromHere(join(dir, f))).join('\n') : '');
} else if (what === 'objects') {
  // Absolute: gyp passes libraries to the linker as they are, from another folder than this one.
  console.log(linked === null ? '' : linked.join('\n'));
} else if (what === 'check') {
  const missing = [...include, ...files.map((f) => join(dir, f))].filter((p) => !existsSync(p));
  if (files.length === 0 || missing.length > 0) {
    console.error(files.length === 0 ? `no RE2 sources listed in ${dir}/binding.gyp` : `missing: ${missing.slice(0, 3).join(', ')}`);
    process.exit(1);
  }
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  console.log(
    linked === null
      ? `compiling ${files.length} RE2 and Abseil sources of re2@${version}`
      : `linking the ${linked.length} RE2 and Abseil objects re2@${version} compiled at its install`,
  );
} else {
  console.error('usage: re2-sources.mjs sources|objects|include|check');
  process.exit(2);
}
