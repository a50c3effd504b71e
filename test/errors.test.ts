import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kCodes, LeakscanError } from '../src/errors.js';

// fastify's habit: every code in the catalogue is documented, and every documented code exists.
describe('error catalogue', () => {
  const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const documented = new Set([...doc.matchAll(/`(SDD_[A-Z0-9_]+)`/g)].map((m) => m[1]));
  it('documents every code', () => {
    for (const code of Object.keys(kCodes)) expect(documented, code).toContain(code);
  });
  it('has no documented code that does not exist', () => {
    for (const code of documented) expect(Object.keys(kCodes), code).toContain(code);
  });
  it('builds errors with code, status and message', () => {
    const e = new LeakscanError('SDD_ERR_UNKNOWN_RULE', 'nope');
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('SDD_ERR_UNKNOWN_RULE');
    expect(e.status).toBe(400);
    expect(e.message).toContain('nope');
  });
});
