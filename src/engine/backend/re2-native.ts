import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CompiledPattern, PatternMatch, RegexBackend } from './types.js';
import { readsColumns, toRe2Syntax } from './re2-syntax.js';
import { packagePath } from '../../package-root.js';

const require = createRequire(import.meta.url);

/** The binding (native/re2/re2-binding.cc) over the system RE2. */
export interface Re2Binding {
  compile(pattern: string, ignoreCase: boolean, group: number): object;
  /** Match start, end, group start, group end (bytes) into `out`; false when there is no match. */
  exec(pattern: object, bytes: Uint8Array, from: number, out: Int32Array): boolean;
  /** The same over a string, in UTF-16 code units. */
  execString(pattern: object, text: string, from: number, out: Int32Array): boolean;
  /** `compile` in Latin-1, for `exec` over column bytes (absent from builds older than it). */
  compileColumns?(pattern: string, ignoreCase: boolean, group: number): object;
}

const kBuild = 'native/re2/build/Release/';

function load(): { binding: Re2Binding | null; reason?: string; library?: string } {
  if (process.env.LEAKSCAN_RE2_BINDING === 'off') return { binding: null, reason: 'LEAKSCAN_RE2_BINDING=off' };
  let binding: Re2Binding;
  try {
    binding = require(packagePath(`${kBuild}leakscan_re2.node`)) as Re2Binding;
  } catch (err) {
    // Not built (scripts/build-native.mjs said why at install), or the system RE2 it was linked
    // against is gone: re2-wasm takes over.
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === 'MODULE_NOT_FOUND'
        ? 'RE2 binding not built: it needs the system RE2 (apt-get install libre2-dev, brew install re2, dnf install re2-devel), then npm rebuild leakscan'
        : `RE2 binding did not load: ${String((err as Error).message).split('\n')[0]}`;
    return { binding: null, reason };
  }
  try {
    // The install's record of the build names the library it linked (for `leakscan --version`).
    const stamp = JSON.parse(readFileSync(packagePath(`${kBuild}leakscan-build.json`), 'utf8')) as { re2?: unknown };
    if (typeof stamp.re2 === 'string') return { binding, library: stamp.re2 };
  } catch {
    // Built by hand (node-gyp without the install script): the library goes unnamed.
  }
  return { binding };
}

const loaded = load();
const binding = loaded.binding;

/** True when the RE2 binding loaded (native RE2 is in use unless a backend is named). */
export const nativeRe2Available: boolean = binding !== null;

/**
 * Why native RE2 is not in use (null when it is), and the RE2 library the binding was linked against
 * where the install recorded it: for `leakscan --version` and serve's `engine:` line.
 */
export const re2Status: { readonly unavailable: string | null; readonly library: string | null } = {
  unavailable: binding === null ? (loaded.reason ?? 'RE2 binding not loaded') : null,
  library: loaded.library ?? null,
};

/** Where the binding writes a match: one array for the thread, read right after each call. */
const kOut = new Int32Array(4);

/**
 * Native RE2: the system's RE2 through our binding (native/re2/re2-binding.cc). Linear-time like
 * re2-wasm, far cheaper per call on the small windows the matcher hands it, with native memory (no
 * fixed 16 MB heap). The scanner prefers it when it loads.
 *
 * Over bytes (the matcher's windows, nearly every call) the binding searches the bytes in place and
 * writes four integers into one array: no object per call, no copy. Over a string (the rare window
 * search that starts between the halves of a surrogate pair; ruleset expressions' `matches`) it
 * encodes the string once in C++ and reports UTF-16 positions. JavaScript-only syntax is rewritten
 * for RE2 before compiling (`toRe2Syntax`).
 */
export const re2NativeBackend: RegexBackend | null = binding === null ? null : re2BackendOver(binding);

/** The match the binding last wrote into `kOut`. */
function lastMatch(): PatternMatch {
  return { start: kOut[0]!, end: kOut[1]!, groupStart: kOut[2]!, groupEnd: kOut[3]! };
}

/** The backend over a loaded binding (exported for `npm run bench:re2`, which compares two builds). */
export function re2BackendOver(binding: Re2Binding): RegexBackend {
  const compileColumns = binding.compileColumns;
  return {
    name: 're2',
    linear: true,
    bytes: true,
    ...(compileColumns === undefined ? {} : { columns: (pattern: string) => readsColumns(toRe2Syntax(pattern)) }),
    compile(pattern, ignoreCase, group) {
      const source = toRe2Syntax(pattern);
      // A pattern that reads column bytes is compiled for them first (the matcher hands it nearly
      // every window that way), and for UTF-8 only when text with a surrogate, ſ or K needs it.
      const columns = compileColumns !== undefined && readsColumns(source) ? compileColumns(source, ignoreCase, group) : null;
      let utf8: object | null = columns === null ? binding.compile(source, ignoreCase, group) : null;
      const utf8Program = (): object => (utf8 ??= binding.compile(source, ignoreCase, group));
      const compiled: CompiledPattern = {
        exec: (text, from) => (binding.execString(utf8Program(), text, from, kOut) ? lastMatch() : null),
        // Text handed over as bytes is not encoded again on each call, which halves the cost of a
        // call on the matcher's windows and spares re-encoding a region searched several times.
        execBytes: (bytes, from) => (binding.exec(utf8Program(), bytes, from, kOut) ? lastMatch() : null),
      };
      if (columns !== null) compiled.execColumns = (cols, from) => (binding.exec(columns, cols, from, kOut) ? lastMatch() : null);
      return compiled;
    },
  };
}
