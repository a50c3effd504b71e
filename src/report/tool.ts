import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';

export const kToolName = 'leakscan';

let cachedVersion: string | undefined;

/** This package's version, read from its package.json. */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: unknown };
      cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}
