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
}

/**
 * A regular-expression engine the matcher confirms candidates with. Every backend must return the
 * same matches for the same window (the conformance suite runs them side by side).
 */
export interface RegexBackend {
  readonly name: 're2-wasm' | 're2' | 'v8';
  /** True when matching time is linear in the input (RE2); false for the V8 reference. */
  readonly linear: boolean;
  compile(pattern: string, ignoreCase: boolean, group: number): CompiledPattern;
}

/** Locates group `group` inside the whole match (backends without group indices). */
export function locateGroup(m: RegExpExecArray, group: number): PatternMatch | null {
  const start = m.index;
  const end = start + m[0].length;
  if (group === 0) return { start, end, groupStart: start, groupEnd: end };
  const g = m[group];
  if (g === undefined) return null;
  // The value is searched from the right: prefixes (keywords, `=`, quotes) come before it.
  const at = m[0].lastIndexOf(g);
  return { start, end, groupStart: start + at, groupEnd: start + at + g.length };
}
