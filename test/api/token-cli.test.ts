import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/helpers.js';
import { startApiServer, TokenStore } from '../../src/api/index.js';

const Z = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

describe('leakscan token', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'leakscan-token-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates (value printed once, only its hash stored), lists and revokes; a running server follows', async () => {
    const api = await startApiServer({ dataDir: dir, port: 0 });
    try {
      expect(api.admin.created).toBe(true);
      expect((await readFile(join(dir, 'admin-token'), 'utf8')).trim()).toBe(api.admin.token);
      expect((await stat(join(dir, 'admin-token'))).mode & 0o077).toBe(0);

      const created = await runCli(['token', 'create', '--name', 'ci', '--zone', Z, '--permission', 'edit', '--data', dir]);
      expect(created.code).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{40}$/);
      expect((await readFile(join(dir, 'tokens.mdb'))).includes(token)).toBe(false);

      const get = (t: string) => fetch(`${api.url}/zones/${Z}/rulesets`, { headers: { authorization: `Bearer ${t}` } });
      expect((await get(token)).status).toBe(200);

      const listed = await runCli(['token', 'list', '--format', 'json', '--data', dir]);
      const tokens = JSON.parse(listed.stdout) as { id: string; name: string; zones: string[]; permission: string }[];
      expect(tokens.map((t) => [t.name, t.zones, t.permission])).toEqual([
        ['admin', ['*'], 'edit'],
        ['ci', [Z], 'edit'],
      ]);
      expect(listed.stdout).not.toContain(token);

      const id = tokens.find((t) => t.name === 'ci')!.id;
      expect((await runCli(['token', 'revoke', id, '--data', dir])).code).toBe(0);
      expect((await get(token)).status).toBe(403);
      expect((await runCli(['token', 'revoke', id, '--data', dir])).code).toBe(2);
    } finally {
      await api.close();
    }
  });

  it('refuses bad zone ids and a missing scope', async () => {
    expect((await runCli(['token', 'create', '--name', 'x', '--data', dir])).code).toBe(2);
    const bad = await runCli(['token', 'create', '--name', 'x', '--zone', 'example.com', '--data', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not a 32-character hexadecimal zone id');
    const store = new TokenStore(dir);
    expect(await store.list()).toEqual([]);
    await store.close();
  });
});
