import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
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

/**
 * API tokens in `<dataDir>/tokens.json`. The running server and `leakscan token` share the file:
 * `verify` re-reads it when its size or mtime changed, so a token created or revoked by the command
 * line takes effect on the next request without a restart.
 */
export class TokenStore {
  readonly file: string;
  #cache: { key: string; data: TokenFile } | undefined;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'tokens.json');
  }

  async #load(): Promise<TokenFile> {
    let key: string;
    try {
      const st = await stat(this.file);
      key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, tokens: [] };
      throw err;
    }
    if (this.#cache?.key === key) return this.#cache.data;
    const data = JSON.parse(await readFile(this.file, 'utf8')) as TokenFile;
    if (data.format !== 1 || !Array.isArray(data.tokens)) throw new Error(`${this.file}: not a leakscan token file`);
    this.#cache = { key, data };
    return data;
  }

  async #save(data: TokenFile): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.#cache = undefined;
  }

  async list(): Promise<TokenInfo[]> {
    return (await this.#load()).tokens.map(({ hash: _hash, ...info }) => info);
  }

  /** Creates a token; the returned `token` value is not stored anywhere and cannot be shown again. */
  async create(opts: { name: string; zones: string[]; permission: TokenPermission }): Promise<{ token: string; info: TokenInfo }> {
    const data = await this.#load();
    const token = randomBytes(30).toString('base64url');
    const record: TokenRecord = {
      id: randomBytes(16).toString('hex'),
      name: opts.name,
      zones: [...opts.zones],
      permission: opts.permission,
      created_on: new Date().toISOString(),
      hash: sha256(token),
    };
    await this.#save({ format: 1, tokens: [...data.tokens, record] });
    const { hash: _hash, ...info } = record;
    return { token, info };
  }

  /** Revokes by id; false when no token has it. */
  async revoke(id: string): Promise<boolean> {
    const data = await this.#load();
    const tokens = data.tokens.filter((t) => t.id !== id);
    if (tokens.length === data.tokens.length) return false;
    await this.#save({ format: 1, tokens });
    return true;
  }

  /** The token's record, or undefined when it is unknown or revoked. */
  async verify(token: string): Promise<TokenInfo | undefined> {
    const hash = sha256(token);
    const found = (await this.#load()).tokens.find((t) => t.hash === hash);
    if (found === undefined) return undefined;
    const { hash: _hash, ...info } = found;
    return info;
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
