import { createRequire } from 'node:module';
import { locateGroup, type RegexBackend } from './types.js';

const require = createRequire(import.meta.url);

interface Re2Wasm {
  lastIndex: number;
  exec(s: string): RegExpExecArray | null;
}
const { RE2 } = require('re2-wasm') as { RE2: new (pattern: string, flags: string) => Re2Wasm };

const kSurrogate = /[\uD800-\uDFFF]/g;

/**
 * `re2-wasm`: portable, linear-time, no native build. Two quirks shape this wrapper:
 * - every call copies the whole input into WASM memory, so it is only ever given one small window;
 * - its `index`/`lastIndex` count code points, not UTF-16 units, so astral characters would shift
 *   offsets. Each surrogate code unit is replaced by U+FFFD first: lengths stay equal, and the
 *   managed patterns treat U+FFFD exactly as they treat any other non-ASCII character.
 */
export const re2WasmBackend: RegexBackend = {
  name: 're2-wasm',
  linear: true,
  compile(pattern, ignoreCase, group) {
    const re = new RE2(pattern, ignoreCase ? 'giu' : 'gu');
    let lastText = '';
    let lastSafe = '';
    return {
      exec(text, from) {
        if (text !== lastText) {
          lastText = text;
          kSurrogate.lastIndex = 0;
          lastSafe = kSurrogate.test(text) ? text.replace(kSurrogate, '\uFFFD') : text;
        }
        re.lastIndex = from;
        const m = re.exec(lastSafe);
        return m === null ? null : locateGroup(m, group);
      },
    };
  },
};
