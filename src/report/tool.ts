import { readFileSync } from 'node:fs';

export const kToolName = 'leakscan';

let cachedVersion: string | undefined;

/** This package's version, read from package.json (two levels up from both `src/report` and `dist/report`). */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}
