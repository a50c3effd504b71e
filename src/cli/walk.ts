import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, resolve } from 'node:path';

/** One input to scan. */
export type Input =
  | { kind: 'stdin'; path: '-' }
  | { kind: 'file'; path: string; abs: string; size: number };

export interface WalkError {
  path: string;
  code: string;
  message: string;
}

/** Folders never descended into: VCS metadata and installed dependencies are not the user's content. */
export const kSkippedDirs: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** A file's identity (`dev:ino`), the form `CollectOptions.exclude` takes. */
export function fileIdentity(st: Pick<Stats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}

export function describeFsError(err: unknown): { code: string; message: string } {
  const e = err as NodeJS.ErrnoException;
  const code = typeof e?.code === 'string' ? e.code : 'EIO';
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'is a directory',
    ENOTDIR: 'not a directory',
    ELOOP: 'too many levels of symbolic links',
    EMFILE: 'too many open files',
  };
  return { code, message: reasons[code] ?? (e?.message ?? String(err)) };
}

export interface CollectOptions {
  cwd: string;
  /** File identities (`dev:ino`) never to scan, e.g. the `--output` file itself. */
  exclude?: Iterable<string>;
  onError(err: WalkError): void;
}

/**
 * Expands the command-line paths into inputs, in a stable order (arguments in order, folder
 * entries sorted by name). Explicit paths are followed wherever they point; inside a folder,
 * symbolic links are not followed (see walkDir), `.git` and `node_modules` are skipped, and each
 * folder and file is visited once by device and inode (hard links, bind mounts). Unreadable
 * entries are reported through `onError` and the walk goes on.
 */
export async function collectInputs(args: readonly string[], opts: CollectOptions): Promise<Input[]> {
  const inputs: Input[] = [];
  const seenFiles = new Set<string>(opts.exclude ?? []);
  let stdinAdded = false;
  const fail = (path: string, err: unknown): void => opts.onError({ path, ...describeFsError(err) });

  const addFile = (path: string, abs: string, st: Stats): void => {
    const id = fileIdentity(st);
    if (seenFiles.has(id)) return;
    seenFiles.add(id);
    inputs.push({ kind: 'file', path, abs, size: st.size });
  };

  async function walkDir(abs: string, display: string, seenDirs: Set<string>): Promise<void> {
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (err) {
      fail(display, err);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const childAbs = join(abs, e.name);
      const childDisplay = join(display, e.name);
      // Symbolic links inside a folder are not followed. One pointing out of the tree must not be
      // (the user named this tree); one pointing into it names a file or folder the walk reaches
      // under its real name anyway, which is the better name to report. Link loops cannot happen.
      if (!e.isDirectory() && !e.isFile()) continue; // links, sockets, FIFOs, devices
      let st: Stats;
      try {
        st = await stat(childAbs);
      } catch (err) {
        fail(childDisplay, err);
        continue;
      }
      if (st.isDirectory()) {
        if (kSkippedDirs.has(e.name)) continue;
        const id = fileIdentity(st);
        if (seenDirs.has(id)) continue;
        seenDirs.add(id);
        await walkDir(childAbs, childDisplay, seenDirs);
      } else if (st.isFile()) {
        addFile(childDisplay, childAbs, st);
      }
    }
  }

  for (const arg of args) {
    if (arg === '-') {
      if (!stdinAdded) inputs.push({ kind: 'stdin', path: '-' });
      stdinAdded = true;
      continue;
    }
    const abs = resolve(opts.cwd, arg);
    let st: Stats;
    try {
      st = await stat(abs);
    } catch (err) {
      fail(arg, err);
      continue;
    }
    if (st.isDirectory()) {
      await walkDir(abs, arg, new Set([fileIdentity(st)]));
    } else if (st.isFile()) {
      addFile(arg, abs, st);
    } else if (st.isFIFO() || st.isCharacterDevice()) {
      // Named explicitly (`<(cmd)`, /dev/stdin): read it like a file, size unknown.
      inputs.push({ kind: 'file', path: arg, abs, size: 0 });
    } else {
      opts.onError({ path: arg, code: 'EINVAL', message: 'not a file or directory' });
    }
  }
  return inputs;
}
