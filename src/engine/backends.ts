/** Which prefilter and regex backend scans use in this install, and why not the faster ones. */
import { re2Status } from './backend/index.js';
import { nativeStatus } from './native.js';

/** What the engine runs on here, for `leakscan --version` and serve's start-up line. */
export interface EngineBackends {
  prefilter: 'native' | 'typescript';
  /** `re2` is the system RE2 through the binding (native/re2); `re2-wasm` the portable fallback. */
  regex: 're2' | 're2-wasm';
  /** The RE2 library the binding links, where the install recorded it (`libre2.so.9.0.0`). */
  re2Library: string | null;
  /** Why a faster part is not in use, one entry per part. */
  notes: string[];
}

export function engineBackends(): EngineBackends {
  const prefilter = nativeStatus();
  const notes: string[] = [];
  if (prefilter.reason !== undefined) notes.push(prefilter.reason);
  if (re2Status.unavailable !== null) notes.push(`${re2Status.unavailable}; re2-wasm is slower`);
  return {
    prefilter: prefilter.prefilter === 'native' ? 'native' : 'typescript',
    regex: re2Status.unavailable === null ? 're2' : 're2-wasm',
    re2Library: re2Status.library,
    notes,
  };
}

/** One line: `prefilter native, regex re2 (system libre2.so.9.0.0)`, with the notes in parentheses. */
export function describeEngineBackends(b: EngineBackends): string {
  const regex = b.regex === 're2' ? `re2 (system ${b.re2Library ?? 'RE2'})` : b.regex;
  return `prefilter ${b.prefilter}, regex ${regex}${b.notes.length > 0 ? ` (${b.notes.join('; ')})` : ''}`;
}
