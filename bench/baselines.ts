/**
 * The two naive engines the bench compares leakscan with, built from the same enabled rules:
 *
 * (a) one V8 RegExp alternation of every rule's pattern, run as a global `exec` loop over the body's
 *     UTF-8 text: what a quick hand-rolled scanner does, fast on typical input but backtracking.
 * (b) one `re2-wasm` alternation, `test()` on 64 KiB windows: the linear-time engine used naively.
 *
 * Both only say *that* something matched (match count / positive windows): no rule attribution,
 * no checksums, no escape or entity decoding. They do less work than the engine, which keeps the
 * comparison conservative for leakscan.
 */
import { createRequire } from 'node:module';
import type { RuleDef } from '../src/rules/types.js';

const require = createRequire(import.meta.url);

interface Re2Wasm {
  test(s: string): boolean;
}
type Re2Ctor = new (pattern: string, flags: string) => Re2Wasm;

/** Window size of baseline (b). */
export const kWindowChars = 64 * 1024;
/** Overlap of consecutive (b) windows: a match up to this long is never cut in two. */
const kMaxOverlap = 4096;

export interface BaselineSpec {
  kind: 'a' | 'b';
  source: string;
  flags: string;
  /** (b) only: characters shared by consecutive windows. */
  overlap: number;
}

/**
 * Baseline (a): V8 has no inline flags in Node 20 (`(?i:…)` arrived in V8 12.4), so per-rule
 * `ignoreCase` cannot be expressed inside one alternation. The alternation is compiled with `i` only
 * when every rule asks for it, otherwise without: case-insensitive rules then match only as written
 * (a slightly cheaper regex, again in the baseline's favour).
 */
export function v8Alternation(rules: readonly RuleDef[]): BaselineSpec | null {
  if (rules.length === 0) return null;
  const allIgnoreCase = rules.every((r) => r.ignoreCase === true);
  return {
    kind: 'a',
    source: rules.map((r) => `(?:${r.pattern})`).join('|'),
    flags: allIgnoreCase ? 'giu' : 'gu',
    overlap: 0,
  };
}

/** Baseline (b): RE2 does have inline flags, so each case-insensitive rule is wrapped in `(?i:…)`. */
export function re2Alternation(rules: readonly RuleDef[]): BaselineSpec | null {
  if (rules.length === 0) return null;
  const maxLen = rules.reduce((m, r) => Math.max(m, r.maxLength), 0);
  return {
    kind: 'b',
    source: rules.map((r) => (r.ignoreCase === true ? `(?i:${r.pattern})` : `(?:${r.pattern})`)).join('|'),
    // `test()` without `g`: each window is searched from its start, `lastIndex` plays no part.
    flags: 'u',
    overlap: Math.min(maxLen, kMaxOverlap),
  };
}

/**
 * A compiled baseline. `run` scans a whole body and returns a count (matches for (a), positive
 * windows for (b)). Baseline (b) also has `estimate`, its probe: after one untimed warm-up window,
 * windows are timed until `budgetMs` is spent; since windows are independent, the body's time is the
 * sum of per-window times, and windows not reached are extrapolated from the mean of those timed
 * (re2-wasm can need seconds per 64 KiB window).
 */
export interface BaselineRun {
  run(body: Uint8Array): number;
  estimate?(body: Uint8Array, budgetMs: number): Estimate;
  /**
   * (b) only: the time of some of the windows of a body's text (`windowsOf`) and how many matched,
   * for the paired measurement (worker.ts, `pairedRun`). `warm`: the same windows once
   * untimed first (RE2 builds its DFA states lazily: a first pass over a 1 MB log took 1.7× a second).
   */
  timeWindows?(text: string, spans: ReadonlyArray<readonly [number, number]>, warm: boolean): { ms: number; count: number };
}

export interface Estimate {
  /** Milliseconds for the whole body: measured, or extrapolated when `estimated`. */
  ms: number;
  count: number;
  estimated: boolean;
  windowsTimed: number;
  windows: number;
}

/** A body's text as the baselines read it (UTF-8). */
export function baselineText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

export function compileBaseline(spec: BaselineSpec): BaselineRun {
  if (spec.kind === 'a') {
    const re = new RegExp(spec.source, spec.flags);
    return {
      run(body) {
        const text = baselineText(body);
        re.lastIndex = 0;
        let n = 0;
        for (let m = re.exec(text); m !== null; m = re.exec(text)) {
          // An empty match would loop forever: step over it, as String.prototype.matchAll does.
          if (m[0].length === 0) re.lastIndex++;
          else n++;
        }
        return n;
      },
    };
  }
  const { RE2 } = require('re2-wasm') as { RE2: Re2Ctor };
  const re = new RE2(spec.source, spec.flags);
  const windows = (text: string): Array<[number, number]> => windowsOf(text, spec.overlap);
  /** The windows `spans` of `text` that match. */
  const matching = (text: string, spans: ReadonlyArray<readonly [number, number]>): number => {
    let hits = 0;
    for (const [s, e] of spans) if (re.test(text.slice(s, e))) hits++;
    return hits;
  };
  return {
    run(body) {
      const text = baselineText(body);
      return matching(text, windows(text));
    },
    estimate(body, budgetMs) {
      // One untimed window first: RE2 builds its DFA states lazily, and the first window of a fresh
      // cache costs several times a warm one, which would bias the extrapolation upwards.
      const first = windows(baselineText(body))[0];
      if (first !== undefined) re.test(baselineText(body).slice(first[0], first[1]));
      const t0 = performance.now();
      const text = baselineText(body);
      const all = windows(text);
      let hits = 0;
      let timed = 0;
      for (const [s, e] of all) {
        if (re.test(text.slice(s, e))) hits++;
        timed++;
        if (performance.now() - t0 > budgetMs) break;
      }
      const elapsed = performance.now() - t0;
      const estimated = timed < all.length;
      return { ms: estimated ? (elapsed / timed) * all.length : elapsed, count: hits, estimated, windowsTimed: timed, windows: all.length };
    },
    timeWindows(text, spans, warm) {
      if (warm) matching(text, spans);
      const t0 = performance.now();
      const count = matching(text, spans);
      return { ms: performance.now() - t0, count };
    },
  };
}

/**
 * Baseline (b)'s windows over `text`: [start, end) pairs of at most kWindowChars characters, each
 * sharing `overlap` characters with the one before, never splitting a surrogate pair.
 */
export function windowsOf(text: string, overlap: number): Array<[number, number]> {
  const step = Math.max(1, kWindowChars - overlap);
  const out: Array<[number, number]> = [];
  for (let start = 0; start < text.length; start += step) {
    let s = start;
    let e = Math.min(text.length, start + kWindowChars);
    // Never split a surrogate pair: re2-wasm's `u` mode rejects a lone surrogate.
    if (s > 0 && isLowSurrogate(text.charCodeAt(s))) s--;
    if (e < text.length && isLowSurrogate(text.charCodeAt(e))) e++;
    out.push([s, e]);
    if (e >= text.length) break;
  }
  return out;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
