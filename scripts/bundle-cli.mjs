#!/usr/bin/env node
/**
 * The build's second step (package.json "build", after tsc): the command (dist/cli/main.js) and the
 * pool's worker (dist/pool/worker.js) bundled with esbuild into dist/bin/, which package.json's `bin`
 * runs. Only leakscan's own modules are bundled (packages stay external, native builds are found from
 * the package root); each command's lazy import becomes a shared chunk, so a command still loads only
 * what it uses. Node loading some 150 ES modules one by one was about a third of a command's
 * start-up. dist/bin/ is made afresh each time: the step is idempotent.
 *
 * Where esbuild cannot run (no binary for the platform) or LEAKSCAN_SKIP_BUNDLE=1, dist/bin/main.js
 * is a one-line entry that imports the unbundled command instead: the same command, a slower start.
 * `--out DIR` writes elsewhere (tests).
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--out');
const out = at > 0 ? resolve(process.argv[at + 1]) : join(root, 'dist', 'bin');
const say = (msg) => console.log(`leakscan: ${msg}`);

/** dist/bin/main.js as an entry importing the unbundled command (its worker stays dist/pool/worker.js). */
function unbundled(why) {
  mkdirSync(out, { recursive: true });
  const target = relative(out, join(root, 'dist', 'cli', 'main.js')).split('\\').join('/');
  writeFileSync(join(out, 'main.js'), `#!/usr/bin/env node\n// Written by scripts/bundle-cli.mjs: ${why}.\nimport '${target.startsWith('.') ? target : `./${target}`}';\n`);
  say(`command not bundled (${why}); dist/bin/main.js runs the unbundled modules (same command, slower start-up)`);
}

/** Bundles into `out`; returns what to say. Throws when esbuild cannot be loaded or fails. */
async function bundle() {
  const started = performance.now();
  const esbuild = await import('esbuild');
  await esbuild.build({
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
    logLevel: 'silent',
  });
  const files = readdirSync(out);
  const kb = files.reduce((n, f) => n + statSync(join(out, f)).size, 0) / 1024;
  return `bundled dist/cli/main.js and dist/pool/worker.js into ${relative(root, out) || '.'}/ with esbuild ${esbuild.version}: ${files.length} files, ${kb.toFixed(0)} KB, ${(performance.now() - started).toFixed(0)} ms`;
}

rmSync(out, { recursive: true, force: true });
if (process.env.LEAKSCAN_SKIP_BUNDLE === '1') {
  unbundled('LEAKSCAN_SKIP_BUNDLE=1');
} else {
  try {
    say(await bundle());
  } catch (err) {
    rmSync(out, { recursive: true, force: true });
    unbundled(`esbuild failed: ${String(err?.message ?? err).split('\n')[0]}`);
  }
}
