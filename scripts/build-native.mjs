#!/usr/bin/env node
/**
 * Builds the native prefilter (native/prefilter.c → build/Release/leakscan_prefilter.node) with
 * node-gyp, as `npm ci` / `npm install` run it (package.json "install"). It is optional: where no C
 * compiler or Node headers are to be had, this prints why and exits 0, and the engine runs its
 * TypeScript prefilter (same findings, slower). LEAKSCAN_SKIP_NATIVE=1 skips the build.
 *
 * Then the lean RE2 binding (native/re2 → native/re2/build/Release/leakscan_re2.node), from the RE2
 * sources the optional re2 package ships (scripts/re2-sources.mjs). Also optional: without it, RE2
 * searches go through the package's exec. LEAKSCAN_SKIP_NATIVE_RE2=1 skips it alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const warn = (msg) => console.warn(`leakscan: ${msg}; scans use the TypeScript prefilter (same findings, slower)`);

if (process.env.LEAKSCAN_SKIP_NATIVE === '1') {
  warn('LEAKSCAN_SKIP_NATIVE=1, native prefilter not built');
  process.exit(0);
}
// npm hands its own node-gyp to lifecycle scripts; outside npm, fall back to one on PATH.
const gyp = process.env.npm_config_node_gyp;
const [cmd, base] = gyp && existsSync(gyp) ? [process.execPath, [gyp]] : ['node-gyp', []];

/** Runs `node-gyp rebuild` in `dir`; returns null when it built, else the end of its output. */
function rebuild(dir, extra = []) {
  const r = spawnSync(cmd, [...base, 'rebuild', ...extra], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!r.error && r.status === 0) return null;
  return r.error ? r.error.message : (r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n');
}

let started = Date.now();
const failed = rebuild(root);
if (failed !== null) {
  warn(`the native prefilter did not build (${failed})`);
  process.exit(0);
}
console.log(`leakscan: native prefilter built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// The lean RE2 binding (native/re2): RE2 and Abseil compiled from the sources the re2 package ships,
// about a minute on two cores. Optional too: without it the package's own exec does the searches
// (same matches; on dense bodies the lean binding takes 0.67-0.81 of its time, npm run bench:re2).
const leanWarn = (msg) => console.warn(`leakscan: ${msg}; RE2 searches go through the re2 package's exec (same matches, slower)`);
if (process.env.LEAKSCAN_SKIP_NATIVE_RE2 === '1') {
  leanWarn('LEAKSCAN_SKIP_NATIVE_RE2=1, lean RE2 binding not built');
  process.exit(0);
}
const check = spawnSync(process.execPath, [join(root, 'scripts', 're2-sources.mjs'), 'check'], { cwd: root, encoding: 'utf8' });
if (check.status !== 0) {
  leanWarn(`no RE2 sources to build the lean binding from (${(check.stderr || check.stdout).trim()})`);
  process.exit(0);
}
started = Date.now();
const leanFailed = rebuild(join(root, 'native', 're2'), ['--jobs', 'max']);
if (leanFailed !== null) {
  leanWarn(`the lean RE2 binding did not build (${leanFailed})`);
  process.exit(0);
}
console.log(`leakscan: lean RE2 binding built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
