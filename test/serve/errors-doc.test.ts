import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kServeErrors, kVerifyProblems } from '../../src/eventlog/index.js';

const doc = readFileSync(join(import.meta.dirname, '../../docs/serve.md'), 'utf8');
const table = doc.slice(doc.indexOf('## Error and problem codes'));

describe('docs/serve.md', () => {
  it('lists every error and problem code, and no other', () => {
    const codes = [...Object.keys(kServeErrors), ...Object.keys(kVerifyProblems)].sort();
    const documented = [...table.matchAll(/^\| `((?:SERVE_ERR|VERIFY)_[A-Z_]+)` \|/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(codes);
    // Codes named anywhere in the page exist.
    for (const m of doc.matchAll(/\b((?:SERVE_ERR|VERIFY)_[A-Z_]+)\b/g)) expect(codes, m[1]).toContain(m[1]);
  });
  it('docs/errors.md lists every SERVE_ERR code, and no other', () => {
    const errors = readFileSync(join(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    const listed = [...new Set([...errors.matchAll(/`(SERVE_ERR_[A-Z_]+)`/g)].map((m) => m[1]))].sort();
    expect(listed).toEqual(Object.keys(kServeErrors).sort());
  });
});
