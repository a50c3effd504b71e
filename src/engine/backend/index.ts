import { LeakscanError } from '../../errors.js';
import type { RegexBackend } from './types.js';
import { re2WasmBackend } from './re2-wasm.js';
import { nativeRe2Available, re2NativeBackend, re2Status } from './re2-native.js';
import { toRe2Syntax } from './re2-syntax.js';
import { v8Backend } from './v8.js';

export type { RegexBackend, CompiledPattern, PatternMatch } from './types.js';
export { columnsSpecial } from './types.js';
export { re2WasmBackend, re2NativeBackend, re2Status, nativeRe2Available, toRe2Syntax, v8Backend };

export type BackendName = 'auto' | 're2-wasm' | 're2' | 'v8';

/**
 * The backend for a name. `auto` is native `re2` when its binding loaded, else `re2-wasm`
 * (always there). `v8` is the conformance reference, not linear-time: never chosen by `auto`.
 */
export function resolveBackend(name: BackendName = 'auto'): RegexBackend {
  switch (name) {
    case 'auto':
      return re2NativeBackend ?? re2WasmBackend;
    case 're2-wasm':
      return re2WasmBackend;
    case 'v8':
      return v8Backend;
    case 're2':
      if (re2NativeBackend) return re2NativeBackend;
      throw new LeakscanError('SDD_ERR_BACKEND_UNAVAILABLE', `native RE2 is not available here (${re2Status.unavailable ?? 'not loaded'}); use re2-wasm`);
    default:
      throw new LeakscanError('SDD_ERR_INVALID_OPTION', `unknown backend ${JSON.stringify(name)}`);
  }
}
