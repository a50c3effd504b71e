import { createRequire } from 'node:module';
import { locateGroup, type RegexBackend } from './types.js';

const require = createRequire(import.meta.url);

interface NativeRe2 {
  lastIndex: number;
  exec(s: string): RegExpExecArray | null;
}
type NativeCtor = new (pattern: string, flags: string) => NativeRe2;

function load(): NativeCtor | null {
  try {
    return require('re2') as NativeCtor;
  } catch {
    // Optional dependency: absent when its native build failed or was skipped; re2-wasm takes over.
    return null;
  }
}

const RE2 = load();

/** True when the optional native `re2` package loaded. */
export const nativeRe2Available: boolean = RE2 !== null;

/**
 * Native RE2 (the optional `re2@1.24.0` package, built from source by node-gyp when no prebuilt
 * binary can be fetched). Linear-time like re2-wasm but about 18× cheaper per call on the small
 * windows the matcher hands it (0.34 µs against 6.2 µs on 110 characters, measured here), with
 * UTF-16 indices and native memory: no fixed 16 MB heap. The scanner prefers it when it loads.
 */
export const re2NativeBackend: RegexBackend | null =
  RE2 === null
    ? null
    : {
        name: 're2',
        linear: true,
        compile(pattern, ignoreCase, group) {
          const re = new RE2(pattern, ignoreCase ? 'giu' : 'gu');
          return {
            exec(text, from) {
              re.lastIndex = from;
              const m = re.exec(text);
              return m === null ? null : locateGroup(m, group);
            },
          };
        },
      };
