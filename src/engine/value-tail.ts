/**
 * Rules whose value ends their pattern, compiled so that RE2 skips its submatch pass. RE2 finds a
 * match's span with its DFAs, then runs the whole pattern again over the span to place the value
 * group: for the keyword-value rules (a label, one of a dozen label-to-value syntaxes, the value)
 * about half of each call. Where the value is the pattern's last capturing group and ends it, the
 * span says where it is:
 * - a fixed width (`…([A-Za-z0-9/+]{40})`): the match's last characters;
 * - one class, open-ended (`…([A-Za-z0-9!#$%…]{8,})`): the run of that class right after the match
 *   of the rest of the pattern (its leftmost-first match, as the whole pattern's, takes its paths in
 *   the same order, and the value's class then takes all it can). When that run is too short for the
 *   value, another path may still match: the whole pattern is asked, with its group.
 * test/engine/value-tail.test.ts holds both to each backend's own group.
 */
import type { CompiledPattern, PatternMatch, RegexBackend } from './backend/index.js';

/** `backend.compile(source, ignoreCase, group)`, or its equivalent without the submatch pass. */
export function compileForValue(backend: RegexBackend, source: string, ignoreCase: boolean, group: number): CompiledPattern {
  const tail = lastGroup(source, group);
  if (tail !== null) {
    const width = fixedWidth(tail.body);
    if (width > 0) return valueAtEnd(backend.compile(source, ignoreCase, 0), width);
    const run = openRun(tail.body);
    // (The rest of the pattern must read column bytes wherever the whole pattern does.)
    if (run !== null && (backend.columns === undefined || backend.columns(tail.rest) || !backend.columns(source))) {
      return restThenRun(backend, source, tail.rest, run, ignoreCase, group);
    }
  }
  return backend.compile(source, ignoreCase, group);
}

/** The width of a fixed-width value group ending the pattern (see `lastGroup`), else 0. */
export function fixedValueWidth(source: string, group: number): number {
  const tail = lastGroup(source, group);
  return tail === null ? 0 : fixedWidth(tail.body);
}

/** An open-ended one-class value group ending the pattern: its class and least length, else null. */
export function openValueRun(source: string, group: number): { cls: string; min: number } | null {
  const tail = lastGroup(source, group);
  return tail === null ? null : openRun(tail.body);
}

/**
 * Group `group` of `source` when it is the last capturing group, it ends the pattern, and no
 * alternative at the top level could match without it: its body and the pattern before it.
 */
function lastGroup(source: string, group: number): { rest: string; body: string } | null {
  if (group === 0 || !source.endsWith(')')) return null;
  let depth = 0;
  let inClass = false;
  let captures = 0;
  let lastOpen = -1;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      depth++;
      if (source[i + 1] !== '?') {
        captures++;
        lastOpen = i;
      }
    } else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return null;
  }
  if (captures !== group || lastOpen < 0) return null;
  // (A body holding `(` or `)` is refused by both readers below.)
  return { rest: source.slice(0, lastOpen), body: source.slice(lastOpen + 1, -1) };
}

/** A class of plain characters and ranges: one BMP character each, whatever the case folding. */
const kClass = String.raw`\[[A-Za-z0-9+/=_.:~!#$%*?@|^-]+\]`;

/**
 * Width in UTF-16 units of a body of items each taking a fixed number of characters (an escaped
 * punctuation character, a class, a plain character, each then an optional {n}); 0 for any other.
 */
function fixedWidth(body: string): number {
  let width = 0;
  const item = new RegExp(String.raw`(\\[^A-Za-z0-9]|${kClass}|[A-Za-z0-9=_:~!#%@,;'"<>&/ -])(?:\{([0-9]+)\})?`, 'gy');
  for (const m of body.matchAll(item)) {
    if (m[1]!.startsWith('[^')) return 0;
    width += m[2] === undefined ? 1 : Number(m[2]);
    if (m.index + m[0].length === body.length) return width;
  }
  return 0;
}

/** A body that is one class repeated at least `min` (≥ 1) times, greedily: `[…]{8,}` or `[…]+`. */
function openRun(body: string): { cls: string; min: number } | null {
  const m = new RegExp(String.raw`^(${kClass})(?:\{([0-9]+),\}|\+)$`).exec(body);
  if (m === null || m[1]!.startsWith('[^')) return null;
  const min = m[2] === undefined ? 1 : Number(m[2]);
  return min >= 1 ? { cls: m[1]!, min } : null;
}

/** The pattern searched for its whole match, the value taken as the match's last `width` characters. */
function valueAtEnd(whole: CompiledPattern, width: number): CompiledPattern {
  const at = (m: PatternMatch | null): PatternMatch | null => {
    if (m !== null) m.groupStart = m.end - width;
    return m;
  };
  const out: CompiledPattern = { exec: (text, from) => at(whole.exec(text, from)) };
  if (whole.execBytes !== undefined) out.execBytes = (bytes, from) => at(whole.execBytes!(bytes, from));
  if (whole.execColumns !== undefined) out.execColumns = (cols, from) => at(whole.execColumns!(cols, from));
  return out;
}

/**
 * The rest of the pattern searched for its match [s, e); the value is then the run of the class
 * from e, when it is at least `min` long: the whole match is [s, end of the run). Otherwise, or where
 * the run meets a non-ASCII character (case folding may let one in), the whole pattern is asked.
 */
function restThenRun(backend: RegexBackend, source: string, rest: string, run: { cls: string; min: number }, ignoreCase: boolean, group: number): CompiledPattern {
  const head = backend.compile(rest, ignoreCase, 0);
  let whole: CompiledPattern | null = null;
  const full = (): CompiledPattern => (whole ??= backend.compile(source, ignoreCase, group));
  const member = new Uint8Array(128);
  const re = new RegExp(`^${run.cls}$`, ignoreCase ? 'iu' : 'u');
  for (let c = 0; c < 128; c++) member[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  // The run's end from `e`, or -1 when a non-ASCII unit or byte is met before it ends.
  const overString = (text: string, e: number): number => {
    for (; e < text.length; e++) {
      const c = text.charCodeAt(e);
      if (c >= 128) return -1;
      if (member[c] === 0) break;
    }
    return e;
  };
  const overBytes = (bytes: Uint8Array, e: number): number => {
    for (; e < bytes.length; e++) {
      const c = bytes[e]!;
      if (c >= 128) return -1;
      if (member[c] === 0) break;
    }
    return e;
  };
  const min = run.min;
  // The head's match, then the run after it; the whole pattern where the run cannot be the value.
  const place =
    <T>(find: (t: T, from: number) => PatternMatch | null, runEnd: (t: T, e: number) => number, ask: () => (t: T, from: number) => PatternMatch | null) =>
    (t: T, from: number): PatternMatch | null => {
      const m = find(t, from);
      if (m === null) return null;
      const end = runEnd(t, m.end);
      return end - m.end >= min ? { start: m.start, end, groupStart: m.end, groupEnd: end } : ask()(t, from);
    };
  const out: CompiledPattern = { exec: place(head.exec, overString, () => full().exec) };
  if (head.execBytes !== undefined) out.execBytes = place(head.execBytes, overBytes, () => full().execBytes!);
  if (head.execColumns !== undefined) out.execColumns = place(head.execColumns, overBytes, () => full().execColumns!);
  return out;
}
