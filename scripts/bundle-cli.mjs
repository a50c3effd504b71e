#!/usr/bin/env node
/**
 * The build's second step (package.json "build", after tsc): the command (dist/cli/main.js) and the
 * pool's worker (dist/pool/worker.js) bundled with esbuild into dist/bin/, which package.json's `bin`
 * runs. Only leakscan's own modules are bundled (packages stay external, native builds are found from
 * the package root); each command's lazy import becomes a shared chunk, so a command still loads only
 * what it uses. Node loading some 150 ES modules one by one was about a third of a command's
 * start-up. dist/bin/ is made afresh each time: the step is idempotent.
 */
import { rmSync, statSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bin');
const started = performance.now();
rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'dist/cli/main.js', worker: 'dist/pool/worker.js' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir: out,
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
});
const files = readdirSync(out);
const kb = files.reduce((n, f) => n + statSync(join(out, f)).size, 0) / 1024;
console.log(`leakscan: bundled dist/cli/main.js and dist/pool/worker.js into dist/bin/ with esbuild ${version}: ${files.length} files, ${kb.toFixed(0)} KB, ${(performance.now() - started).toFixed(0)} ms`);
