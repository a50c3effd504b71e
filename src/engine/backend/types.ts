/** One match of a compiled pattern; indices are UTF-16 positions in the searched text. */
export interface PatternMatch {
  start: number;
  end: number;
  /** Span of the rule's value group (equal to start/end for group 0). */
  groupStart: number;
  groupEnd: number;
}

export interface CompiledPattern {
  /** The leftmost match starting at or after `from`, or null. */
  exec(text: string, from: number): PatternMatch | null;
  /**
   * The same over text given as UTF-8 bytes, `from` and the result in byte offsets (equal to UTF-16
   * indices where the text is ASCII). Optional: a backend that gains nothing from bytes leaves it out.
   */
  execBytes?(bytes: Uint8Array, from: number): PatternMatch | null;
  /**
   * The same over column bytes (the prefilter's: one byte per UTF-16 code unit, ASCII as itself and
   * any other character 0x80 or 0x81), `from` and the result in UTF-16 indices. Exact only for text
   * without the characters `columnsSpecial` names; present where the backend's `columns` accepts the
   * pattern.
   */
  execColumns?(cols: Uint8Array, from: number): PatternMatch | null;
}

/**
 * Code units that column bytes do not stand for faithfully: a surrogate (a pattern counts the pair as
 * one character) and the two characters that case-insensitive ASCII letters take (U+017F ſ for `s`,
 * U+212A for `k`). Text holding one is searched through `execBytes` or `exec`.
 */
export function columnsSpecial(code: number): boolean {
  return (code >= 0xd800 && code <= 0xdfff) || code === 0x17f || code === 0x212a;
}

/**
 * A regular-expression engine the matcher confirms candidates with. Every backend must return the
 * same matches for the same window (the conformance suite runs them side by side).
 */
export interface RegexBackend {
  readonly name: 're2-wasm' | 're2' | 'v8';
  /** True when matching time is linear in the input (RE2); false for the V8 reference. */
  readonly linear: boolean;
  /** True when every pattern it compiles has `execBytes`. */
  readonly bytes?: boolean;
  /**
   * Whether `compile(pattern)` gives `execColumns`: the backend reads column bytes and the pattern
   * treats every non-ASCII character alike (see `readsColumns`). Absent: never.
   */
  readonly columns?: (pattern: string) => boolean;
  compile(pattern: string, ignoreCase: boolean, group: number): CompiledPattern;
}

/**
 * The match and its value group. Exact when the engine reported group indices (the `d` flag: V8,
 * native RE2); otherwise the group's text is looked for from the right of the whole match, which can
 * pick a later copy of the same text (see `exactGroup` for the backends without indices).
 */
export function locateGroup(m: RegExpExecArray, group: number): PatternMatch | null {
  const start = m.index;
  const end = start + m[0].length;
  if (group === 0) return { start, end, groupStart: start, groupEnd: end };
  const span = m.indices?.[group];
  if (span !== undefined) return { start, end, groupStart: span[0], groupEnd: span[1] };
  const g = m[group];
  if (g === undefined) return null;
  // The value is searched from the right: prefixes (keywords, `=`, quotes) come before it.
  const at = m[0].lastIndexOf(g);
  return { start, end, groupStart: start + at, groupEnd: start + at + g.length };
}

/**
 * For a backend without group indices (re2-wasm): the group of a match RE2 found, placed exactly by
 * V8 re-matching the same pattern anchored at the same start (`y` and `d` flags). Both engines pick
 * the same leftmost-first match, and V8 runs only on a string RE2 has just matched (at most the
 * rule's maxLength long), never on a search. Falls back to `locateGroup` if V8 disagrees.
 */
export function exactGroup(pattern: string, ignoreCase: boolean, group: number): (text: string, m: RegExpExecArray) => PatternMatch | null {
  if (group === 0) return (_text, m) => locateGroup(m, 0);
  let anchored: RegExp | null = null;
  return (text, m) => {
    anchored ??= new RegExp(pattern, ignoreCase ? 'iuyd' : 'uyd');
    anchored.lastIndex = m.index;
    const v = anchored.exec(text);
    if (v !== null && v[0].length === m[0].length && v.indices?.[group] !== undefined) {
      const [gs, ge] = v.indices[group]!;
      return { start: m.index, end: m.index + m[0].length, groupStart: gs, groupEnd: ge };
    }
    return locateGroup(m, group);
  };
}
