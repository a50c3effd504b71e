/**
 * The anchors' pattern sets (bench/anchors.ts): the 44 reference patterns of
 * `../shared/bench/reference-patterns.json` (the shape peers' rule sets use, in the common subset of
 * V8, RE2 and Hyperscan syntax), as one V8 alternation and as Hyperscan pattern files, and leakscan's
 * own rules as a Hyperscan pattern file. Pure functions but `loadReferencePatterns`.
 */
import { readFileSync } from 'node:fs';
import type { RuleDef } from '../src/rules/types.js';
import type { BaselineSpec } from './baselines.js';

export interface ReferencePattern {
  name: string;
  re: string;
}

/**
 * The reference patterns of a `reference-patterns.json` file's text (`{ patterns: [{ name, re }] }`).
 * Throws on any other shape, naming what is wrong.
 */
export function parseReferencePatterns(text: string): ReferencePattern[] {
  const doc = JSON.parse(text) as { patterns?: unknown };
  if (!Array.isArray(doc.patterns)) throw new Error('reference patterns: no "patterns" array');
  return doc.patterns.map((p: unknown, i: number) => {
    const { name, re } = (p ?? {}) as { name?: unknown; re?: unknown };
    if (typeof name !== 'string' || typeof re !== 'string' || re === '') throw new Error(`reference patterns: entry ${i} is not { name, re }`);
    return { name, re };
  });
}

export function loadReferencePatterns(path: string): ReferencePattern[] {
  return parseReferencePatterns(readFileSync(path, 'utf8'));
}

/**
 * One V8 RegExp of every pattern, `(?:p1)|(?:p2)|…`, global and Unicode (`gu`, the flags the file's
 * syntax is written for), run as baseline (a) runs: an `exec` loop over the decoded body, counting
 * matches (`compileBaseline` in bench/baselines.ts).
 */
export function referenceAlternation(patterns: readonly ReferencePattern[]): BaselineSpec {
  if (patterns.length === 0) throw new Error('reference patterns: none');
  return { kind: 'a', source: patterns.map((p) => `(?:${p.re})`).join('|'), flags: 'gu', overlap: 0 };
}

/** One line of a Hyperscan pattern file for bench/hyperscan/hs-bench.c: `FLAGS<TAB>PATTERN`. */
function hsLine(flags: string, pattern: string): string {
  if (/[\n\r]/.test(pattern)) throw new Error(`a pattern holds a line break: ${JSON.stringify(pattern.slice(0, 40))}`);
  return `${flags === '' ? '-' : flags}\t${pattern}\n`;
}

/** The reference patterns as a Hyperscan pattern file: ASCII patterns, no flags. */
export function referenceHsFile(patterns: readonly ReferencePattern[]): string {
  return patterns.map((p) => hsLine('', p.re)).join('');
}

/**
 * leakscan's rules as a Hyperscan pattern file, in rule order: caseless (`i`) where the rule is, UTF-8
 * mode (`u`) only for a pattern with a character beyond ASCII or a Unicode escape (Hyperscan's `\b`
 * and classes stay ASCII, like RE2's). Hyperscan may refuse some (the harness names them).
 */
export function rulesHsFile(rules: readonly RuleDef[]): string {
  return rules
    .map((r) => {
      const unicode = /[^\x00-\x7f]|\\[pP]\{|\\x\{/.test(r.pattern);
      return hsLine(`${r.ignoreCase === true ? 'i' : ''}${unicode ? 'u' : ''}`, r.pattern);
    })
    .join('');
}
