import type { RegexBackend } from './types.js';
import { re2WasmBackend } from './re2-wasm.js';
import { v8Backend } from './v8.js';

export type { RegexBackend, CompiledPattern, PatternMatch } from './types.js';
export { re2WasmBackend, v8Backend };

export type BackendName = 'auto' | 're2-wasm' | 're2' | 'v8';

/** The RE2 backend for a name; `auto` is `re2-wasm`, the one that always loads. */
export function resolveBackend(name: BackendName = 'auto'): RegexBackend {
  switch (name) {
    case 'auto':
    case 're2-wasm':
      return re2WasmBackend;
    case 'v8':
      return v8Backend;
    case 're2':
      throw new Error('the native re2 backend is not installed in this build; use re2-wasm');
  }
}
