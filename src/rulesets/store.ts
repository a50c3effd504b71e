import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Ruleset } from './types.js';

/** One ruleset with its history: `versions` holds every kept version, the current one included. */
export interface RulesetRecord {
  current: Ruleset;
  versions: Ruleset[];
  /** Highest version number ever given: numbers are never reused, even after a version is deleted. */
  lastVersion: number;
}

/** Everything the API keeps for one zone; written as a whole, so a change is all or nothing. */
export interface ZoneState {
  format: 1;
  zone: string;
  rulesets: RulesetRecord[];
}

/**
 * Where zone states live. Kept this small so the rulesets can move onto the embedded store
 * (`src/storage`) without touching the service.
 */
export interface ZoneStore {
  read(zone: string): Promise<ZoneState | undefined>;
  write(zone: string, state: ZoneState): Promise<void>;
  zones(): Promise<string[]>;
}

/**
 * Replaces `file` atomically (mode 0600): written to a temporary file beside it, fsynced, renamed over
 * the old one, then the directory is fsynced, so a crash leaves either the old or the new content,
 * never a torn file. Also used for the API's token files.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  const dh = await open(dir, 'r');
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

/** In memory, for tests and throw-away servers. */
export class MemoryZoneStore implements ZoneStore {
  readonly #zones = new Map<string, string>();
  async read(zone: string): Promise<ZoneState | undefined> {
    const s = this.#zones.get(zone);
    return s === undefined ? undefined : (JSON.parse(s) as ZoneState);
  }
  async write(zone: string, state: ZoneState): Promise<void> {
    this.#zones.set(zone, JSON.stringify(state));
  }
  async zones(): Promise<string[]> {
    return [...this.#zones.keys()];
  }
}

/**
 * One JSON file per zone in `<dir>/`, replaced atomically (`writeFileAtomic`), so a crash leaves
 * either the old or the new state. Zone ids are 32-hex (checked by the service), so they are safe names.
 */
export class FileZoneStore implements ZoneStore {
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  #path(zone: string): string {
    return join(this.dir, `${zone}.json`);
  }

  async read(zone: string): Promise<ZoneState | undefined> {
    let text: string;
    try {
      text = await readFile(this.#path(zone), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    // A file that does not parse is left as it is (never overwritten by an empty state): the error surfaces.
    const state = JSON.parse(text) as ZoneState;
    if (state.format !== 1 || state.zone !== zone || !Array.isArray(state.rulesets)) throw new Error(`${this.#path(zone)}: not a leakscan zone state`);
    return state;
  }

  async write(zone: string, state: ZoneState): Promise<void> {
    await writeFileAtomic(this.#path(zone), JSON.stringify(state));
  }

  async zones(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((f) => /^[0-9a-f]{32}\.json$/.test(f)).map((f) => f.slice(0, 32));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
}
