import { createRequire } from 'node:module';
import { locateGroup, type RegexBackend } from './types.js';

const require = createRequire(import.meta.url);

interface NativeRe2 {
  lastIndex: number;
  exec(s: string): RegExpExecArray | null;
  /** On a Buffer: indices are byte offsets and the groups are Buffers. */
  exec(b: Buffer): (Array<Buffer | undefined> & { index: number; indices?: Array<[number, number] | undefined> }) | null;
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

/** The lean binding (native/re2/re2-binding.cc): RE2 compiled from the sources the `re2` package ships. */
interface LeanRe2 {
  compile(pattern: string, ignoreCase: boolean, group: number): object;
  /** Match start, end, group start, group end (bytes) into `out`; false when there is no match. */
  exec(pattern: object, bytes: Uint8Array, from: number, out: Int32Array): boolean;
}

function loadLean(): LeanRe2 | null {
  if (RE2 === null || process.env.LEAKSCAN_RE2_BINDING === 'package') return null;
  try {
    // src/engine/backend/ and dist/engine/backend/ are both three folders below the package root.
    return require('../../../native/re2/build/Release/leakscan_re2.node') as LeanRe2;
  } catch {
    // Not built (scripts/build-native.mjs says why at install): the package's exec does it all.
    return null;
  }
}

const lean = loadLean();

/**
 * Which binding confirms matches over bytes: `lean` (ours, see native/re2/re2-binding.cc) when it
 * was built, `package` (the re2 package's exec) otherwise or when LEAKSCAN_RE2_BINDING=package.
 */
export const re2Binding: 'lean' | 'package' | null = RE2 === null ? null : lean !== null ? 'lean' : 'package';

/**
 * JavaScript syntax the re2 package rewrites before RE2 sees it (`\u0041`, `\u{…}`, `\cA`, long
 * `\p{…}` names, `(?<name>`): a pattern with any of it goes through the package, whose rewriting
 * is the reference. The rules use none today (checked by the backend conformance tests).
 */
const kRewrittenSyntax = /\\[ucpP]|\(\?</;

/** Where the lean binding writes a match: one array for the thread, read right after each call. */
const kOut = new Int32Array(4);

/**
 * Native RE2 (the optional `re2@1.24.0` package, built from source by node-gyp when no prebuilt
 * binary can be fetched). Linear-time like re2-wasm but about 18× cheaper per call on the small
 * windows the matcher hands it (0.34 µs against 6.2 µs on 110 characters, measured here), with
 * UTF-16 indices and native memory: no fixed 16 MB heap. The scanner prefers it when it loads.
 *
 * Over bytes (the matcher's windows, nearly every call), the lean binding does the search when it
 * was built: same RE2, the same options wherever they decide a match (its DFA memory budget is
 * larger), no objects per call. The package's `exec` builds a result array,
 * a Buffer copy of each group and an index pair per group for every match (a match cost 1.9 µs, 3.8
 * with group indices, against 0.39-0.40 µs through the lean binding on a 230-byte window, measured
 * here; a miss 0.54 against 0.45), and each Buffer is an ArrayBuffer the collector has to sweep.
 */
export const re2NativeBackend: RegexBackend | null = nativeBackend(lean);

/**
 * The same backend with the package's `exec` doing every search (null when the package did not
 * load): what the conformance suite checks the lean binding against, and the bench's baseline for it.
 */
export const re2PackageBackend: RegexBackend | null = lean === null ? re2NativeBackend : nativeBackend(null);

function nativeBackend(lean: LeanRe2 | null): RegexBackend | null {
  return RE2 === null
    ? null
    : {
        name: 're2',
        linear: true,
        compile(pattern, ignoreCase, group) {
          // `d`: group indices (UTF-16 on strings, bytes on Buffers), for rules that report a group.
          const flags = `${ignoreCase ? 'giu' : 'gu'}${group > 0 ? 'd' : ''}`;
          const leanPattern = lean !== null && !kRewrittenSyntax.test(pattern) ? lean.compile(pattern, ignoreCase, group) : null;
          // With the lean binding, the package's object serves only searches over strings (rare: text
          // with lone surrogates), so it is made on the first of them.
          let re: NativeRe2 | null = leanPattern === null ? new RE2!(pattern, flags) : null;
          // `lastIndex` as this code last left it: 0 after a failed search (a global regex resets it),
          // -1 when unknown. Setting it crosses into C++; most window searches start at 0 right after
          // a failed one, and skip that.
          let last = 0;
          return {
            exec(text, from) {
              re ??= new RE2!(pattern, flags);
              re.lastIndex = from;
              const m = re.exec(text);
              last = m === null ? 0 : -1;
              return m === null ? null : locateGroup(m, group);
            },
            // A string is encoded to UTF-8 on every call; text handed over as bytes is not, which
            // halves the cost of a call on the matcher's windows (measured: 3.0 against 5.3 µs on
            // 2,000 characters, 0.45 against 1.3 µs on 40) and spares re-encoding a region that is
            // searched several times.
            execBytes:
              leanPattern !== null
                ? (bytes, from) => {
                    if (!lean!.exec(leanPattern, bytes, from, kOut)) return null;
                    return { start: kOut[0]!, end: kOut[1]!, groupStart: kOut[2]!, groupEnd: kOut[3]! };
                  }
                : (bytes, from) => {
                    const r = re!;
                    if (from !== last) r.lastIndex = from;
                    const m = r.exec(bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
                    last = m === null ? 0 : -1;
                    if (m === null) return null;
                    const whole = m[0]!;
                    const start = m.index;
                    const end = start + whole.length;
                    if (group === 0) return { start, end, groupStart: start, groupEnd: end };
                    const span = m.indices?.[group];
                    if (span === undefined) return null;
                    return { start, end, groupStart: span[0], groupEnd: span[1] };
                  },
          };
        },
      };
}
