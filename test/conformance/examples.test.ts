import { describe } from 'vitest';
import { compileProgram, re2WasmBackend, scanStream, v8Backend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { runExampleCases } from './examples.case.js';

const re2 = compileProgram(allRuleDefs, re2WasmBackend);
const v8 = compileProgram(allRuleDefs, v8Backend);

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
