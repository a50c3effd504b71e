/**
 * scripts/bundle-cli.mjs, the build's second step: the bundle it writes runs the command, and where it
 * is told not to bundle (or esbuild cannot run) it writes an entry that runs the unbundled command.
 * Written to a temporary folder (`--out`): dist/bin/ is what the other tests run.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sh } from '../serve/helpers.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const script = join(repo, 'scripts', 'bundle-cli.mjs');
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh output folder inside dist/, at the same depth as dist/bin/ (the bundle finds the root by walking up). */
function outDir(): string {
  const d = mkdtempSync(join(repo, 'dist', 'bin-test-'));
  made.push(d);
  return d;
}

describe.skipIf(!existsSync(join(repo, 'dist', 'cli', 'main.js')))('bundle-cli', () => {
  it('bundles the command and its worker, and the bundle runs', async () => {
    const out = outDir();
    const r = await sh(`"${process.execPath}" "${script}" --out "${out}"`, { timeoutMs: 60_000 });
    expect(r.code, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toMatch(/^leakscan: bundled dist\/cli\/main\.js and dist\/pool\/worker\.js into dist\/bin-test-\w+\/ with esbuild [\d.]+: \d+ files/);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['main.js', 'worker.js']));
    const v = await sh(`"${process.execPath}" "${join(out, 'main.js')}" --version`, { timeoutMs: 30_000 });
    expect(v.code).toBe(0);
    expect(v.stdout.toString()).toMatch(/^leakscan \d+\.\d+\.\d+ \(node /);
  });

  it('LEAKSCAN_SKIP_BUNDLE=1 writes an entry that runs the unbundled command, and says so', async () => {
    const out = outDir();
    const r = await sh(`"${process.execPath}" "${script}" --out "${out}"`, { timeoutMs: 60_000, env: { ...process.env, LEAKSCAN_SKIP_BUNDLE: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toContain('command not bundled (LEAKSCAN_SKIP_BUNDLE=1)');
    expect(readdirSync(out)).toEqual(['main.js']);
    const v = await sh(`"${process.execPath}" "${join(out, 'main.js')}" --version`, { timeoutMs: 30_000 });
    const direct = await sh(`"${process.execPath}" "${join(repo, 'dist', 'cli', 'main.js')}" --version`, { timeoutMs: 30_000 });
    expect(v.code).toBe(0);
    expect(v.stdout.toString()).toBe(direct.stdout.toString());
  });
});
