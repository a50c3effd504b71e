/**
 * The binding's public types: the Workers R2 declarations of `@cloudflare/workers-types` member for member,
 * with `R2` renamed `Store` (spec area C). `test/storage/types.test.ts` proves the match. Platform types
 * (ReadableStream, Headers, Blob) are Node's web globals.
 */

/** The error thrown for a storage-side failure; `message` is `"<action>: <text> (<code>)"` as R2's runtime prints it. */
export interface StoreError extends Error {
  readonly name: string;
  readonly code: number;
  readonly message: string;
  readonly action: string;
  readonly stack: any;
}

export interface StoreListOptions {
  limit?: number;
  prefix?: string;
  cursor?: string;
  delimiter?: string;
  startAfter?: string;
  include?: ('httpMetadata' | 'customMetadata')[];
}

export interface StoreBucket {
  head(key: string): Promise<StoreObject | null>;
  get(
    key: string,
    options: StoreGetOptions & {
      onlyIf: StoreConditional | Headers;
    },
  ): Promise<StoreObjectBody | StoreObject | null>;
  get(key: string, options?: StoreGetOptions): Promise<StoreObjectBody | null>;
  put(
    key: string,
    value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob,
    options?: StorePutOptions & {
      onlyIf: StoreConditional | Headers;
    },
  ): Promise<StoreObject | null>;
  put(
    key: string,
    value: ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob,
    options?: StorePutOptions,
  ): Promise<StoreObject>;
  createMultipartUpload(key: string, options?: StoreMultipartOptions): Promise<StoreMultipartUpload>;
  resumeMultipartUpload(key: string, uploadId: string): StoreMultipartUpload;
  delete(keys: string | string[]): Promise<void>;
  list(options?: StoreListOptions): Promise<StoreObjects>;
}

export interface StoreMultipartUpload {
  readonly key: string;
  readonly uploadId: string;
  uploadPart(
    partNumber: number,
    value: ReadableStream | (ArrayBuffer | ArrayBufferView) | string | Blob,
    options?: StoreUploadPartOptions,
  ): Promise<StoreUploadedPart>;
  abort(): Promise<void>;
  complete(uploadedParts: StoreUploadedPart[]): Promise<StoreObject>;
}

export interface StoreUploadedPart {
  partNumber: number;
  etag: string;
}

export declare abstract class StoreObject {
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
  writeHttpMetadata(headers: Headers): void;
}

export interface StoreObjectBody extends StoreObject {
  get body(): ReadableStream;
  get bodyUsed(): boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  json<T>(): Promise<T>;
  blob(): Promise<Blob>;
}

export type StoreRange =
  | {
      offset: number;
      length?: number;
    }
  | {
      offset?: number;
      length: number;
    }
  | {
      suffix: number;
    };

export interface StoreConditional {
  etagMatches?: string;
  etagDoesNotMatch?: string;
  uploadedBefore?: Date;
  uploadedAfter?: Date;
  secondsGranularity?: boolean;
}

export interface StoreGetOptions {
  onlyIf?: StoreConditional | Headers;
  range?: StoreRange | Headers;
  ssecKey?: ArrayBuffer | string;
}

export interface StorePutOptions {
  onlyIf?: StoreConditional | Headers;
  httpMetadata?: StoreHTTPMetadata | Headers;
  customMetadata?: Record<string, string>;
  md5?: (ArrayBuffer | ArrayBufferView) | string;
  sha1?: (ArrayBuffer | ArrayBufferView) | string;
  sha256?: (ArrayBuffer | ArrayBufferView) | string;
  sha384?: (ArrayBuffer | ArrayBufferView) | string;
  sha512?: (ArrayBuffer | ArrayBufferView) | string;
  storageClass?: string;
  ssecKey?: ArrayBuffer | string;
}

export interface StoreMultipartOptions {
  httpMetadata?: StoreHTTPMetadata | Headers;
  customMetadata?: Record<string, string>;
  storageClass?: string;
  ssecKey?: ArrayBuffer | string;
}

export interface StoreChecksums {
  readonly md5?: ArrayBuffer;
  readonly sha1?: ArrayBuffer;
  readonly sha256?: ArrayBuffer;
  readonly sha384?: ArrayBuffer;
  readonly sha512?: ArrayBuffer;
  toJSON(): StoreStringChecksums;
}

export interface StoreStringChecksums {
  md5?: string;
  sha1?: string;
  sha256?: string;
  sha384?: string;
  sha512?: string;
}

export interface StoreHTTPMetadata {
  contentType?: string;
  contentLanguage?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  cacheControl?: string;
  cacheExpiry?: Date;
}

export type StoreObjects = {
  objects: StoreObject[];
  delimitedPrefixes: string[];
} & (
  | {
      truncated: true;
      cursor: string;
    }
  | {
      truncated: false;
    }
);

export interface StoreUploadPartOptions {
  ssecKey?: ArrayBuffer | string;
}

/** The spec's name for the HTTP metadata type (`StoreHttpMetadata`); the same type as `StoreHTTPMetadata`. */
export type StoreHttpMetadata = StoreHTTPMetadata;
