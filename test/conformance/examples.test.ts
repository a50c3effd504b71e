import { describe } from 'vitest';
import { compileProgram, re2NativeBackend, re2WasmBackend, scanStream, v8Backend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { runExampleCases } from './examples.case.js';

// At the lowest threshold: positives carry their stated confidence, negatives are found at no level.
const re2 = compileProgram(allRuleDefs, re2WasmBackend, 'low');
const v8 = compileProgram(allRuleDefs, v8Backend, 'low');

describe('examples: re2-wasm, whole body', () => {
  runExampleCases(async (body, contentType) => (await scanStream(re2, [body], { contentType })).findings);
});

describe('examples: v8 reference backend, whole body', () => {
  runExampleCases(async (body, contentType) => (await scanStream(v8, [body], { contentType })).findings);
});

describe('examples: re2-wasm, 7-byte chunks', () => {
  runExampleCases(async (body, contentType) => {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < body.length; i += 7) chunks.push(body.subarray(i, i + 7));
    return (await scanStream(re2, chunks, { contentType }, { coalesceBytes: 1 })).findings;
  });
});

// The optional native backend, when its build succeeded on this machine (else said and skipped).
describe.skipIf(re2NativeBackend === null)('examples: native re2, whole body and 5-byte chunks', () => {
  if (re2NativeBackend === null) {
    console.warn('native re2 not installed: its conformance run is skipped');
    return;
  }
  const native = compileProgram(allRuleDefs, re2NativeBackend, 'low');
  runExampleCases(async (body, contentType) => {
    const whole = (await scanStream(native, [body], { contentType })).findings;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < body.length; i += 5) chunks.push(body.subarray(i, i + 5));
    const parts = (await scanStream(native, chunks, { contentType }, { coalesceBytes: 1 })).findings;
    if (JSON.stringify(parts) !== JSON.stringify(whole)) throw new Error('chunked native scan differs from whole scan');
    return whole;
  });
});
