import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, TokenStore, type ApiServer } from '../../src/api/index.js';

// The token store shared by real processes: `leakscan token` commands run as child processes beside a
// server running in this one, as they do beside `leakscan serve`.
const Z = 'cccccccccccccccccccccccccccccccc';
const kRoot = join(import.meta.dirname, '../..');

/**
 * The command line to run: the built CLI when dist/ is at least as new as the token sources (about
 * 0.5 s of CPU a process, which matters with 50 of them on two cores), else the sources through tsx.
 */
function cliArgs(): string[] {
  const fresh = (src: string, out: string): boolean => {
    try {
      return statSync(join(kRoot, out)).mtimeMs >= statSync(join(kRoot, src)).mtimeMs;
    } catch {
      return false;
    }
  };
  const built = fresh('src/api/tokens.ts', 'dist/api/tokens.js') && fresh('src/cli/commands/token.ts', 'dist/cli/commands/token.js');
  return built ? [join(kRoot, 'dist/bin/main.js')] : ['--import', 'tsx', join(kRoot, 'src/cli/main.ts')];
}
const kCli = cliArgs();

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `leakscan <args>` as its own process. */
function leakscan(args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, [...kCli, ...args], { cwd: kRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function create(dir: string, name: string): Promise<string> {
  const r = await leakscan(['token', 'create', '--name', name, '--zone', Z, '--data', dir]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

const status = async (api: ApiServer, token: string): Promise<number> =>
  (await fetch(`${api.url}/zones/${Z}/rulesets`, { headers: { authorization: `Bearer ${token}` } })).status;

/** Every file under `dir`, read whole: a token value must appear in none of them. */
async function allBytes(dir: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) parts.push(await readFile(join(e.parentPath, e.name)));
  }
  return Buffer.concat(parts);
}

describe('token store shared by processes', () => {
  let dir: string;
  let api: ApiServer | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'leakscan-tokens-'));
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('50 concurrent `token create` processes: every printed token is stored, listed and accepted', { timeout: 180_000 }, async () => {
    api = await startApiServer({ dataDir: dir, port: 0 });
    const names = Array.from({ length: 50 }, (_, i) => `c${i}`);
    const tokens = await Promise.all(names.map((n) => create(dir, n)));
    expect(new Set(tokens).size).toBe(50);

    const listed = await leakscan(['token', 'list', '--format', 'json', '--data', dir]);
    const infos = JSON.parse(listed.stdout) as { id: string; name: string }[];
    expect(infos.map((t) => t.name).sort()).toEqual(['admin', ...names].sort());
    expect(new Set(infos.map((t) => t.id)).size).toBe(51);
    for (const t of tokens) expect(await status(api, t)).toBe(200);

    for (const f of ['tokens.mdb', 'tokens.mdb-lock']) expect(statSync(join(dir, f)).mode & 0o077).toBe(0);
    const bytes = await allBytes(dir);
    for (const t of tokens) expect(bytes.includes(t)).toBe(false);
  });

  it('a revoke racing creates holds: the id is gone and its token refused, every created token kept', { timeout: 180_000 }, async () => {
    api = await startApiServer({ dataDir: dir, port: 0 });
    const store = new TokenStore(dir);
    try {
      for (let round = 0; round < 10; round++) {
        const victim = await store.create({ name: `victim${round}`, zones: [Z], permission: 'read' });
        const [revoked, ...created] = await Promise.all([
          leakscan(['token', 'revoke', victim.info.id, '--data', dir]),
          ...[0, 1, 2].map((i) => create(dir, `r${round}-${i}`)),
        ]);
        expect((revoked as Exit).code, (revoked as Exit).stderr).toBe(0);
        const ids = (await store.list()).map((t) => t.id);
        expect(ids).not.toContain(victim.info.id);
        expect(await store.verify(victim.token)).toBeUndefined();
        expect(await status(api, victim.token)).toBe(403);
        for (const t of created as string[]) expect(await status(api, t)).toBe(200);
      }
    } finally {
      await store.close();
    }
  });

  it('a running server follows another process at once: the next request after a revoke is refused', { timeout: 180_000 }, async () => {
    api = await startApiServer({ dataDir: dir, port: 0 });
    const server = api;

    // lmdb-js keeps a read snapshot until its next macrotask: a revoke committed by another process
    // while this one is blocked (execFileSync) must still be seen by the verify that follows at once.
    const held = await server.tokens.create({ name: 'held', zones: [Z], permission: 'read' });
    expect(await server.tokens.verify(held.token)).toBeDefined();
    execFileSync(process.execPath, [...kCli, 'token', 'revoke', held.info.id, '--data', dir], { cwd: kRoot, stdio: 'ignore' });
    expect(await server.tokens.verify(held.token)).toBeUndefined();
    expect((await server.tokens.list()).map((t) => t.name)).toEqual(['admin']);

    for (let round = 0; round < 5; round++) {
      const token = await create(dir, `busy${round}`);
      const id = (await server.tokens.list()).find((t) => t.name === `busy${round}`)!.id;
      // Four clients keep the server reading the store while the revoke and two creates run elsewhere;
      // every request sent after the revoke process has exited must be refused.
      let revoked = false;
      let stop = false;
      const late: number[] = [];
      const poll = async (): Promise<void> => {
        while (!stop) {
          const after = revoked;
          const s = await status(server, token);
          if (after) late.push(s);
        }
      };
      const pollers = [poll(), poll(), poll(), poll()];
      const [revoke, ...created] = await Promise.all([
        leakscan(['token', 'revoke', id, '--data', dir]).then((r) => {
          revoked = true;
          return r;
        }),
        create(dir, `busy${round}-a`),
        create(dir, `busy${round}-b`),
      ]);
      expect((revoke as Exit).code).toBe(0);
      const first = await status(server, token);
      stop = true;
      await Promise.all(pollers);
      expect(first).toBe(403);
      expect(late.filter((s) => s !== 403)).toEqual([]);
      for (const t of created as string[]) expect(await status(server, t)).toBe(200);
    }
  });

  it('a writer lock left by a killed writer is taken over once stale; a live one is waited for', { timeout: 120_000 }, async () => {
    const store = new TokenStore(dir);
    try {
      await store.create({ name: 'first', zones: [Z], permission: 'read' });
      // A writer killed while holding the lock leaves its directory behind, no longer refreshed.
      const held = join(dir, 'tokens.mdb-writer');
      await mkdir(held);
      const old = new Date(Date.now() - 60_000);
      await utimes(held, old, old);
      await store.create({ name: 'after-stale', zones: [Z], permission: 'read' });

      // A fresh lock (a writer at work) holds a create back until it is released.
      await mkdir(held);
      let done = false;
      const pending = store.create({ name: 'waited', zones: [Z], permission: 'read' }).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 1_000));
      expect(done).toBe(false);
      await rm(held, { recursive: true });
      await pending;
      expect((await store.list()).map((t) => t.name)).toEqual(['first', 'after-stale', 'waited']);
    } finally {
      await store.close();
    }
  });

  it('imports a tokens.json from before once, even with processes racing on it; its tokens still verify', { timeout: 120_000 }, async () => {
    const values = [0, 1, 2].map(() => randomBytes(30).toString('base64url'));
    const records = values.map((v, i) => ({
      id: randomBytes(16).toString('hex'),
      name: `old${i}`,
      zones: i === 0 ? ['*'] : [Z],
      permission: i === 0 ? 'edit' : 'read',
      created_on: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      hash: createHash('sha256').update(v).digest('hex'),
    }));
    await writeFile(join(dir, 'tokens.json'), `${JSON.stringify({ format: 1, tokens: records }, null, 2)}\n`);
    await writeFile(join(dir, 'admin-token'), `${values[0]}\n`, { mode: 0o600 });

    const lists = await Promise.all([0, 1, 2].map(() => leakscan(['token', 'list', '--format', 'json', '--data', dir])));
    for (const l of lists) {
      expect(l.code, l.stderr).toBe(0);
      expect(JSON.parse(l.stdout)).toEqual(records.map(({ hash: _h, ...info }) => info));
    }
    expect(await readdir(dir)).not.toContain('tokens.json');
    expect(await readFile(join(dir, 'tokens.json.imported'), 'utf8')).toContain(records[0]!.hash);

    api = await startApiServer({ dataDir: dir, port: 0 });
    expect(api.admin).toEqual({ token: values[0], created: false });
    for (const v of values) expect(await status(api, v)).toBe(200);
    // A revoked imported token stays revoked: the import does not run again.
    expect((await leakscan(['token', 'revoke', records[1]!.id, '--data', dir])).code).toBe(0);
    expect(await status(api, values[1]!)).toBe(403);
    expect((await api.tokens.list()).map((t) => t.name)).toEqual(['old0', 'old2']);
    // Nor does an old copy put back later.
    await writeFile(join(dir, 'tokens.json'), `${JSON.stringify({ format: 1, tokens: records })}\n`);
    expect((await leakscan(['token', 'list', '--format', 'json', '--data', dir])).code).toBe(0);
    expect(await status(api, values[1]!)).toBe(403);
    expect(await readdir(dir)).toContain('tokens.json');
  });
});
