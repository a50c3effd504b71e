/**
 * The Store* types are R2's declarations from @cloudflare/workers-types, member for member, with the
 * prefix renamed. Members that mention platform classes (Headers, ReadableStream, Blob) are compared
 * with those classes mapped to Node's, since workers-types declares its own copies.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as WT from '@cloudflare/workers-types/index.ts';
import type * as S from '../../src/storage/index.js';

// Maps workers-types' platform classes to Node's web globals, recursively through data types.
type Platform<T> = T extends WT.Headers
  ? Headers
  : T extends WT.ReadableStream
    ? ReadableStream
    : T extends WT.Blob
      ? Blob
      : T extends Date | ArrayBuffer | ArrayBufferView | string | number | boolean | null | undefined
        ? T
        : T extends object
          ? { [K in keyof T]: Platform<T[K]> }
          : T;

describe('Store* types match the R2 declarations', () => {
  it('data types are identical', () => {
    expectTypeOf<S.StoreRange>().toEqualTypeOf<WT.R2Range>();
    expectTypeOf<S.StoreConditional>().toEqualTypeOf<WT.R2Conditional>();
    expectTypeOf<S.StoreHTTPMetadata>().toEqualTypeOf<WT.R2HTTPMetadata>();
    expectTypeOf<S.StoreStringChecksums>().toEqualTypeOf<WT.R2StringChecksums>();
    expectTypeOf<S.StoreChecksums>().toEqualTypeOf<WT.R2Checksums>();
    expectTypeOf<S.StoreUploadedPart>().toEqualTypeOf<WT.R2UploadedPart>();
    expectTypeOf<S.StoreListOptions>().toEqualTypeOf<WT.R2ListOptions>();
    expectTypeOf<S.StoreUploadPartOptions>().toEqualTypeOf<WT.R2UploadPartOptions>();
    expectTypeOf<S.StoreError>().toEqualTypeOf<WT.R2Error>();
  });

  it('option types match with platform classes mapped', () => {
    expectTypeOf<S.StoreGetOptions>().toEqualTypeOf<Platform<WT.R2GetOptions>>();
    expectTypeOf<S.StorePutOptions>().toEqualTypeOf<Platform<WT.R2PutOptions>>();
    expectTypeOf<S.StoreMultipartOptions>().toEqualTypeOf<Platform<WT.R2MultipartOptions>>();
  });

  it('objects have the same members', () => {
    expectTypeOf<keyof S.StoreObject>().toEqualTypeOf<keyof WT.R2Object>();
    expectTypeOf<Omit<S.StoreObject, 'writeHttpMetadata' | 'checksums'>>().toEqualTypeOf<Omit<WT.R2Object, 'writeHttpMetadata' | 'checksums'>>();
    expectTypeOf<S.StoreObject['checksums']>().toEqualTypeOf<WT.R2Object['checksums']>();
    expectTypeOf<Parameters<S.StoreObject['writeHttpMetadata']>>().toEqualTypeOf<[Headers]>();
    expectTypeOf<Parameters<WT.R2Object['writeHttpMetadata']>>().toEqualTypeOf<[WT.Headers]>();
    expectTypeOf<ReturnType<S.StoreObject['writeHttpMetadata']>>().toEqualTypeOf<void>();

    expectTypeOf<keyof S.StoreObjectBody>().toEqualTypeOf<keyof WT.R2ObjectBody>();
    expectTypeOf<S.StoreObjectBody['body']>().toEqualTypeOf<ReadableStream>();
    expectTypeOf<WT.R2ObjectBody['body']>().toEqualTypeOf<WT.ReadableStream>();
    expectTypeOf<S.StoreObjectBody['bodyUsed']>().toEqualTypeOf<WT.R2ObjectBody['bodyUsed']>();
    expectTypeOf<S.StoreObjectBody['arrayBuffer']>().toEqualTypeOf<WT.R2ObjectBody['arrayBuffer']>();
    expectTypeOf<S.StoreObjectBody['bytes']>().toEqualTypeOf<WT.R2ObjectBody['bytes']>();
    expectTypeOf<S.StoreObjectBody['text']>().toEqualTypeOf<WT.R2ObjectBody['text']>();
    expectTypeOf<S.StoreObjectBody['json']>().toEqualTypeOf<WT.R2ObjectBody['json']>();
    expectTypeOf<ReturnType<S.StoreObjectBody['blob']>>().toEqualTypeOf<Promise<Blob>>();
    expectTypeOf<ReturnType<WT.R2ObjectBody['blob']>>().toEqualTypeOf<Promise<WT.Blob>>();

    expectTypeOf<keyof S.StoreObjects>().toEqualTypeOf<keyof WT.R2Objects>();
    expectTypeOf<Omit<S.StoreObjects, 'objects'>>().toEqualTypeOf<Omit<WT.R2Objects, 'objects'>>();
  });

  it('the bucket and the multipart upload have the same methods and signatures', () => {
    expectTypeOf<keyof S.StoreBucket>().toEqualTypeOf<keyof WT.R2Bucket>();
    expectTypeOf<keyof S.StoreMultipartUpload>().toEqualTypeOf<keyof WT.R2MultipartUpload>();
    expectTypeOf<S.StoreMultipartUpload['key']>().toEqualTypeOf<WT.R2MultipartUpload['key']>();
    expectTypeOf<S.StoreMultipartUpload['uploadId']>().toEqualTypeOf<WT.R2MultipartUpload['uploadId']>();

    expectTypeOf<Parameters<S.StoreBucket['head']>>().toEqualTypeOf<Parameters<WT.R2Bucket['head']>>();
    expectTypeOf<Parameters<S.StoreBucket['resumeMultipartUpload']>>().toEqualTypeOf<Parameters<WT.R2Bucket['resumeMultipartUpload']>>();
    expectTypeOf<Parameters<S.StoreBucket['delete']>>().toEqualTypeOf<Parameters<WT.R2Bucket['delete']>>();
    expectTypeOf<Parameters<S.StoreBucket['list']>>().toEqualTypeOf<Parameters<WT.R2Bucket['list']>>();
    expectTypeOf<Parameters<S.StoreBucket['createMultipartUpload']>>().toEqualTypeOf<Platform<Parameters<WT.R2Bucket['createMultipartUpload']>>>();
    expectTypeOf<Parameters<S.StoreBucket['put']>>().toEqualTypeOf<Platform<Parameters<WT.R2Bucket['put']>>>();
    expectTypeOf<Parameters<S.StoreBucket['get']>>().toEqualTypeOf<Platform<Parameters<WT.R2Bucket['get']>>>();
    expectTypeOf<Parameters<S.StoreMultipartUpload['uploadPart']>>().toEqualTypeOf<Platform<Parameters<WT.R2MultipartUpload['uploadPart']>>>();
    expectTypeOf<Parameters<S.StoreMultipartUpload['complete']>>().toEqualTypeOf<Parameters<WT.R2MultipartUpload['complete']>>();
  });

  it('an R2 caller compiles against a StoreBucket unchanged', () => {
    const use = async (bucket: S.StoreBucket): Promise<void> => {
      const o = await bucket.get('k', { onlyIf: { etagMatches: 'x' } });
      if (o && 'body' in o) await o.text();
      // As in workers-types, a put without options resolves through the first (conditional) overload.
      const p = await bucket.put('k', 'v');
      expectTypeOf(p).toEqualTypeOf<S.StoreObject | null>();
      const q = await bucket.put('k', 'v', { customMetadata: {} });
      expectTypeOf(q).toEqualTypeOf<S.StoreObject>();
      const c = await bucket.put('k', 'v', { onlyIf: { etagDoesNotMatch: '*' } });
      expectTypeOf(c).toEqualTypeOf<S.StoreObject | null>();
      const l = await bucket.list({ include: ['httpMetadata'] });
      if (l.truncated) expectTypeOf(l.cursor).toEqualTypeOf<string>();
    };
    expectTypeOf(use).toBeFunction();
  });
});
