import type { BlobRef } from './blobs.js';
import { kHttpHeaders, toHttpMetadata, type HashField, type StoredHttpMetadata } from './options.js';
import type {
  StoreChecksums,
  StoreHTTPMetadata,
  StoreObject,
  StoreObjectBody,
  StoreRange,
  StoreStringChecksums,
} from './types.js';

/** What the metadata store keeps per object (msgpack-encoded by lmdb). */
export interface ObjectRecord {
  version: string;
  size: number;
  etag: string;
  uploaded: number;
  checksums: Partial<Record<HashField, string>>;
  http: StoredHttpMetadata;
  custom: Record<string, string>;
  storageClass: string;
  blobs: BlobRef[];
}

function checksums(hex: Partial<Record<HashField, string>>): StoreChecksums {
  const out: { -readonly [K in HashField]?: ArrayBuffer } = {};
  for (const [f, h] of Object.entries(hex) as [HashField, string][]) {
    const b = Buffer.from(h, 'hex');
    out[f] = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }
  // toJSON is not enumerable so that spreading or comparing the object sees only the digests.
  Object.defineProperty(out, 'toJSON', { value: (): StoreStringChecksums => ({ ...hex }), enumerable: false });
  return out as StoreChecksums;
}

export interface ObjectView {
  /** Listing without `include` leaves metadata unknown, as R2 does. */
  http: boolean;
  custom: boolean;
  range?: { offset: number; length: number };
}

/** A stored object's metadata; `writeHttpMetadata` sets the matching response headers. */
export class StoredObject implements StoreObject {
  readonly key: string;
  readonly version: string;
  readonly size: number;
  readonly etag: string;
  readonly httpEtag: string;
  readonly checksums: StoreChecksums;
  readonly uploaded: Date;
  readonly httpMetadata?: StoreHTTPMetadata;
  readonly customMetadata?: Record<string, string>;
  readonly range?: StoreRange;
  readonly storageClass: string;
  readonly ssecKeyMd5?: string;

  constructor(key: string, rec: ObjectRecord, view: ObjectView) {
    this.key = key;
    this.version = rec.version;
    this.size = rec.size;
    this.etag = rec.etag;
    this.httpEtag = `"${rec.etag}"`;
    this.checksums = checksums(rec.checksums);
    this.uploaded = new Date(rec.uploaded);
    if (view.http) this.httpMetadata = toHttpMetadata(rec.http);
    if (view.custom) this.customMetadata = { ...rec.custom };
    if (view.range) this.range = { ...view.range };
    this.storageClass = rec.storageClass;
  }

  writeHttpMetadata(headers: Headers): void {
    const m = this.httpMetadata;
    if (m === undefined) {
      throw new TypeError(
        `HTTP metadata unknown for key \`${this.key}\`. Did you forget to add 'httpMetadata' to \`include\` when listing?`,
      );
    }
    for (const [field, header] of kHttpHeaders) {
      const v = m[field];
      if (v !== undefined) headers.set(header, v);
    }
    if (m.cacheExpiry !== undefined) headers.set('expires', m.cacheExpiry.toUTCString());
  }
}

const kUsed = 'Body has already been used. It can only be used once. Use tee() first if you need to read it twice.';

/** A stored object with its value. The body is read lazily, in bounded chunks, when first pulled. */
export class StoredObjectBody extends StoredObject implements StoreObjectBody {
  readonly #stream: ReadableStream<Uint8Array>;
  #disturbed = false;

  constructor(key: string, rec: ObjectRecord, view: ObjectView, source: () => AsyncIterator<Uint8Array>, done: () => void) {
    super(key, rec, view);
    let it: AsyncIterator<Uint8Array> | undefined;
    const finish = once(done);
    this.#stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          this.#disturbed = true;
          it ??= source();
          try {
            const r = await it.next();
            if (r.done) {
              finish();
              controller.close();
            } else {
              controller.enqueue(r.value);
            }
          } catch (e) {
            finish();
            controller.error(e);
          }
        },
        cancel: async () => {
          this.#disturbed = true;
          finish();
          await it?.return?.();
        },
      },
      { highWaterMark: 0 },
    );
    // A body nobody reads must not keep its blobs pinned forever.
    kReleaseOnCollect.register(this, finish);
  }

  get body(): ReadableStream {
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#disturbed;
  }

  async #readAll(): Promise<Uint8Array> {
    if (this.#disturbed || this.#stream.locked) throw new TypeError(kUsed);
    this.#disturbed = true;
    const reader = this.#stream.getReader();
    const parts: Uint8Array[] = [];
    let n = 0;
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      parts.push(r.value);
      n += r.value.byteLength;
    }
    return Buffer.concat(parts, n);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.#readAll();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.#readAll());
  }

  async json<T>(): Promise<T> {
    return JSON.parse(await this.text()) as T;
  }

  async blob(): Promise<Blob> {
    const b = await this.arrayBuffer();
    const type = this.httpMetadata?.contentType;
    return new Blob([b], type !== undefined ? { type } : {});
  }
}

// Built outside the constructor so the closure's context does not hold the object alive.
function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (!called) {
      called = true;
      fn();
    }
  };
}

const kReleaseOnCollect = new FinalizationRegistry<() => void>((finish) => finish());
