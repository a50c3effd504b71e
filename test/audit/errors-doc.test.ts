import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kAuditErrors } from '../../src/audit/index.js';

// Every catalogued audit error is documented in docs/audit.md with its status and exact body, and
// nothing else is; the one body the spec fixes is what the catalogue says.
describe('audit error catalogue ↔ docs/audit.md', () => {
  const doc = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `(AUDIT_ERR_[A-Z_]+)` \| (\d+) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);

  it('documents each code with its status and body, in catalogue order', () => {
    expect(rows).toEqual(Object.entries(kAuditErrors).map(([code, e]) => [code, e.status, e.body]));
  });

  it('keeps the spec\'s disabled-namespace answer', () => {
    expect(kAuditErrors.AUDIT_ERR_NAMESPACE_DISABLED).toEqual({ status: 400, body: 'Namespace is disabled and read-only.' });
  });
});
