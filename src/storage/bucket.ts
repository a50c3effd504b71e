import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { open as openLmdb, type Database, type RootDatabase } from 'lmdb';
import { BlobFiles, TooLargeError, type BlobRef, type WrittenBlob } from './blobs.js';
import {
  checkOpenStorageClass,
  checkPartNumber,
  checkStorageClass,
  kLimits,
  parseListView,
  partSizeError,
  type StorageClass,
} from './checks.js';
import { badDigest, storeError, StoreOpenError, type StoreAction } from './errors.js';
import { lockDir, type DirLock } from './lock.js';
import { StoredObject, StoredObjectBody, type ObjectRecord } from './object.js';
import {
  checkSsecKey,
  conditionHolds,
  metadataSize,
  parseConditional,
  parseCustomMetadata,
  parseHashOptions,
  parseHttpMetadata,
  parseRangeOption,
  resolveRange,
  type StoredHttpMetadata,
} from './options.js';
import type {
  StoreBucket,
  StoreConditional,
  StoreGetOptions,
  StoreListOptions,
  StoreMultipartOptions,
  StoreMultipartUpload,
  StoreObject,
  StoreObjectBody,
  StoreObjects,
  StorePutOptions,
  StoreUploadedPart,
  StoreUploadPartOptions,
} from './types.js';
import { valueSource } from './value.js';

export { kLimits, kStorageClasses, type StorageClass } from './checks.js';

export interface OpenBucketOptions {
  /** Directory holding the bucket (created if missing). One process opens it at a time (docs/storage.md, Locking). */
  dir: string;
  /** Storage class of objects put without one. Default `Standard`. */
  storageClass?: StorageClass;
  /**
   * Minimum size of every part but the last. R2's is 5 MiB; a smaller value is only for tests, as
   * miniflare does in its own suite.
   */
  minPartSize?: number;
  /** Clock in ms (tests of the 7-day upload expiry). */
  now?: () => number;
}

interface UploadRecord {
  key: string;
  /** 0 in progress, 1 completed, 2 aborted */
  state: 0 | 1 | 2;
  created: number;
  http?: StoredHttpMetadata;
  custom?: Record<string, string>;
  storageClass: string;
}

interface PartRecord {
  etag: string;
  md5: string;
  size: number;
  blob: BlobRef;
}

/** The bucket handle returned by `openBucket`: the binding plus `close()`. */
export interface LocalBucket extends StoreBucket {
  close(): Promise<void>;
}

const kObjPrefix = 0x6b; // every object key is stored as 'k' + UTF-8: LMDB rejects empty keys, R2 allows ""

/** The LMDB key of an object name given as UTF-8 bytes. */
function prefixed(name: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(name.length + 1);
  out[0] = kObjPrefix;
  out.set(name, 1);
  return out;
}

function objKey(key: string): Buffer {
  return prefixed(Buffer.from(key, 'utf8'));
}

/** Smallest byte string greater than every string starting with `p` (p never holds 0xff: UTF-8). */
function successor(p: Uint8Array): Buffer {
  const out = Buffer.from(p);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]! += 1;
      return out.subarray(0, i + 1);
    }
  }
  return Buffer.from([0xff]);
}

function startsWith(b: Buffer, p: Buffer): boolean {
  return b.length >= p.length && b.compare(p, 0, p.length, 0, p.length) === 0;
}

class Store {
  readonly dir: string;
  readonly env: RootDatabase;
  readonly objects: Database<ObjectRecord, Buffer>;
  readonly uploads: Database<UploadRecord, string>;
  readonly parts: Database<PartRecord, [string, number]>;
  readonly inline: Database<Buffer, string>;
  readonly blobs: BlobFiles;
  private timer: NodeJS.Timeout | undefined;
  private readonly lock: DirLock;

  /** Takes the directory's lock before LMDB is opened, and gives it back if opening fails. */
  static async open(dir: string, now: () => number): Promise<Store> {
    const lock = await lockDir(dir);
    return new Store(dir, now, lock);
  }

  private constructor(dir: string, now: () => number, lock: DirLock) {
    this.dir = dir;
    this.lock = lock;
    const crashed = lock.crashed;
    try {
      this.env = openLmdb({ path: join(dir, 'meta.mdb') });
      this.objects = this.env.openDB<ObjectRecord, Buffer>({ name: 'objects', keyEncoding: 'binary' });
      this.uploads = this.env.openDB<UploadRecord, string>({ name: 'uploads' });
      this.parts = this.env.openDB<PartRecord, [string, number]>({ name: 'parts' });
      this.inline = this.env.openDB<Buffer, string>({ name: 'inline', encoding: 'binary' });
      this.blobs = new BlobFiles(dir);
    } catch (e) {
      lock.release();
      throw new StoreOpenError('STORE_ERR_OPEN', dir, { cause: e });
    }
    // Only a run that did not close cleanly can leave unreferenced blob files behind.
    this.blobs.sweep(crashed ? (id) => this.isReferenced(id) : () => true);
    this.expireUploads(now());
    this.timer = setInterval(() => this.expireUploads(now()), 3600_000);
    this.timer.unref();
  }

  private referenced: Set<string> | undefined;
  private isReferenced(id: string): boolean {
    if (!this.referenced) {
      const s = new Set<string>();
      for (const { value } of this.objects.getRange()) for (const b of value.blobs) if (!b.inline) s.add(b.id);
      for (const { value } of this.parts.getRange()) if (!value.blob.inline) s.add(value.blob.id);
      this.referenced = s;
    }
    return this.referenced.has(id);
  }

  /** Runs `fn` in one write transaction and resolves once it is durable on disk. */
  async commit<T>(fn: () => T): Promise<T> {
    const r = await this.env.transaction(fn);
    await this.env.flushed;
    return r;
  }

  /** Aborts uploads left uncompleted for 7 days (R2 does this automatically). */
  expireUploads(now: number): void {
    const expired: string[] = [];
    for (const { key, value } of this.uploads.getRange()) {
      if (value.state === 0 && now - value.created >= kLimits.uploadTtlMs) expired.push(key);
    }
    for (const id of expired) void this.abortUpload(id).catch(() => {});
  }

  async abortUpload(uploadId: string): Promise<void> {
    const released = await this.commit(() => {
      const u = this.uploads.get(uploadId);
      if (!u || u.state !== 0) return [];
      const refs = this.removeParts(uploadId);
      this.uploads.put(uploadId, { ...u, state: 2 });
      return refs;
    });
    this.blobs.release(released);
  }

  /** Inside a transaction: deletes an upload's part records (and inline bytes); returns file blobs to release. */
  removeParts(uploadId: string, keep?: Set<number>): BlobRef[] {
    const refs: BlobRef[] = [];
    for (const { key, value } of this.parts.getRange({ start: [uploadId, 0], end: [uploadId, 100_000] })) {
      const n = key[1];
      this.parts.remove(key);
      if (keep?.has(n)) continue;
      if (value.blob.inline) this.inline.remove(value.blob.id);
      else refs.push(value.blob);
    }
    return refs;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.env.flushed;
    try {
      await this.env.close();
    } finally {
      this.lock.release();
    }
  }
}

/** A directory's store in this process: opening or open, and how many handles hold it. */
interface OpenStore {
  store: Promise<Store>;
  refs: number;
}

const kOpen = new Map<string, OpenStore>();
/** Stores being closed: a new open of the directory waits, as this process still holds its lock. */
const kClosing = new Map<string, Promise<void>>();

/**
 * Opens (creating if needed) the bucket stored in `dir`. Every handle opened on the same directory in
 * one process shares one store, so all of them see each other's writes at once.
 * @example
 * const bucket = await openBucket({ dir: './.leakscan/events' });
 * await bucket.put('a.txt', 'hello', { httpMetadata: { contentType: 'text/plain' } });
 * const obj = await bucket.get('a.txt');
 * await obj?.text(); // 'hello'
 * await bucket.close();
 */
export async function openBucket(options: OpenBucketOptions): Promise<LocalBucket> {
  if (!options || typeof options.dir !== 'string' || options.dir === '') {
    throw new TypeError('openBucket: `dir` must be a non-empty string');
  }
  checkOpenStorageClass('openBucket', options.storageClass);
  mkdirSync(options.dir, { recursive: true });
  const dir = realpathSync(options.dir);
  const now = options.now ?? Date.now;
  let entry = kOpen.get(dir);
  while (!entry) {
    const closing = kClosing.get(dir);
    if (closing) {
      await closing.catch(() => {});
      entry = kOpen.get(dir);
      continue;
    }
    const opening: OpenStore = { store: Store.open(dir, now), refs: 0 };
    kOpen.set(dir, opening);
    opening.store.catch(() => {
      if (kOpen.get(dir) === opening) kOpen.delete(dir);
    });
    entry = opening;
  }
  // Counted before waiting, so a handle closing meanwhile cannot close the store under this one.
  entry.refs++;
  let store: Store;
  try {
    store = await entry.store;
  } catch (e) {
    entry.refs--;
    throw e;
  }
  return new Bucket(store, entry, {
    storageClass: options.storageClass ?? 'Standard',
    minPartSize: options.minPartSize ?? kLimits.minPartBytes,
    now,
  });
}

interface BucketConfig {
  storageClass: string;
  minPartSize: number;
  now: () => number;
}

function checkKey(action: StoreAction, key: string): void {
  if (Buffer.byteLength(key, 'utf8') > kLimits.maxKeyBytes) throw storeError(action, 'InvalidObjectName');
}

class Bucket implements LocalBucket {
  readonly #store: Store;
  readonly #entry: OpenStore;
  readonly #cfg: BucketConfig;
  #closed = false;

  constructor(store: Store, entry: OpenStore, cfg: BucketConfig) {
    this.#store = store;
    this.#entry = entry;
    this.#cfg = cfg;
  }

  #live(): Store {
    if (this.#closed) throw new Error('the bucket is closed');
    return this.#store;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const s = this.#store;
    if (--this.#entry.refs === 0) {
      kOpen.delete(s.dir);
      const closing: Promise<void> = s.close().finally(() => {
        if (kClosing.get(s.dir) === closing) kClosing.delete(s.dir);
      });
      kClosing.set(s.dir, closing);
      await closing;
    }
  }

  async head(key: string): Promise<StoreObject | null> {
    const s = this.#live();
    key = String(key);
    checkKey('head', key);
    const rec = s.objects.get(objKey(key));
    return rec ? new StoredObject(key, rec, { http: true, custom: true }) : null;
  }

  get(key: string, options: StoreGetOptions & { onlyIf: StoreConditional | Headers }): Promise<StoreObjectBody | StoreObject | null>;
  get(key: string, options?: StoreGetOptions): Promise<StoreObjectBody | null>;
  async get(key: string, options?: StoreGetOptions): Promise<StoreObjectBody | StoreObject | null> {
    const s = this.#live();
    key = String(key);
    const o = options ?? {};
    const cond = parseConditional(o.onlyIf);
    const range = parseRangeOption(o.range);
    checkSsecKey(o.ssecKey);
    checkKey('get', key);
    const rec = s.objects.get(objKey(key));
    if (!rec) return null;
    if (cond && !conditionHolds(cond, rec)) {
      return new StoredObject(key, rec, { http: true, custom: true, range: { offset: 0, length: rec.size } });
    }
    const r = resolveRange(range, rec.size);
    if (r === 'invalid') throw storeError('get', 'InvalidRange');
    // Everything the read needs is fixed now, in this synchronous section: inline bytes are copied and
    // file blobs pinned, so a later overwrite or delete cannot change what this body returns.
    const inline = new Map<string, Uint8Array>();
    for (const b of rec.blobs) {
      if (!b.inline) continue;
      const data = s.inline.getBinary(b.id);
      if (!data) throw storeError('get', 'InternalError');
      inline.set(b.id, Buffer.from(data));
    }
    s.blobs.pin(rec.blobs);
    const blobs = s.blobs;
    const refs = rec.blobs;
    const source = (): AsyncIterator<Uint8Array> => readRefs(blobs, refs, inline, r.offset, r.length);
    return new StoredObjectBody(key, rec, { http: true, custom: true, range: r }, source, () => blobs.unpin(refs));
  }

  put(
    key: string,
    value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob,
    options?: StorePutOptions & { onlyIf: StoreConditional | Headers },
  ): Promise<StoreObject | null>;
  put(key: string, value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob, options?: StorePutOptions): Promise<StoreObject>;
  async put(
    key: string,
    value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob,
    options?: StorePutOptions,
  ): Promise<StoreObject | null> {
    const s = this.#live();
    key = String(key);
    const src = valueSource(value, 'put');
    try {
      const o = options ?? {};
      const cond = parseConditional(o.onlyIf);
      const custom = parseCustomMetadata(o.customMetadata);
      const http = parseHttpMetadata(o.httpMetadata);
      const hash = parseHashOptions(o);
      checkSsecKey(o.ssecKey);
      checkKey('put', key);
      if (src.length !== undefined && src.length > kLimits.maxValueBytes) throw storeError('put', 'EntityTooLarge');
      if (metadataSize(custom) > kLimits.maxMetadataBytes) throw storeError('put', 'MetadataTooLarge');
      const storageClass = checkStorageClass('put', o.storageClass, this.#cfg.storageClass);

      const written = await writeBlob(s, src.chunks, kLimits.maxValueBytes, 'put', hash?.node);
      const md5 = written.md5.toString('hex');
      const checksums: ObjectRecord['checksums'] = { md5 };
      if (hash) {
        const actual = hash.field === 'md5' ? md5 : written.extra!.toString('hex');
        if (actual !== hash.hex) {
          s.blobs.release([written.ref]);
          throw badDigest('put', hash.name, hash.hex, actual);
        }
        checksums[hash.field] = actual;
      }
      const rec: ObjectRecord = {
        version: randomBytes(16).toString('hex'),
        size: written.ref.size,
        etag: md5,
        uploaded: this.#cfg.now(),
        checksums,
        http: http ?? {},
        custom: custom ?? {},
        storageClass,
        blobs: [written.ref],
      };
      const k = objKey(key);
      const result = await s.commit(() => {
        const old = s.objects.get(k);
        if (cond && !conditionHolds(cond, old)) return undefined;
        if (written.data) s.inline.put(written.ref.id, written.data);
        s.objects.put(k, rec);
        return old ? dropInline(s, old.blobs) : [];
      });
      if (result === undefined) {
        s.blobs.release([written.ref]);
        return null;
      }
      s.blobs.release(result);
      return new StoredObject(key, rec, { http: true, custom: true });
    } catch (e) {
      src.cancel(e);
      throw e;
    }
  }

  async delete(keys: string | string[]): Promise<void> {
    const s = this.#live();
    const list = (Array.isArray(keys) ? keys : [keys]).map(String);
    for (const k of list) checkKey('delete', k);
    const released = await s.commit(() => {
      const refs: BlobRef[] = [];
      for (const key of list) {
        const k = objKey(key);
        const old = s.objects.get(k);
        if (!old) continue;
        s.objects.remove(k);
        refs.push(...dropInline(s, old.blobs));
      }
      return refs;
    });
    s.blobs.release(released);
  }

  async list(options?: StoreListOptions): Promise<StoreObjects> {
    const s = this.#live();
    const o = options ?? {};
    const { includeHttp, includeCustom, limit } = parseListView(o);
    const prefix = Buffer.from(o.prefix === undefined ? '' : String(o.prefix), 'utf8');
    const delimiter = Buffer.from(o.delimiter === undefined ? '' : String(o.delimiter), 'utf8');
    let after: Buffer | undefined = o.startAfter !== undefined ? Buffer.from(String(o.startAfter), 'utf8') : undefined;
    if (o.cursor !== undefined) {
      // Lenient like R2's: a cursor is the last key returned, base64; garbage just moves the start.
      // The empty key's cursor is "" and still means "after it", as in the simulator.
      const c = Buffer.from(Buffer.from(String(o.cursor), 'base64').toString('utf8'), 'utf8');
      if (!after || c.compare(after) > 0) after = c;
    }
    let start: Buffer = after && after.compare(prefix) >= 0 ? Buffer.concat([after, Buffer.from([0])]) : prefix;

    const objects: StoreObject[] = [];
    const delimitedPrefixes: string[] = [];
    let count = 0;
    let last: Buffer | undefined;
    let truncated = false;
    const view = { http: includeHttp, custom: includeCustom };
    scan: for (;;) {
      let restarted = false;
      for (const { key, value } of s.objects.getRange({ start: prefixed(start) })) {
        const name = key.subarray(1);
        if (key[0] !== kObjPrefix || !startsWith(name, prefix)) break scan;
        if (count === limit) {
          truncated = true;
          break scan;
        }
        const at = delimiter.length > 0 ? name.indexOf(delimiter, prefix.length) : -1;
        if (at >= 0) {
          const group = name.subarray(0, at + delimiter.length);
          delimitedPrefixes.push(group.toString('utf8'));
          count++;
          // The cursor is the group's last key: the one found by the reverse seek below, or this key when
          // it is the group itself (the seek's end bound is exclusive).
          last = Buffer.from(name);
          // Skip the rest of the group with one seek instead of walking it.
          start = successor(group);
          const end = prefixed(start);
          for (const k of s.objects.getKeys({ start: end, end: prefixed(group), reverse: true })) {
            if (k.compare(end) >= 0) continue;
            last = Buffer.from(k.subarray(1));
            break;
          }
          restarted = true;
          break;
        }
        objects.push(new StoredObject(name.toString('utf8'), value, view));
        count++;
        last = Buffer.from(name);
      }
      if (!restarted) break;
    }
    if (truncated && last !== undefined) {
      return { objects, delimitedPrefixes, truncated: true, cursor: last.toString('base64') };
    }
    return { objects, delimitedPrefixes, truncated: false };
  }

  async createMultipartUpload(key: string, options?: StoreMultipartOptions): Promise<StoreMultipartUpload> {
    const s = this.#live();
    key = String(key);
    const o = options ?? {};
    const custom = parseCustomMetadata(o.customMetadata);
    const http = parseHttpMetadata(o.httpMetadata);
    checkSsecKey(o.ssecKey);
    checkKey('createMultipartUpload', key);
    const storageClass = checkStorageClass('createMultipartUpload', o.storageClass, this.#cfg.storageClass);
    const uploadId = randomBytes(128).toString('base64url');
    const rec: UploadRecord = { key, state: 0, created: this.#cfg.now(), storageClass };
    if (http) rec.http = http;
    if (custom) rec.custom = custom;
    await s.commit(() => s.uploads.put(uploadId, rec));
    return new MultipartUpload(this, key, uploadId);
  }

  resumeMultipartUpload(key: string, uploadId: string): StoreMultipartUpload {
    return new MultipartUpload(this, String(key), String(uploadId));
  }

  /** The upload if it is in progress (an upload past 7 days counts as aborted). */
  #activeUpload(s: Store, uploadId: string, key: string): UploadRecord | undefined {
    const u = s.uploads.get(uploadId);
    if (!u || u.key !== key || u.state !== 0) return undefined;
    if (this.#cfg.now() - u.created >= kLimits.uploadTtlMs) return undefined;
    return u;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, value: unknown, options?: StoreUploadPartOptions): Promise<StoreUploadedPart> {
    const s = this.#live();
    const n = checkPartNumber(partNumber);
    const src = valueSource(value, 'uploadPart');
    try {
      checkSsecKey(options?.ssecKey);
      checkKey('uploadPart', key);
      if (!this.#activeUpload(s, uploadId, key)) throw storeError('uploadPart', 'NoSuchUpload');
      const written = await writeBlob(s, src.chunks, kLimits.maxPartBytes, 'uploadPart');
      const md5 = written.md5.toString('hex');
      const part: PartRecord = { etag: md5, md5, size: written.ref.size, blob: written.ref };
      const result = await s.commit(() => {
        if (!this.#activeUpload(s, uploadId, key)) return undefined;
        const old = s.parts.get([uploadId, n]);
        if (written.data) s.inline.put(written.ref.id, written.data);
        s.parts.put([uploadId, n], part);
        return old ? dropInline(s, [old.blob]) : [];
      });
      if (result === undefined) {
        s.blobs.release([written.ref]);
        throw storeError('uploadPart', 'NoSuchUpload');
      }
      s.blobs.release(result);
      return { partNumber: n, etag: part.etag };
    } catch (e) {
      src.cancel(e);
      throw e;
    }
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    const s = this.#live();
    checkKey('abortMultipartUpload', key);
    const u = s.uploads.get(uploadId);
    if (!u || u.key !== key) throw storeError('abortMultipartUpload', 'InternalError');
    await s.abortUpload(uploadId);
  }

  async completeUpload(key: string, uploadId: string, uploadedParts: StoreUploadedPart[]): Promise<StoreObject> {
    const s = this.#live();
    if (!Array.isArray(uploadedParts)) throw new TypeError("Failed to execute 'complete': parameter 1 is not an array.");
    const given = uploadedParts.map((p) => ({ partNumber: checkPartNumber(p?.partNumber), etag: String(p?.etag) }));
    checkKey('completeMultipartUpload', key);
    const action = 'completeMultipartUpload';
    const min = this.#cfg.minPartSize;
    const now = this.#cfg.now();
    const outcome = await s.commit(() => {
      const u = s.uploads.get(uploadId);
      if (!u || u.key !== key) return { error: storeError(action, 'InternalError') };
      if (!this.#activeUpload(s, uploadId, key)) return { error: storeError(action, 'NoSuchUpload') };
      const seen = new Set<number>();
      for (const p of given) {
        if (seen.has(p.partNumber)) return { error: storeError(action, 'InternalError') };
        seen.add(p.partNumber);
      }
      const found: (PartRecord & { n: number })[] = [];
      for (const p of given) {
        const rec = s.parts.get([uploadId, p.partNumber]);
        if (!rec || rec.etag !== p.etag) return { error: storeError(action, 'InvalidPart') };
        found.push({ ...rec, n: p.partNumber });
      }
      const sorted = [...found].sort((a, b) => a.n - b.n);
      const bad = partSizeError(found.map((p) => p.size), sorted.map((p) => p.size), min);
      if (bad) return { error: storeError(action, bad) };
      const etagHash = createHash('md5');
      for (const p of sorted) etagHash.update(Buffer.from(p.md5, 'hex'));
      const rec: ObjectRecord = {
        version: randomBytes(16).toString('hex'),
        size: sorted.reduce((a, p) => a + p.size, 0),
        etag: `${etagHash.digest('hex')}-${sorted.length}`,
        uploaded: now,
        checksums: {},
        http: u.http ?? {},
        custom: u.custom ?? {},
        storageClass: u.storageClass,
        blobs: sorted.map((p) => p.blob),
      };
      const released = s.removeParts(uploadId, seen);
      const k = objKey(key);
      const old = s.objects.get(k);
      if (old) released.push(...dropInline(s, old.blobs));
      s.objects.put(k, rec);
      s.uploads.put(uploadId, { ...u, state: 1 });
      return { rec, released };
    });
    if ('error' in outcome) throw outcome.error;
    s.blobs.release(outcome.released);
    return new StoredObject(key, outcome.rec, { http: true, custom: true });
  }
}

class MultipartUpload implements StoreMultipartUpload {
  readonly key: string;
  readonly uploadId: string;
  readonly #bucket: Bucket;
  constructor(bucket: Bucket, key: string, uploadId: string) {
    this.#bucket = bucket;
    this.key = key;
    this.uploadId = uploadId;
  }
  uploadPart(
    partNumber: number,
    value: ReadableStream | (ArrayBuffer | ArrayBufferView) | string | Blob,
    options?: StoreUploadPartOptions,
  ): Promise<StoreUploadedPart> {
    return this.#bucket.uploadPart(this.key, this.uploadId, partNumber, value, options);
  }
  abort(): Promise<void> {
    return this.#bucket.abortUpload(this.key, this.uploadId);
  }
  complete(uploadedParts: StoreUploadedPart[]): Promise<StoreObject> {
    return this.#bucket.completeUpload(this.key, this.uploadId, uploadedParts);
  }
}

/** Inside a transaction: removes inline bytes of replaced blobs; returns the file blobs to release after commit. */
function dropInline(s: Store, refs: readonly BlobRef[]): BlobRef[] {
  const files: BlobRef[] = [];
  for (const r of refs) {
    if (r.inline) s.inline.remove(r.id);
    else files.push(r);
  }
  return files;
}

async function writeBlob(s: Store, chunks: AsyncIterable<Uint8Array>, max: number, action: StoreAction, extraHash?: string): Promise<WrittenBlob> {
  try {
    return await s.blobs.write(chunks, max, extraHash);
  } catch (e) {
    if (e instanceof TooLargeError) throw storeError(action, 'EntityTooLarge');
    throw e;
  }
}

async function* readRefs(
  blobs: BlobFiles,
  refs: readonly BlobRef[],
  inline: Map<string, Uint8Array>,
  offset: number,
  length: number,
): AsyncGenerator<Uint8Array> {
  let skip = offset;
  let left = length;
  for (const r of refs) {
    if (left <= 0) return;
    if (skip >= r.size) {
      skip -= r.size;
      continue;
    }
    const n = Math.min(left, r.size - skip);
    if (r.inline) yield inline.get(r.id)!.subarray(skip, skip + n);
    else yield* blobs.read(r, skip, n);
    left -= n;
    skip = 0;
  }
}

