import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kApiErrors } from '../../src/rulesets/index.js';

// Every catalogued error is documented in docs/api.md with its status and code, and nothing else is.
describe('error catalogue ↔ docs/api.md', () => {
  const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z_0-9]+)` \| (\d+) \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2]), Number(m[3])]);

  it('documents each code with its status and v4 code', () => {
    const expected = Object.entries(kApiErrors).map(([name, e]) => [name, e.status, e.code]);
    expect(rows).toEqual(expected);
  });
});
