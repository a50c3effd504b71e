/**
 * The detection engine: decoded text → prefilter → windowed RE2 confirmation → checks → redacted
 * findings. Everything here runs in one thread; src/pool/ spreads it over workers.
 */
export { compileProgram, withPrefilter, type Program, type CompiledRule } from './program.js';
export { scanStream, bodyBytes, iterateBody, type ScanLimits } from './stream.js';
export { BodyScanner, kMaxScanBytes } from './body.js';
export { engineBackends, describeEngineBackends, type EngineBackends } from './backends.js';
export { resolveBackend, re2WasmBackend, re2NativeBackend, re2Status, nativeRe2Available, toRe2Syntax, v8Backend, type BackendName, type RegexBackend } from './backend/index.js';
