import { describe, expect, it } from 'vitest';
import { checkRe2WasmPattern, re2WasmGeneration } from '../../src/engine/backend/re2-wasm.js';
import { compileProgram, re2NativeBackend, re2WasmBackend, resolveBackend, scanStream, v8Backend, type RegexBackend } from '../../src/engine/index.js';
import { selectRules } from '../../src/rules/index.js';
import { program } from './helpers.js';

describe('re2-wasm backend', () => {
  it('reports code-unit offsets even around astral characters', () => {
    const p = re2WasmBackend.compile('a(b+)', false, 1);
    const text = 'é😀😀xxabbb';
    expect(p.exec(text, 0)).toEqual({ start: 7, end: 11, groupStart: 8, groupEnd: 11 });
    expect(p.exec(text, 8)).toBeNull();
  });

  it('survives the WASM heap being exhausted: the instance is reloaded and scanning goes on', async () => {
    // The package's heap is fixed at 16 MB: an input larger than that aborts the instance (the engine
    // itself never hands it more than a small window; this forces the failure on purpose).
    const before = re2WasmGeneration();
    const stderr = process.stderr.write;
    process.stderr.write = () => true; // emscripten prints the abort itself
    try {
      expect(() => re2WasmBackend.compile('zz', false, 0).exec('a'.repeat(20_000_000), 0)).toThrow();
    } finally {
      process.stderr.write = stderr;
    }
    expect(re2WasmGeneration()).toBeGreaterThan(before);
    checkRe2WasmPattern('a(b+)c', false);
    const r = await scanStream(program('test'), [Buffer.from('card 4111 1111 1111 1111 key AKIAZ7Q2MBVX4NKW3P5R')], { contentType: 'text/plain' });
    expect(r.findings.map((f) => f.ruleId)).toEqual(['t-card', 't-akia']);
  });
});

describe('backend selection', () => {
  it('auto prefers native re2 when it loaded, else re2-wasm; never v8', () => {
    expect(resolveBackend('auto')).toBe(re2NativeBackend ?? re2WasmBackend);
    expect(resolveBackend('auto')).not.toBe(v8Backend);
    expect(resolveBackend('re2-wasm')).toBe(re2WasmBackend);
  });
  it.skipIf(re2NativeBackend === null)('native re2 reports UTF-16 offsets around astral characters', () => {
    const p = re2NativeBackend!.compile('a(b+)', false, 1);
    expect(p.exec('é😀😀xxabbb', 0)).toEqual({ start: 7, end: 11, groupStart: 8, groupEnd: 11 });
  });
  it('refuses an unknown backend name with a catalogued error', () => {
    expect(() => resolveBackend('pcre' as never)).toThrow(expect.objectContaining({ code: 'SDD_ERR_INVALID_OPTION' }));
  });
});

describe('value group positions', () => {
  // The value's text also appears later in the whole match: a search for it from the right (what a
  // backend without group indices would do) finds the wrong copy. Found by the oracle property on a
  // CSV key pair followed by an HTML form repeating the same secret.
  const backends = [re2WasmBackend, v8Backend, ...(re2NativeBackend ? [re2NativeBackend] : [])];
  it.each(backends.map((b) => [b.name, b] as const))('%s places the captured copy, not a later one', (_name, backend) => {
    const p = backend.compile('key=([a-z]{3});[^;]*;sum=[a-z]{3}', false, 1);
    const text = 'é😀 key=abc;abc;sum=abc';
    expect(p.exec(text, 0)).toEqual({ start: 4, end: 23, groupStart: 8, groupEnd: 11 });
    if (backend.compile('x', false, 0).execBytes) {
      const bytes = Buffer.from(text, 'utf8');
      const q = backend.compile('key=([a-z]{3});[^;]*;sum=[a-z]{3}', false, 1);
      const at = Buffer.byteLength('é😀 ');
      expect(q.execBytes!(bytes, 0)).toEqual({ start: at, end: at + 19, groupStart: at + 4, groupEnd: at + 7 });
    }
  });
});

describe('compiling a program', () => {
  it('compiles a rule\'s pattern when a window first needs it: only the rules whose triggers fired', async () => {
    const inner = resolveBackend('auto');
    const compiled: string[] = [];
    const counting: RegexBackend = { ...inner, compile: (source, ignoreCase, group) => (compiled.push(source), inner.compile(source, ignoreCase, group)) };
    const rules = selectRules({});
    const p = compileProgram(rules, counting);
    expect(compiled).toEqual([]);
    const card = '4111 1111 1111 1111';
    const url = 'postgres://app_rw:Zx9kQ21pW7rT@db.internal:5432/app';
    const r = await scanStream(p, [Buffer.from(`nothing here but a card ${card} and an AKIAZ7Q2MBVX4NKW3P5R, twice: ${card}, and ${url}`)], { contentType: 'text/plain' });
    // Each pattern at most once, and far fewer than the rules.
    expect(new Set(compiled).size).toBe(compiled.length);
    expect(compiled.length).toBeGreaterThan(0);
    expect(compiled.length).toBeLessThan(rules.length / 4);
    expect(r.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['card-visa', 'aws-access-key-id', 'url-credentials']));
    // The cards' and the key ID's matches follow from their runs and hit (`runMatch`): no pattern.
    for (const id of ['card-visa', 'aws-access-key-id']) expect(compiled).not.toContain(rules.find((d) => d.id === id)!.pattern);
  });
});
