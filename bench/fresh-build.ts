import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of the files under `dir` (0 when it does not exist). */
export function newest(dir: string): number {
  let t = 0;
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
  } catch {
    return 0;
  }
  return t;
}

/** True when the checkout at `root` has a build (`dist/`) at least as new as every file of its `src/`. */
export function freshBuild(root: string): boolean {
  let built = 0;
  try {
    built = statSync(join(root, 'dist', 'engine', 'index.js')).mtimeMs;
  } catch {
    return false;
  }
  return built >= newest(join(root, 'src'));
}
