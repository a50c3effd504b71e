/**
 * `openS3Bucket`: the same binding as `openBucket` (the Workers R2 API and semantics) on any
 * S3-compatible store, through `@aws-sdk/client-s3`. What S3 cannot say in its own headers (the R2
 * version, the upload time in ms, the extra checksums, custom metadata, the storage class) travels in
 * one user-metadata entry, `x-amz-meta-leakscan`. Conditions are evaluated here, exactly as the
 * embedded store does, and the write is then made atomic on the server with `If-Match` (or
 * `If-None-Match: *` when the key was absent): a writer that lost the race re-reads and re-evaluates.
 * Checksums other than MD5 are checked here too, since RGW ignores `x-amz-checksum-*`. See
 * docs/storage.md, "S3-compatible stores".
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  checkOpenStorageClass,
  checkPartNumber,
  checkStorageClass,
  kLimits,
  parseListView,
  partSizeError,
  type StorageClass,
} from './checks.js';
import { badDigest, storeError, type StoreAction } from './errors.js';
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
  type Condition,
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

export interface OpenS3BucketOptions {
  /** The store's URL, e.g. `http://127.0.0.1:7480` (path-style addressing is used). */
  endpoint: string;
  /** An existing bucket. */
  bucket: string;
  /** Signing region. Default `us-east-1`. */
  region?: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * How the ETag goes in `If-Match`. `quoted` (RFC 9110, AWS S3, R2) by default; Ceph RGW matches only
   * the bare value (`unquoted`).
   */
  ifMatch?: 'quoted' | 'unquoted';
  /** Storage class of objects put without one. Default `Standard`. Kept in the object's metadata. */
  storageClass?: StorageClass;
  /** Minimum size of every part but the last, checked here before completing. Default 5 MiB. */
  minPartSize?: number;
  /** A client to use instead of building one (its own settings then apply). */
  client?: S3Client;
}

/** The bucket handle returned by `openS3Bucket`: the binding plus `close()`. */
export interface S3Bucket extends StoreBucket {
  close(): Promise<void>;
}

/** The one user-metadata entry holding what S3 has no header for (base64url JSON, so any text fits). */
const kMetaKey = 'leakscan';
/** How often a conditional write re-reads after losing a race before it reports the condition failed. */
const kCasRounds = 8;

interface MetaEntry {
  v: string;
  u?: number;
  c?: Partial<Record<'sha1' | 'sha256' | 'sha384' | 'sha512', string>>;
  m?: Record<string, string>;
  h?: StoredHttpMetadata;
  s?: string;
}

function encodeMeta(m: MetaEntry): Record<string, string> {
  return { [kMetaKey]: Buffer.from(JSON.stringify(m)).toString('base64url') };
}

function decodeMeta(meta: Record<string, string> | undefined): MetaEntry | undefined {
  const raw = meta?.[kMetaKey];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as MetaEntry;
  } catch {
    return undefined;
  }
}

const unquote = (etag: string | undefined): string => (etag ?? '').replace(/^(W\/)?"|"$/g, '');

/** What a HEAD (or the headers of a GET) says about an object. */
interface S3Head {
  ETag?: string | undefined;
  ContentLength?: number | undefined;
  LastModified?: Date | undefined;
  Metadata?: Record<string, string> | undefined;
}

function toRecord(h: S3Head, fallbackStorageClass: string): ObjectRecord {
  const etag = unquote(h.ETag);
  const meta = decodeMeta(h.Metadata);
  const checksums: ObjectRecord['checksums'] = etag.includes('-') ? {} : { md5: etag };
  Object.assign(checksums, meta?.c ?? {});
  return {
    // An object written by another client has no recorded version: derive a stable one.
    version: meta?.v ?? createHash('md5').update(`${etag}/${h.LastModified?.getTime() ?? 0}`).digest('hex'),
    size: h.ContentLength ?? 0,
    etag,
    uploaded: meta?.u ?? h.LastModified?.getTime() ?? 0,
    checksums,
    http: meta?.h ?? {},
    custom: meta?.m ?? {},
    storageClass: meta?.s ?? fallbackStorageClass,
    blobs: [],
  };
}

function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** The S3 error code, or for a network failure Node's (`ECONNREFUSED`, `ECONNRESET`…), not just `Error`. */
function codeOf(e: unknown): string {
  if (e instanceof S3ServiceException) return e.name;
  const o = e as { Code?: string; code?: unknown; name?: string } | undefined;
  return o?.Code ?? (typeof o?.code === 'string' ? o.code : undefined) ?? o?.name ?? '';
}

/** An S3 error as the binding's error (R2's code table); unknown ones are InternalError with the S3 code appended. */
function mapError(action: StoreAction, e: unknown): Error {
  const code = codeOf(e);
  switch (code) {
    case 'NoSuchUpload':
      return storeError(action, 'NoSuchUpload');
    case 'NoSuchKey':
      // RGW answers NoSuchKey for an upload id it does not know.
      if (action === 'uploadPart' || action === 'completeMultipartUpload' || action === 'abortMultipartUpload') {
        return storeError(action, 'NoSuchUpload');
      }
      break;
    case 'InvalidPart':
    case 'InvalidPartOrder':
      return storeError(action, 'InvalidPart');
    case 'EntityTooSmall':
      return storeError(action, 'EntityTooSmall');
    case 'EntityTooLarge':
      return storeError(action, 'EntityTooLarge');
    case 'InvalidRange':
      return storeError(action, 'InvalidRange');
    case 'BadDigest':
    case 'InvalidDigest':
      return storeError(action, 'InternalError', `the store rejected the body's MD5 (${code})`);
  }
  const err = storeError(action, 'InternalError', `We encountered an internal error. Please try again. [S3 ${code || 'error'}${statusOf(e) ? ` ${statusOf(e)}` : ''}]`);
  (err as { cause?: unknown }).cause = e;
  return err;
}

const isMissing = (e: unknown): boolean => statusOf(e) === 404 || codeOf(e) === 'NotFound' || codeOf(e) === 'NoSuchKey';
const isPrecondition = (e: unknown): boolean => statusOf(e) === 412 || codeOf(e) === 'PreconditionFailed';

function checkKey(action: StoreAction, key: string): void {
  // S3 keys are 1 to 1024 bytes: the empty key R2 allows cannot be stored (a declared delta).
  const n = Buffer.byteLength(key, 'utf8');
  if (n > kLimits.maxKeyBytes || n === 0) throw storeError(action, 'InvalidObjectName');
}

/** S3 needs the length up front: a value is read whole (a large one belongs in a multipart upload). */
async function readAll(chunks: AsyncIterable<Uint8Array>, max: number, action: StoreAction): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let n = 0;
  for await (const c of chunks) {
    n += c.byteLength;
    if (n > max) throw storeError(action, 'EntityTooLarge');
    parts.push(c);
  }
  return Buffer.concat(parts, n);
}

function httpHeaders(h: StoredHttpMetadata | undefined): Record<string, string | Date> {
  const out: Record<string, string | Date> = {};
  if (!h) return out;
  if (h.contentType !== undefined) out.ContentType = h.contentType;
  if (h.contentLanguage !== undefined) out.ContentLanguage = h.contentLanguage;
  if (h.contentDisposition !== undefined) out.ContentDisposition = h.contentDisposition;
  if (h.contentEncoding !== undefined) out.ContentEncoding = h.contentEncoding;
  if (h.cacheControl !== undefined) out.CacheControl = h.cacheControl;
  if (h.cacheExpiry !== undefined && Number.isFinite(h.cacheExpiry)) out.Expires = new Date(h.cacheExpiry);
  return out;
}

/** Smallest key greater than every key starting with `group` that S3 accepts as StartAfter. */
function pastGroup(group: string): string {
  let s = group;
  while (Buffer.byteLength(s) + 4 <= kLimits.maxKeyBytes) s += '\u{10ffff}';
  return s;
}

/**
 * Opens a bucket on an S3-compatible store. No request is made until the first operation.
 * @example
 * import { openS3Bucket } from 'leakscan/store';
 * const bucket = await openS3Bucket({
 *   endpoint: 'http://127.0.0.1:7480', bucket: 'events', region: 'us-east-1',
 *   credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' }, ifMatch: 'unquoted', // Ceph RGW
 * });
 * await bucket.put('batch-1', body, { onlyIf: { etagDoesNotMatch: '*' } }); // create-only: null if it exists
 */
export async function openS3Bucket(options: OpenS3BucketOptions): Promise<S3Bucket> {
  if (!options || typeof options.bucket !== 'string' || options.bucket === '') throw new TypeError('openS3Bucket: `bucket` must be a non-empty string');
  if (!options.client && (typeof options.endpoint !== 'string' || options.endpoint === '')) {
    throw new TypeError('openS3Bucket: `endpoint` must be a non-empty string');
  }
  checkOpenStorageClass('openS3Bucket', options.storageClass);
  const client =
    options.client ??
    new S3Client({
      endpoint: options.endpoint,
      region: options.region ?? 'us-east-1',
      credentials: options.credentials,
      forcePathStyle: true,
      // Checksums are computed and compared here; trailing aws-chunked checksums are not sent because
      // servers such as RGW 16 do not read them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  return new S3BucketImpl(client, !options.client, {
    bucket: options.bucket,
    quoteIfMatch: options.ifMatch !== 'unquoted',
    storageClass: options.storageClass ?? 'Standard',
    minPartSize: options.minPartSize ?? kLimits.minPartBytes,
  });
}

interface S3Config {
  bucket: string;
  quoteIfMatch: boolean;
  storageClass: string;
  minPartSize: number;
}

class S3BucketImpl implements S3Bucket {
  readonly #s3: S3Client;
  readonly #owned: boolean;
  readonly #cfg: S3Config;
  #closed = false;

  constructor(client: S3Client, owned: boolean, cfg: S3Config) {
    this.#s3 = client;
    this.#owned = owned;
    this.#cfg = cfg;
  }

  get client(): S3Client {
    if (this.#closed) throw new Error('the bucket is closed');
    return this.#s3;
  }

  get config(): S3Config {
    return this.#cfg;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) this.#s3.destroy();
  }

  ifMatch(etag: string): string {
    return this.#cfg.quoteIfMatch ? `"${etag}"` : etag;
  }

  /** The object's record, or undefined when the key does not exist. */
  async headRecord(action: StoreAction, key: string): Promise<ObjectRecord | undefined> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.#cfg.bucket, Key: key }));
      return toRecord(h, this.#cfg.storageClass);
    } catch (e) {
      if (isMissing(e)) return undefined;
      throw mapError(action, e);
    }
  }

  async head(key: string): Promise<StoreObject | null> {
    key = String(key);
    checkKey('head', key);
    const rec = await this.headRecord('head', key);
    return rec ? new StoredObject(key, rec, { http: true, custom: true }) : null;
  }

  get(key: string, options: StoreGetOptions & { onlyIf: StoreConditional | Headers }): Promise<StoreObjectBody | StoreObject | null>;
  get(key: string, options?: StoreGetOptions): Promise<StoreObjectBody | null>;
  async get(key: string, options?: StoreGetOptions): Promise<StoreObjectBody | StoreObject | null> {
    key = String(key);
    const o = options ?? {};
    const cond = parseConditional(o.onlyIf);
    const range = parseRangeOption(o.range);
    checkSsecKey(o.ssecKey);
    checkKey('get', key);
    // HEAD, decide, then GET pinned to the etag seen: a write in between is a 412 and a new round.
    for (let round = 0; ; round++) {
      const rec = await this.headRecord('get', key);
      if (!rec) return null;
      if (cond && !conditionHolds(cond, rec)) {
        return new StoredObject(key, rec, { http: true, custom: true, range: { offset: 0, length: rec.size } });
      }
      const r = resolveRange(range, rec.size);
      if (r === 'invalid') throw storeError('get', 'InvalidRange');
      try {
        const res = await this.client.send(
          new GetObjectCommand({
            Bucket: this.#cfg.bucket,
            Key: key,
            IfMatch: this.ifMatch(rec.etag),
            ...(r.length > 0 && (r.offset > 0 || r.length < rec.size) ? { Range: `bytes=${r.offset}-${r.offset + r.length - 1}` } : {}),
          }),
        );
        const now = toRecord(res, this.#cfg.storageClass);
        now.size = rec.size;
        const body = res.Body as Readable | undefined;
        const source = async function* (): AsyncGenerator<Uint8Array> {
          if (body) for await (const c of body) yield c as Uint8Array;
        };
        return new StoredObjectBody(key, now, { http: true, custom: true, range: r }, () => source(), () => body?.destroy());
      } catch (e) {
        if ((isPrecondition(e) || isMissing(e)) && round < kCasRounds) continue;
        if (isMissing(e)) return null;
        throw mapError('get', e);
      }
    }
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
    key = String(key);
    const src = valueSource(value, 'put');
    let bytes: Buffer;
    let cond: Condition | undefined;
    let rec: ObjectRecord;
    try {
      const o = options ?? {};
      cond = parseConditional(o.onlyIf);
      const custom = parseCustomMetadata(o.customMetadata);
      const http = parseHttpMetadata(o.httpMetadata);
      const hash = parseHashOptions(o);
      checkSsecKey(o.ssecKey);
      checkKey('put', key);
      if (src.length !== undefined && src.length > kLimits.maxValueBytes) throw storeError('put', 'EntityTooLarge');
      if (metadataSize(custom) > kLimits.maxMetadataBytes) throw storeError('put', 'MetadataTooLarge');
      const storageClass = checkStorageClass('put', o.storageClass, this.#cfg.storageClass);
      bytes = await readAll(src.chunks, kLimits.maxValueBytes, 'put');
      const md5 = createHash('md5').update(bytes).digest('hex');
      const checksums: ObjectRecord['checksums'] = { md5 };
      if (hash) {
        const actual = hash.field === 'md5' ? md5 : createHash(hash.node).update(bytes).digest('hex');
        if (actual !== hash.hex) throw badDigest('put', hash.name, hash.hex, actual);
        checksums[hash.field] = actual;
      }
      rec = {
        version: randomBytes(16).toString('hex'),
        size: bytes.byteLength,
        etag: md5,
        uploaded: Date.now(),
        checksums,
        http: http ?? {},
        custom: custom ?? {},
        storageClass,
        blobs: [],
      };
    } catch (e) {
      src.cancel(e);
      throw e;
    }
    return this.#write(key, bytes, rec, cond);
  }

  async #write(key: string, bytes: Buffer, rec: ObjectRecord, cond: Condition | undefined): Promise<StoreObject | null> {
    const { md5: _md5, ...extra } = rec.checksums;
    const meta: MetaEntry = { v: rec.version, u: rec.uploaded, m: rec.custom, h: rec.http, s: rec.storageClass };
    if (Object.keys(extra).length > 0) meta.c = extra;
    const send = async (guard: { IfMatch?: string; IfNoneMatch?: string }): Promise<boolean> => {
      try {
        rec.uploaded = Date.now();
        meta.u = rec.uploaded;
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.#cfg.bucket,
            Key: key,
            Body: bytes,
            ContentLength: bytes.byteLength,
            ContentMD5: Buffer.from(rec.etag, 'hex').toString('base64'),
            Metadata: encodeMeta(meta),
            ...httpHeaders(rec.http),
            ...guard,
          }),
        );
        return true;
      } catch (e) {
        if (!(isPrecondition(e) || (guard.IfNoneMatch && statusOf(e) === 409))) throw mapError('put', e);
        // The SDK retries a request whose answer was lost; the retry then fails the condition against
        // this very write. The version we wrote tells a lost race from our own earlier success.
        const now = await this.headRecord('put', key);
        return now?.version === rec.version;
      }
    };
    if (!cond) {
      await send({});
      return new StoredObject(key, rec, { http: true, custom: true });
    }
    // Create-only needs no read: the server decides atomically.
    if (isCreateOnly(cond)) return (await send({ IfNoneMatch: '*' })) ? new StoredObject(key, rec, { http: true, custom: true }) : null;
    for (let round = 0; round < kCasRounds; round++) {
      const old = await this.headRecord('put', key);
      if (!conditionHolds(cond, old)) return null;
      const ok = await send(old ? { IfMatch: this.ifMatch(old.etag) } : { IfNoneMatch: '*' });
      if (ok) return new StoredObject(key, rec, { http: true, custom: true });
    }
    return null;
  }

  async delete(keys: string | string[]): Promise<void> {
    const list = (Array.isArray(keys) ? keys : [keys]).map(String);
    for (const k of list) checkKey('delete', k);
    for (let i = 0; i < list.length; i += 1000) {
      const batch = list.slice(i, i + 1000);
      try {
        const r = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.#cfg.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const failed = (r.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0) throw storeError('delete', 'InternalError', `We encountered an internal error. Please try again. [S3 ${failed[0]!.Code}]`);
      } catch (e) {
        if ((e as { action?: string }).action === 'delete') throw e;
        throw mapError('delete', e);
      }
    }
  }

  async list(options?: StoreListOptions): Promise<StoreObjects> {
    const o = options ?? {};
    const { includeHttp, includeCustom, limit } = parseListView(o);
    const prefix = o.prefix === undefined ? '' : String(o.prefix);
    const delimiter = o.delimiter === undefined ? '' : String(o.delimiter);
    let after = o.startAfter !== undefined ? String(o.startAfter) : undefined;
    if (o.cursor !== undefined) {
      // Our cursor: the last key or group returned, base64 (a group is skipped whole on the next page).
      const c = Buffer.from(String(o.cursor), 'base64').toString('utf8');
      const at = c.startsWith('g:') ? pastGroup(c.slice(2)) : c.startsWith('k:') ? c.slice(2) : c;
      if (after === undefined || Buffer.compare(Buffer.from(at), Buffer.from(after)) > 0) after = at;
    }
    let res;
    try {
      res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.#cfg.bucket,
          MaxKeys: limit,
          ...(prefix ? { Prefix: prefix } : {}),
          ...(delimiter ? { Delimiter: delimiter } : {}),
          ...(after ? { StartAfter: after } : {}),
        }),
      );
    } catch (e) {
      throw mapError('list', e);
    }
    // Objects and groups in key order, as R2 returns them.
    const entries: { key: string; group: boolean }[] = [
      ...(res.Contents ?? []).map((c) => ({ key: c.Key ?? '', group: false })),
      ...(res.CommonPrefixes ?? []).map((p) => ({ key: p.Prefix ?? '', group: true })),
    ].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    // R2 lists version, upload time and checksums; S3's listing has none of them, so each object is read.
    const recs = await mapLimit(entries, 16, (e) => (e.group ? Promise.resolve(undefined) : this.headRecord('list', e.key)));
    const objects: StoreObject[] = [];
    const delimitedPrefixes: string[] = [];
    const view = { http: includeHttp, custom: includeCustom };
    entries.forEach((e, i) => {
      if (e.group) delimitedPrefixes.push(e.key);
      else if (recs[i]) objects.push(new StoredObject(e.key, recs[i]!, view));
    });
    const last = entries[entries.length - 1];
    if (res.IsTruncated && last) {
      return { objects, delimitedPrefixes, truncated: true, cursor: Buffer.from(`${last.group ? 'g' : 'k'}:${last.key}`).toString('base64') };
    }
    return { objects, delimitedPrefixes, truncated: false };
  }

  async createMultipartUpload(key: string, options?: StoreMultipartOptions): Promise<StoreMultipartUpload> {
    key = String(key);
    const o = options ?? {};
    const custom = parseCustomMetadata(o.customMetadata);
    const http = parseHttpMetadata(o.httpMetadata);
    checkSsecKey(o.ssecKey);
    checkKey('createMultipartUpload', key);
    const storageClass = checkStorageClass('createMultipartUpload', o.storageClass, this.#cfg.storageClass);
    const meta: MetaEntry = { v: randomBytes(16).toString('hex'), m: custom ?? {}, h: http ?? {}, s: storageClass };
    try {
      const r = await this.client.send(
        new CreateMultipartUploadCommand({ Bucket: this.#cfg.bucket, Key: key, Metadata: encodeMeta(meta), ...httpHeaders(http) }),
      );
      return new S3MultipartUpload(this, key, r.UploadId ?? '');
    } catch (e) {
      throw mapError('createMultipartUpload', e);
    }
  }

  resumeMultipartUpload(key: string, uploadId: string): StoreMultipartUpload {
    return new S3MultipartUpload(this, String(key), String(uploadId));
  }
}

/** A create-only condition (`etagDoesNotMatch: '*'` or `If-None-Match: *`, nothing else): one request. */
function isCreateOnly(c: Condition): boolean {
  return (
    c.etagMatches === undefined &&
    c.uploadedAfter === undefined &&
    c.uploadedBefore === undefined &&
    c.etagDoesNotMatch?.length === 1 &&
    c.etagDoesNotMatch[0]!.type === 'wildcard'
  );
}

async function mapLimit<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

class S3MultipartUpload implements StoreMultipartUpload {
  readonly key: string;
  readonly uploadId: string;
  readonly #b: S3BucketImpl;
  constructor(bucket: S3BucketImpl, key: string, uploadId: string) {
    this.#b = bucket;
    this.key = key;
    this.uploadId = uploadId;
  }

  async uploadPart(
    partNumber: number,
    value: ReadableStream | (ArrayBuffer | ArrayBufferView) | string | Blob,
    options?: StoreUploadPartOptions,
  ): Promise<StoreUploadedPart> {
    const n = checkPartNumber(partNumber);
    const src = valueSource(value, 'uploadPart');
    let bytes: Buffer;
    try {
      checkSsecKey(options?.ssecKey);
      checkKey('uploadPart', this.key);
      bytes = await readAll(src.chunks, kLimits.maxPartBytes, 'uploadPart');
    } catch (e) {
      src.cancel(e);
      throw e;
    }
    const md5 = createHash('md5').update(bytes).digest();
    try {
      const r = await this.#b.client.send(
        new UploadPartCommand({
          Bucket: this.#b.config.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          PartNumber: n,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentMD5: md5.toString('base64'),
        }),
      );
      return { partNumber: n, etag: unquote(r.ETag) || md5.toString('hex') };
    } catch (e) {
      throw mapError('uploadPart', e);
    }
  }

  async abort(): Promise<void> {
    checkKey('abortMultipartUpload', this.key);
    try {
      await this.#b.client.send(new AbortMultipartUploadCommand({ Bucket: this.#b.config.bucket, Key: this.key, UploadId: this.uploadId }));
    } catch (e) {
      // R2 accepts an abort of a finished upload; S3 no longer knows it (RGW says NoSuchKey).
      if (codeOf(e) === 'NoSuchUpload' || codeOf(e) === 'NoSuchKey') return;
      throw mapError('abortMultipartUpload', e);
    }
  }

  async complete(uploadedParts: StoreUploadedPart[]): Promise<StoreObject> {
    const action = 'completeMultipartUpload';
    if (!Array.isArray(uploadedParts)) throw new TypeError("Failed to execute 'complete': parameter 1 is not an array.");
    const given = uploadedParts.map((p) => ({ partNumber: checkPartNumber(p?.partNumber), etag: String(p?.etag) }));
    checkKey(action, this.key);
    const seen = new Set<number>();
    for (const p of given) {
      if (seen.has(p.partNumber)) throw storeError(action, 'InternalError');
      seen.add(p.partNumber);
    }
    // R2's part-size rules are stricter than S3's (equal sizes): checked here against the server's list.
    const sizes = await this.#partSizes(action);
    // S3 completes nothing without a part: R2's empty upload becomes one empty part (etag md5(md5(""))-1).
    if (given.length === 0) {
      const part = await this.uploadPart(1, new Uint8Array(0));
      given.push(part);
      sizes.set(1, { etag: part.etag, size: 0 });
    }
    for (const p of given) if (sizes.get(p.partNumber)?.etag !== p.etag) throw storeError(action, 'InvalidPart');
    const sorted = [...given].sort((a, b) => a.partNumber - b.partNumber);
    const sizeOf = (p: { partNumber: number }): number => sizes.get(p.partNumber)!.size;
    const bad = partSizeError(given.map(sizeOf), sorted.map(sizeOf), this.#b.config.minPartSize);
    if (bad) throw storeError(action, bad);
    try {
      await this.#b.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.#b.config.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          MultipartUpload: { Parts: sorted.map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag}"` })) },
        }),
      );
    } catch (e) {
      throw mapError(action, e);
    }
    const rec = await this.#b.headRecord(action, this.key);
    if (!rec) throw storeError(action, 'InternalError');
    return new StoredObject(this.key, rec, { http: true, custom: true });
  }

  async #partSizes(action: StoreAction): Promise<Map<number, { etag: string; size: number }>> {
    const out = new Map<number, { etag: string; size: number }>();
    let marker: string | undefined;
    try {
      for (;;) {
        const r = await this.#b.client.send(
          new ListPartsCommand({
            Bucket: this.#b.config.bucket,
            Key: this.key,
            UploadId: this.uploadId,
            ...(marker ? { PartNumberMarker: marker } : {}),
          }),
        );
        for (const p of r.Parts ?? []) out.set(p.PartNumber ?? 0, { etag: unquote(p.ETag), size: p.Size ?? 0 });
        if (!r.IsTruncated || !r.NextPartNumberMarker) break;
        marker = String(r.NextPartNumberMarker);
      }
    } catch (e) {
      throw mapError(action, e);
    }
    return out;
  }
}
