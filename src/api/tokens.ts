import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { open as openLmdb, type Database, type RootDatabase } from 'lmdb';
import { lock } from 'proper-lockfile';
import { writeFileAtomic } from '../rulesets/index.js';

export type TokenPermission = 'read' | 'edit';

/** A stored API token: only its SHA-256 is kept, the value is shown once when it is created. */
export interface TokenRecord {
  id: string;
  name: string;
  /** Zone ids the token may act on; `['*']` is every zone. */
  zones: string[];
  /** `read`: GET only; `edit`: every method. */
  permission: TokenPermission;
  created_on: string;
  hash: string;
}

/** What `list` shows: never the hash. */
export type TokenInfo = Omit<TokenRecord, 'hash'>;

/** `<dataDir>/tokens.json` as earlier versions kept the tokens; imported once into the store. */
interface TokenFile {
  format: 1;
  tokens: TokenRecord[];
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Whether `token` may act on `zone` (undefined: no zone in the path), and write when `write`: the API's and the dashboard's one rule. */
export function tokenAllows(token: TokenInfo, zone: string | undefined, write: boolean): boolean {
  if (write && token.permission !== 'edit') return false;
  return zone === undefined || token.zones.includes('*') || token.zones.includes(zone);
}

/** Token values: 40 characters of `[A-Za-z0-9_-]`, the alphabet and length of Cloudflare's API tokens. */
export const kTokenPattern = /^[A-Za-z0-9_-]{40}$/;

/** Meta key holding the SHA-256 of the tokens.json that was imported. */
const kImported = 'imported-tokens-json';

interface Dbs {
  env: RootDatabase;
  /** id → record */
  tokens: Database<TokenRecord, string>;
  /** SHA-256 of the value → id */
  hashes: Database<string, string>;
  meta: Database<string, string>;
}

const info = ({ hash: _hash, ...rest }: TokenRecord): TokenInfo => rest;

/**
 * The writer lock's options (proper-lockfile: a directory made atomically, its mtime refreshed while
 * held; a holder killed mid-write leaves it stale after 10 s). Waiting writers retry for about a minute.
 */
const kWriterLock = (file: string) => ({
  lockfilePath: `${file}-writer`,
  realpath: false,
  stale: 10_000,
  retries: { retries: 600, minTimeout: 5, maxTimeout: 100, randomize: true },
});

/**
 * API tokens in the LMDB environment `<dataDir>/tokens.mdb`. Every process that needs them opens it
 * (the running service, each `leakscan token` command): create and revoke are each one write
 * transaction, and every `verify` and `list` reads the latest committed state, so a change made by
 * another process applies to the next request without a restart. Call `close()` when done.
 */
export class TokenStore {
  /** The LMDB environment file (its lock file is `tokens.mdb-lock`). */
  readonly file: string;
  readonly #dataDir: string;
  #dbs: Promise<Dbs> | undefined;
  #closed = false;

  constructor(dataDir: string) {
    this.#dataDir = dataDir;
    this.file = join(dataDir, 'tokens.mdb');
  }

  #open(): Promise<Dbs> {
    if (this.#closed) return Promise.reject(new Error(`${this.file}: the token store is closed`));
    return (this.#dbs ??= (async () => {
      await mkdir(this.#dataDir, { recursive: true, mode: 0o700 });
      let dbs: Dbs;
      try {
        const env = openLmdb({ path: this.file });
        dbs = {
          env,
          tokens: env.openDB<TokenRecord, string>({ name: 'tokens' }),
          hashes: env.openDB<string, string>({ name: 'hashes' }),
          meta: env.openDB<string, string>({ name: 'meta' }),
        };
      } catch (e) {
        throw new Error(`${this.file}: the token store could not be opened: ${(e as Error).message}`, { cause: e });
      }
      try {
        // LMDB creates its files 0664 less the umask; keep them owner-only as tokens.json was.
        await Promise.all([this.file, `${this.file}-lock`].map((f) => chmod(f, 0o600)));
        await this.#importJson(dbs);
      } catch (e) {
        await dbs.env.close();
        throw e;
      }
      return dbs;
    })());
  }

  /** Opens the store now (importing a tokens.json), so a failure shows at start rather than at the first request. */
  async open(): Promise<void> {
    await this.#open();
  }

  /**
   * Runs `fn` in one write transaction and waits until it is on disk, holding the store's writer lock
   * (`tokens.mdb-writer`) throughout. LMDB's own writer lock did not keep concurrent `token create`
   * processes apart through lmdb-js: now and then a commit was lost or a writer failed with
   * MDB_BAD_TXN. With this lock around every write neither has been seen.
   */
  async #commit<T>(dbs: Dbs, fn: () => T): Promise<T> {
    let release: () => Promise<void>;
    try {
      release = await lock(this.file, kWriterLock(this.file));
    } catch (e) {
      throw new Error(`${this.file}: the token store's writer lock could not be taken: ${(e as Error).message}`, { cause: e });
    }
    try {
      const r = await dbs.env.transaction(fn);
      await dbs.env.flushed;
      return r;
    } finally {
      await release();
    }
  }

  /**
   * Imports `<dataDir>/tokens.json` (format 1) once, in one transaction, then renames it
   * `tokens.json.imported`. Processes racing on it import it once: the first commit records the file's
   * digest and the others find it. A tokens.json appearing after an import is left alone, so an old
   * copy cannot bring back a revoked token.
   */
  async #importJson(dbs: Dbs): Promise<void> {
    const legacy = join(this.#dataDir, 'tokens.json');
    let text: string;
    try {
      text = await readFile(legacy, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    let data: TokenFile;
    try {
      data = JSON.parse(text) as TokenFile;
    } catch (e) {
      throw new Error(`${legacy}: not a leakscan token file`, { cause: e });
    }
    if (data?.format !== 1 || !Array.isArray(data.tokens)) throw new Error(`${legacy}: not a leakscan token file`);
    const digest = sha256(text);
    const imported = await this.#commit(dbs, () => {
      const done = dbs.meta.get(kImported);
      if (done !== undefined) return done;
      for (const t of data.tokens) {
        if (dbs.tokens.get(t.id) !== undefined || dbs.hashes.get(t.hash) !== undefined) continue;
        const record: TokenRecord = { id: t.id, name: t.name, zones: [...t.zones], permission: t.permission, created_on: t.created_on, hash: t.hash };
        dbs.tokens.put(t.id, record);
        dbs.hashes.put(t.hash, t.id);
      }
      dbs.meta.put(kImported, digest);
      return digest;
    });
    if (imported !== digest) return;
    await rename(legacy, `${legacy}.imported`).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err; // another process renamed it first
    });
  }

  /** The latest committed state for this process's next reads: lmdb-js otherwise reuses a read snapshot for the rest of the event turn. */
  #fresh(dbs: Dbs): void {
    dbs.env.resetReadTxn();
  }

  async list(): Promise<TokenInfo[]> {
    // Listing a data directory that holds no tokens does not create one.
    if (this.#dbs === undefined && !existsSync(this.file) && !existsSync(join(this.#dataDir, 'tokens.json'))) return [];
    const dbs = await this.#open();
    this.#fresh(dbs);
    const all = [...dbs.tokens.getRange().map(({ value }) => info(value))];
    return all.sort((a, b) => (a.created_on < b.created_on ? -1 : a.created_on > b.created_on ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Creates a token; the returned `token` value is not stored anywhere and cannot be shown again. */
  async create(opts: { name: string; zones: string[]; permission: TokenPermission }): Promise<{ token: string; info: TokenInfo }> {
    const dbs = await this.#open();
    const token = randomBytes(30).toString('base64url');
    const record: TokenRecord = {
      id: randomBytes(16).toString('hex'),
      name: opts.name,
      zones: [...opts.zones],
      permission: opts.permission,
      created_on: new Date().toISOString(),
      hash: sha256(token),
    };
    await this.#commit(dbs, () => {
      dbs.tokens.put(record.id, record);
      dbs.hashes.put(record.hash, record.id);
    });
    return { token, info: info(record) };
  }

  /** Revokes by id; false when no token has it. */
  async revoke(id: string): Promise<boolean> {
    // LMDB refuses empty and very long keys; no token has such an id.
    if (id === '' || id.length > 256) return false;
    const dbs = await this.#open();
    return this.#commit(dbs, () => {
      const record = dbs.tokens.get(id);
      if (record === undefined) return false;
      dbs.tokens.remove(id);
      dbs.hashes.remove(record.hash);
      return true;
    });
  }

  /** The token's record, or undefined when it is unknown or revoked. */
  async verify(token: string): Promise<TokenInfo | undefined> {
    const dbs = await this.#open();
    this.#fresh(dbs);
    const id = dbs.hashes.get(sha256(token));
    const record = id === undefined ? undefined : dbs.tokens.get(id);
    return record === undefined ? undefined : info(record);
  }

  /** Closes the environment (once every write is on disk). Later calls fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const dbs = await this.#dbs?.catch(() => undefined);
    if (dbs === undefined) return;
    await dbs.env.flushed;
    await dbs.env.close();
  }
}

/**
 * The admin token (every zone, edit): created with the data directory on first start and written to
 * `<dataDir>/admin-token` (mode 0600). Later starts reuse it, and never re-create one that was revoked.
 */
export async function ensureAdminToken(dataDir: string, tokens: TokenStore): Promise<{ token: string; created: boolean }> {
  const file = join(dataDir, 'admin-token');
  try {
    return { token: (await readFile(file, 'utf8')).trim(), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { token } = await tokens.create({ name: 'admin', zones: ['*'], permission: 'edit' });
  await writeFileAtomic(file, `${token}\n`);
  return { token, created: true };
}
