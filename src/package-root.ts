import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The package's root folder (where package.json and the native builds are): the nearest folder above
 * this module whose package.json is leakscan's. Modules run from src/, from dist/ and from the
 * command's bundle (dist/bin/), at different depths, so no fixed `../..` fits them all.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'leakscan') return (root = dir);
    } catch {
      // No package.json here (or not JSON): look further up.
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`leakscan's package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** A path inside the package (`rel` in `/` form from its root). */
export function packagePath(rel: string): string {
  return join(packageRoot(), rel);
}
