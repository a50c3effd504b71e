/**
 * leakscan/store: the bucket binding of spec area C (the Workers R2 binding's API and semantics) on an
 * embedded, durable store: LMDB for metadata, fsynced files for large values. See docs/storage.md.
 * @example
 * import { openBucket } from 'leakscan/store';
 * const bucket = await openBucket({ dir: './data/events' });
 * await bucket.put('2026/05/01/batch-1.ndjson', body, { httpMetadata: { contentType: 'application/x-ndjson' } });
 * const listed = await bucket.list({ prefix: '2026/05/', delimiter: '/' });
 * await bucket.close();
 */
export { openBucket, kLimits, kStorageClasses } from './bucket.js';
export type { OpenBucketOptions, LocalBucket, StorageClass } from './bucket.js';
export { StoreBucketError, StoreOpenError, kStoreErrors, kStoreOpenErrors } from './errors.js';
export type { StoreErrorName, StoreAction } from './errors.js';
export type {
  StoreBucket,
  StoreChecksums,
  StoreConditional,
  StoreError,
  StoreGetOptions,
  StoreHTTPMetadata,
  StoreHttpMetadata,
  StoreListOptions,
  StoreMultipartOptions,
  StoreMultipartUpload,
  StoreObject,
  StoreObjectBody,
  StoreObjects,
  StorePutOptions,
  StoreRange,
  StoreStringChecksums,
  StoreUploadPartOptions,
  StoreUploadedPart,
} from './types.js';
export { openS3Bucket } from './s3.js';
export type { OpenS3BucketOptions, S3Bucket } from './s3.js';
