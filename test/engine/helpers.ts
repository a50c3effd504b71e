import { compileProgram, re2WasmBackend, scanStream, type Program, type RegexBackend } from '../../src/engine/index.js';
import { nativeStatus } from '../../src/engine/native.js';
import { allRuleDefs } from '../../src/rules/index.js';
import type { RuleDef } from '../../src/rules/types.js';
import type { ScanMeta, ScanReport } from '../../src/types.js';

/** Small hand-made rules that exercise each trigger kind, independent of the managed catalogue. */
export const kTestRules: RuleDef[] = [
  {
    id: 't-card', description: 'test card', family: 'financial-information', tags: ['test'], enabledByDefault: true,
    trigger: { digits: { min: 13 } }, pattern: '4[0-9]{3}(?:[ -]?[0-9]{4}){3}', maxLength: 19,
    examples: { positive: [], negative: [] },
  },
  {
    id: 't-akia', description: 'test aws', family: 'secrets', tags: ['test'], enabledByDefault: true,
    trigger: { keywords: ['AKIA'] }, pattern: 'AKIA[A-Z2-7]{16}', maxLength: 20, examples: { positive: [], negative: [] },
  },
  {
    id: 't-email', description: 'test email', family: 'pii', tags: ['test'], enabledByDefault: true,
    trigger: { keywords: ['@'] }, pattern: '[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,4}\\.[A-Za-z]{2,24}',
    maxLength: 400, examples: { positive: [], negative: [] },
  },
  {
    id: 't-token', description: 'test token', family: 'pii', tags: ['test'], enabledByDefault: true,
    trigger: { token: { min: 9, max: 9, needsLetter: true } }, pattern: '[A-Z]{2}[0-9]{6}[A-D]', maxLength: 9,
    examples: { positive: [], negative: [] },
  },
  {
    id: 't-secret', description: 'test assignment', family: 'secrets', tags: ['test'], enabledByDefault: true,
    trigger: { keywords: ['password'] }, pattern: 'password\\s{0,3}[:=]\\s{0,3}"?([A-Za-z0-9!#%]{8,40})', group: 1,
    maxLength: 60, minEntropy: 2.5, examples: { positive: [], negative: [] },
  },
];

const cache = new Map<string, Program>();
export function program(kind: 'test' | 'all', backend: RegexBackend = re2WasmBackend): Program {
  const key = `${kind}:${backend.name}`;
  let p = cache.get(key);
  if (!p) {
    p = compileProgram(kind === 'test' ? kTestRules : allRuleDefs, backend);
    cache.set(key, p);
  }
  return p;
}

/** Scans the chunks one by one, with no coalescing, so every cut reaches the decoders and the matcher. */
export function scanChunks(p: Program, chunks: Uint8Array[], meta: ScanMeta = {}): Promise<ScanReport> {
  return scanStream(p, chunks, meta, { coalesceBytes: 1 });
}

/** Cuts `bytes` at the given (sorted, deduplicated) positions. */
export function cut(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...new Set(at)].filter((x) => x > 0 && x < bytes.length).sort((a, b) => a - b)) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}

/**
 * The prefilter implementations the conformance suites run against: the TypeScript pass always, the
 * native one where it is built. In CI it must be built (`npm ci` builds it), so there it is always
 * listed and a failed build fails the suite instead of silently testing one implementation.
 */
export function prefilterImpls(): Array<'js' | 'native'> {
  const status = nativeStatus();
  if (status.prefilter === 'native' || process.env.CI) return ['js', 'native'];
  console.warn(`native prefilter not tested: ${status.reason ?? 'not built'}`);
  return ['js'];
}
