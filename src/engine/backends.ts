/** Which prefilter and regex backend scans use in this install, and why not the faster ones. */
import { re2Binding } from './backend/index.js';
import { nativeStatus } from './native.js';

/** What the engine runs on here, for `leakscan --version` and serve's start-up line. */
export interface EngineBackends {
  prefilter: 'native' | 'typescript';
  regex: 're2 (lean binding)' | 're2 (package exec)' | 're2-wasm';
  /** Why a faster part is not in use, one entry per part. */
  notes: string[];
}

export function engineBackends(): EngineBackends {
  const prefilter = nativeStatus();
  const notes: string[] = [];
  if (prefilter.reason !== undefined) notes.push(prefilter.reason);
  let regex: EngineBackends['regex'];
  if (re2Binding === 'lean') regex = 're2 (lean binding)';
  else if (re2Binding === 'package') {
    regex = 're2 (package exec)';
    notes.push(process.env.LEAKSCAN_RE2_BINDING === 'package' ? 'LEAKSCAN_RE2_BINDING=package' : 'lean RE2 binding not built; run npm rebuild leakscan');
  } else {
    regex = 're2-wasm';
    notes.push('the re2 package did not load (no native build); re2-wasm is slower');
  }
  return { prefilter: prefilter.prefilter === 'native' ? 'native' : 'typescript', regex, notes };
}

/** One line: `prefilter native, regex re2 (lean binding)`, with the notes in parentheses. */
export function describeEngineBackends(b: EngineBackends): string {
  return `prefilter ${b.prefilter}, regex ${b.regex}${b.notes.length > 0 ? ` (${b.notes.join('; ')})` : ''}`;
}
