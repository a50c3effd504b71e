import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ppkValid } from '../../src/validators/ppk.js';

// Files written by puttygen (an independent writer of the format); see fixtures/ppk/README.md.
const dir = join(import.meta.dirname, 'fixtures', 'ppk');
const files = readdirSync(dir).filter((f) => f.endsWith('.ppk')).map((f) => [f, readFileSync(join(dir, f), 'utf8')] as const);

describe('ppkValid', () => {
  it('has fixtures of both formats', () => {
    expect(files.some(([, t]) => t.startsWith('PuTTY-User-Key-File-2'))).toBe(true);
    expect(files.some(([, t]) => t.startsWith('PuTTY-User-Key-File-3'))).toBe(true);
  });

  it.each(files)('accepts %s as written, with CRLF and with escaped line breaks', (_f, text) => {
    expect(ppkValid(text)).toBe(true);
    expect(ppkValid(text.replace(/\n/g, '\r\n'))).toBe(true);
    expect(ppkValid(text.trim().replace(/\n/g, '\\n'))).toBe(true);
  });

  it.each(files)('refuses %s without its MAC, with a wrong line count or another key type', (_f, text) => {
    expect(ppkValid(text.replace(/Private-MAC: .*\n?/, ''))).toBe(false);
    expect(ppkValid(text.replace(/Private-MAC: ([0-9a-f]+)/, (_m, h: string) => `Private-MAC: ${h.slice(1)}`))).toBe(false);
    expect(ppkValid(text.replace(/Private-Lines: ([0-9]+)/, (_m, n: string) => `Private-Lines: ${Number(n) + 1}`))).toBe(false);
    expect(ppkValid(text.replace(/Public-Lines: ([0-9]+)/, (_m, n: string) => `Public-Lines: ${Number(n) - 1}`))).toBe(false);
    const other = text.includes('ssh-ed25519') ? 'ssh-rsa' : 'ssh-ed25519';
    expect(ppkValid(text.replace(/^(PuTTY-User-Key-File-[23]): \S+/, `$1: ${other}`))).toBe(false);
    // A truncated file (cut inside the private lines).
    expect(ppkValid(text.slice(0, text.indexOf('Private-Lines') + 40))).toBe(false);
  });
});
