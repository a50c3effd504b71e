import { createRequire } from 'node:module';
import { exactGroup, type RegexBackend } from './types.js';

const require = createRequire(import.meta.url);

interface Re2Wasm {
  lastIndex: number;
  exec(s: string): RegExpExecArray | null;
}
type Re2Ctor = new (pattern: string, flags: string) => Re2Wasm;

/**
 * The `re2-wasm` module instance. Its WASM heap is fixed at 16 MB and cannot grow: when it is
 * exhausted the module aborts and stays dead. Compiled objects are never garbage-collected either
 * (embind objects need an explicit delete). So compiled patterns are cached per pattern and flags —
 * a process holds at most one object per distinct rule pattern — and an abort reloads a fresh
 * instance, recompiling lazily, instead of taking the scanner down.
 */
// Loaded on the first compile: where the native binding serves, the module (some 50 ms of start-up)
// is never read.
let RE2: Re2Ctor | null = null;
let generation = 0;
const cache = new Map<string, Re2Wasm>();

function load(): Re2Ctor {
  return (require('re2-wasm') as { RE2: Re2Ctor }).RE2;
}

function isAbort(err: unknown): boolean {
  return err instanceof WebAssembly.RuntimeError || (err instanceof Error && err.message.startsWith('abort('));
}

/** Drops the dead instance and loads a new one (test hook and abort recovery). */
export function resetRe2Wasm(): void {
  for (const key of Object.keys(require.cache)) if (key.includes(`${'/'}re2-wasm${'/'}`)) delete require.cache[key];
  cache.clear();
  RE2 = load();
  generation++;
}

/** How many times the WASM instance was replaced after an abort (for diagnostics and tests). */
export function re2WasmGeneration(): number {
  return generation;
}

function compiled(pattern: string, flags: string): Re2Wasm {
  const key = `${flags}/${pattern}`;
  let re = cache.get(key);
  if (re === undefined) {
    RE2 ??= load();
    re = new RE2(pattern, flags);
    cache.set(key, re);
  }
  return re;
}

const kSurrogate = /[\uD800-\uDFFF]/g;

/**
 * `re2-wasm`: portable, linear-time, no native build. Besides the memory rules above:
 * - every call copies the whole input into WASM memory, so it is only ever given one small window;
 * - its `index`/`lastIndex` count code points, not UTF-16 units, so astral characters would shift
 *   offsets. Each surrogate code unit is replaced by U+FFFD first: lengths stay equal, and the
 *   managed patterns treat U+FFFD exactly as they treat any other non-ASCII character;
 * - compiling is slow (tens of ms for large counted repeats), so a pattern is compiled the first
 *   time a window needs it: a scan pays only for the rules whose triggers fired.
 */
export const re2WasmBackend: RegexBackend = {
  name: 're2-wasm',
  linear: true,
  compile(pattern, ignoreCase, group) {
    const flags = ignoreCase ? 'giu' : 'gu';
    let lastText = '';
    let lastSafe = '';
    const place = exactGroup(pattern, ignoreCase, group);
    const run = (text: string, from: number) => {
      if (text !== lastText) {
        lastText = text;
        kSurrogate.lastIndex = 0;
        lastSafe = kSurrogate.test(text) ? text.replace(kSurrogate, '\uFFFD') : text;
      }
      const re = compiled(pattern, flags);
      re.lastIndex = from;
      const m = re.exec(lastSafe);
      return m === null ? null : place(lastSafe, m);
    };
    return {
      exec(text, from) {
        try {
          return run(text, from);
        } catch (err) {
          if (!isAbort(err)) throw err;
          resetRe2Wasm();
          return run(text, from);
        }
      },
    };
  },
};

/** Compiles `pattern` now, to report syntax errors early (rule tests use it). */
export function checkRe2WasmPattern(pattern: string, ignoreCase: boolean): void {
  compiled(pattern, ignoreCase ? 'giu' : 'gu');
}
