/**
 * R2's limits and the argument checks that the embedded store (`openBucket`) and the S3 adapter
 * (`openS3Bucket`) apply alike, so both reject the same input with the same error.
 */
import { storeError, type StoreAction, type StoreErrorName } from './errors.js';
import type { StoreListOptions } from './types.js';

/** R2's limits (reference section 3). */
export const kLimits = {
  maxKeyBytes: 1024,
  maxValueBytes: 5_368_709_120 - 5_242_880,
  maxMetadataBytes: 2048,
  maxListKeys: 1000,
  minPartBytes: 5 * 1024 * 1024,
  maxPartBytes: 5 * 1024 * 1024 * 1024,
  uploadTtlMs: 7 * 24 * 3600 * 1000,
} as const;

export const kStorageClasses = ['Standard', 'InfrequentAccess'] as const;
export type StorageClass = (typeof kStorageClasses)[number];

/** The `storageClass` option of an open call: a TypeError naming the opener when it is not a known class. */
export function checkOpenStorageClass(opener: string, sc: StorageClass | undefined): void {
  if (sc !== undefined && !kStorageClasses.includes(sc)) {
    throw new TypeError(`${opener}: storageClass must be one of ${kStorageClasses.join(', ')}`);
  }
}

export function checkStorageClass(action: StoreAction, sc: unknown, fallback: string): string {
  if (sc === undefined) return fallback;
  const s = String(sc);
  if (!(kStorageClasses as readonly string[]).includes(s)) {
    throw storeError(action, 'InvalidArgument', `The storage class specified is not valid: ${s}`);
  }
  return s;
}

export function checkPartNumber(n: unknown): number {
  const v = Number(n);
  if (!(Number.isInteger(v) && v >= 1 && v <= 10000)) {
    throw new TypeError(`Part number must be between 1 and 10000 (inclusive). Actual value was: ${String(n)}`);
  }
  return v;
}

/** `include` and `limit` of a list call, checked in that order. */
export function parseListView(o: StoreListOptions): { includeHttp: boolean; includeCustom: boolean; limit: number } {
  let includeHttp = false;
  let includeCustom = false;
  if (o.include !== undefined) {
    for (const v of o.include) {
      if (v === 'httpMetadata') includeHttp = true;
      else if (v === 'customMetadata') includeCustom = true;
      else throw new RangeError(`Unsupported include value ${String(v)}`);
    }
  }
  let limit: number = kLimits.maxListKeys;
  if (o.limit !== undefined) {
    limit = Math.trunc(Number(o.limit)) || 0;
    if (limit < 1 || limit > kLimits.maxListKeys) throw storeError('list', 'InvalidMaxKeys');
  }
  return { includeHttp, includeCustom, limit };
}

/**
 * R2's part-size rules for completing an upload: every part but the last (in the order given) at least
 * `min`; in part-number order, all but the last of one size and the last no larger.
 * @param given sizes in the order the parts were given
 * @param sorted sizes in part-number order
 */
export function partSizeError(given: readonly number[], sorted: readonly number[], min: number): StoreErrorName | undefined {
  for (let i = 0; i < given.length - 1; i++) if (given[i]! < min) return 'EntityTooSmall';
  if (sorted.length > 0) {
    const size = sorted[0]!;
    for (let i = 0; i < sorted.length - 1; i++) if (sorted[i]! < min || sorted[i]! !== size) return 'BadUpload';
    if (sorted.length > 1 && sorted[sorted.length - 1]! > size) return 'BadUpload';
  }
  return undefined;
}
