/**
 * Object bytes. Small values (up to kInlineMax) travel inside the metadata transaction; larger ones are
 * files: written under tmp/, fsynced, renamed into blobs/<2 hex>/<id>, the directory fsynced, and only
 * then referenced by a metadata commit, which is the single point where an object becomes visible.
 * A crash before that commit leaves an unreferenced file, removed at the next open.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export const kInlineMax = 32 * 1024;
const kChunk = 256 * 1024;

/** Where an object's (or part's) bytes are: inline in the metadata store, or one file. */
export interface BlobRef {
  id: string;
  size: number;
  inline: boolean;
}

export interface WrittenBlob {
  ref: BlobRef;
  /** Present when ref.inline: the bytes to store with the metadata (a fresh copy, owned by the caller). */
  data?: Buffer;
  md5: Buffer;
  extra?: Buffer;
}

export class TooLargeError extends Error {}

export function newId(): string {
  return randomBytes(16).toString('hex');
}

async function fsyncDir(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export class BlobFiles {
  readonly root: string;
  private readonly tmp: string;
  private readonly blobs: string;
  private readonly shards = new Set<string>();
  private readonly pins = new Map<string, number>();
  private readonly doomed = new Set<string>();

  constructor(root: string) {
    this.root = root;
    this.tmp = join(root, 'tmp');
    this.blobs = join(root, 'blobs');
    mkdirSync(this.tmp, { recursive: true });
    mkdirSync(this.blobs, { recursive: true });
  }

  path(id: string): string {
    return join(this.blobs, id.slice(0, 2), id);
  }

  /**
   * Streams `source` to a new blob while hashing it (MD5 always, plus `extraHash`). Nothing is visible
   * until the caller commits a reference; on any failure the partial file is removed.
   */
  async write(source: AsyncIterable<Uint8Array>, maxSize: number, extraHash?: string): Promise<WrittenBlob> {
    const md5 = createHash('md5');
    const extra: Hash | undefined = extraHash ? createHash(extraHash) : undefined;
    let size = 0;
    let pending: Uint8Array[] = [];
    let pendingSize = 0;
    let fh: FileHandle | undefined;
    let tmpPath: string | undefined;
    const id = newId();
    try {
      for await (const chunk of source) {
        if (chunk.byteLength === 0) continue;
        size += chunk.byteLength;
        if (size > maxSize) throw new TooLargeError();
        md5.update(chunk);
        extra?.update(chunk);
        if (fh) {
          await writeAll(fh, chunk);
        } else {
          // Copy: the caller may reuse its buffer once we return to its stream.
          pending.push(Uint8Array.from(chunk));
          pendingSize += chunk.byteLength;
          if (pendingSize > kInlineMax) {
            tmpPath = join(this.tmp, id);
            fh = await open(tmpPath, 'wx');
            for (const p of pending) await writeAll(fh, p);
            pending = [];
            pendingSize = 0;
          }
        }
      }
      const digests = { md5: md5.digest(), ...(extra ? { extra: extra.digest() } : {}) };
      if (!fh) {
        const data = Buffer.concat(pending, pendingSize);
        return { ref: { id, size, inline: true }, data, ...digests };
      }
      await fh.sync();
      await fh.close();
      fh = undefined;
      const shard = id.slice(0, 2);
      if (!this.shards.has(shard)) {
        await mkdir(join(this.blobs, shard), { recursive: true });
        await fsyncDir(this.blobs);
        this.shards.add(shard);
      }
      await rename(tmpPath!, this.path(id));
      tmpPath = undefined;
      await fsyncDir(join(this.blobs, shard));
      return { ref: { id, size, inline: false }, ...digests };
    } catch (e) {
      if (fh) await fh.close().catch(() => {});
      if (tmpPath) await rm(tmpPath, { force: true }).catch(() => {});
      throw e;
    }
  }

  /** Readers pin file blobs so that a concurrent overwrite or delete cannot pull the file from under them. */
  pin(refs: readonly BlobRef[]): void {
    for (const r of refs) if (!r.inline) this.pins.set(r.id, (this.pins.get(r.id) ?? 0) + 1);
  }

  unpin(refs: readonly BlobRef[]): void {
    for (const r of refs) {
      if (r.inline) continue;
      const n = (this.pins.get(r.id) ?? 1) - 1;
      if (n > 0) {
        this.pins.set(r.id, n);
        continue;
      }
      this.pins.delete(r.id);
      if (this.doomed.delete(r.id)) void this.unlink(r.id);
    }
  }

  /** Deletes file blobs no longer referenced by committed metadata (now, or when the last reader is done). */
  release(refs: readonly BlobRef[]): void {
    for (const r of refs) {
      if (r.inline) continue;
      if (this.pins.has(r.id)) this.doomed.add(r.id);
      else void this.unlink(r.id);
    }
  }

  private async unlink(id: string): Promise<void> {
    await rm(this.path(id), { force: true }).catch(() => {});
  }

  /** Reads `length` bytes from `offset` of one file blob, in bounded chunks. */
  async *read(ref: BlobRef, offset: number, length: number): AsyncGenerator<Uint8Array> {
    const fh = await open(this.path(ref.id), 'r');
    try {
      let pos = offset;
      let left = length;
      while (left > 0 && pos < ref.size) {
        const n = Math.min(kChunk, left, ref.size - pos);
        const buf = Buffer.allocUnsafe(n);
        const { bytesRead } = await fh.read(buf, 0, n, pos);
        if (bytesRead === 0) throw new Error(`blob ${ref.id} is shorter than recorded`);
        pos += bytesRead;
        left -= bytesRead;
        yield bytesRead === n ? buf : buf.subarray(0, bytesRead);
      }
    } finally {
      await fh.close();
    }
  }

  /** At open (single writer, see LOCK): drops temp files and every blob file metadata does not reference. */
  sweep(referenced: (id: string) => boolean): number {
    let removed = 0;
    for (const name of readdirSync(this.tmp)) {
      rmSync(join(this.tmp, name), { force: true });
      removed++;
    }
    for (const shard of readdirSync(this.blobs)) {
      const dir = join(this.blobs, shard);
      if (!statSync(dir).isDirectory()) continue;
      this.shards.add(shard);
      for (const id of readdirSync(dir)) {
        if (!referenced(id)) {
          rmSync(join(dir, id), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}

async function writeAll(fh: FileHandle, chunk: Uint8Array): Promise<void> {
  let off = 0;
  while (off < chunk.byteLength) {
    const { bytesWritten } = await fh.write(chunk, off, chunk.byteLength - off);
    off += bytesWritten;
  }
}
