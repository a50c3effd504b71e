/**
 * The optional native half of the engine: `native/prefilter.c` (the prefilter pass, and the UTF-8
 * decoder's per-character offsets), built by `npm ci` through node-gyp
 * (see scripts/build-native.mjs). When it is missing (no compiler where leakscan was installed) or
 * turned off with `LEAKSCAN_PREFILTER=js`, the engine runs the TypeScript prefilter, which gives the
 * same events (the conformance suite runs both); only speed differs.
 */
import { createRequire } from 'node:module';
import { packagePath } from '../package-root.js';

export interface NativeBinding {
  tables(spec: NativeTablesSpec): object;
  state(tables: object): object;
  /** Puts a state back as `state` made it (absent from a binary built before it existed). */
  reset?(state: object): void;
  scan(state: object, cols: Uint8Array, from: number, to: number, out: Float64Array, meta: Float64Array): number;
  finish(state: object, out: Float64Array, meta: Float64Array): number;
  /**
   * Per UTF-16 code unit of valid UTF-8 `bytes`, the offset (+ base) of its first byte into `out`; the
   * indices of the non-ASCII units into `wide`; returns their count (as `utf8OffsetsJs`).
   */
  utf8Offsets(bytes: Uint8Array, base: number, out: Int32Array, wide: Int32Array): number;
  /** Valid UTF-8 `bytes` as the string `Buffer#toString('utf8')` gives (one pass, ASCII eight bytes at a time). */
  utf8Text(bytes: Uint8Array): string;
}

/** The flat tables the native pass copies (field names as in `PrefilterTables`). */
export interface NativeTablesSpec {
  delta: Uint16Array | Int32Array;
  firstOut: number;
  depth: Int32Array;
  outStart: Int32Array;
  outRule: Int32Array;
  outLen: Int32Array;
  cls: Uint8Array;
  sepBit: Uint8Array;
  setMasks: Uint8Array;
  setMin: Int32Array;
  setFrom: Int32Array;
  setIdx: Int32Array;
  digitRule: Int32Array;
  digitMin: Int32Array;
  digitMax: Float64Array;
  minDigits: number;
  maxTokenLen: number;
  /** Per token length `len`, its rules are `tokRule[tokFrom[len] .. tokFrom[len + 1])`. */
  tokFrom: Int32Array;
  tokRule: Int32Array;
  /** Per token rule entry: bit 0 needs a digit, bit 1 needs a letter. */
  tokFlags: Uint8Array;
  /** One more than the largest rule index; keyword outputs from it on are context words. */
  ruleCount: number;
  /** Per rule: the reach of its context screen, 0 for none. */
  ctxWithin: Float64Array;
  /** Per digit rule, its run shape (see `PrefilterTables.digitFirst` and the fields after it). */
  digitFirst: Uint16Array;
  digitSides: Uint8Array;
  digitSideSets: Uint8Array;
  digitGroups: Int32Array;
  /** Per rule: joined keyword hits (`PrefilterTables.joinGap` and the fields after it). */
  joinGap: Float64Array;
  joinSpan: Float64Array;
  nextOf: Int32Array;
  nextCols: Uint8Array;
}

export type PrefilterImpl = 'native' | 'js';

let loaded: NativeBinding | null | undefined;
let why = '';

/** The native binding, or null (and `nativeStatus().reason` says why). Loaded once per thread. */
export function nativeBinding(): NativeBinding | null {
  if (loaded !== undefined) return loaded;
  if (process.env.LEAKSCAN_PREFILTER === 'js') {
    why = 'LEAKSCAN_PREFILTER=js';
    return (loaded = null);
  }
  try {
    const require = createRequire(import.meta.url);
    loaded = require(packagePath('build/Release/leakscan_prefilter.node')) as NativeBinding;
  } catch (e) {
    why = `native prefilter not built (${(e as Error).message.split('\n')[0]}); run npm rebuild leakscan`;
    loaded = null;
  }
  return loaded;
}

/** Which prefilter new scans use, and why not the native one when it is not. */
export function nativeStatus(): { prefilter: PrefilterImpl; reason?: string } {
  return nativeBinding() !== null ? { prefilter: 'native' } : { prefilter: 'js', reason: why };
}
