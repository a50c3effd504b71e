#!/usr/bin/env node
/**
 * Builds the native prefilter (native/prefilter.c → build/Release/leakscan_prefilter.node) with
 * node-gyp, as `npm ci` / `npm install` run it (package.json "install"). It is optional: where no C
 * compiler or Node headers are to be had, this prints why and exits 0, and the engine runs its
 * TypeScript prefilter (same findings, slower). LEAKSCAN_SKIP_NATIVE=1 skips the build.
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
const [cmd, args] = gyp && existsSync(gyp) ? [process.execPath, [gyp, 'rebuild']] : ['node-gyp', ['rebuild']];
const started = Date.now();
const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
if (r.error || r.status !== 0) {
  const detail = r.error ? r.error.message : (r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n');
  warn(`the native prefilter did not build (${detail})`);
  process.exit(0);
}
console.log(`leakscan: native prefilter built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
