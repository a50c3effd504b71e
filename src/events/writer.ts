/**
 * Keeping the index current: the bucket the batch writer puts batches into, wrapped so each batch that
 * is created is also indexed from the same bytes. The batch writer does not know about the index;
 * service.ts hands it this bucket instead of the plain one.
 */
import type { StoreBucket } from '../storage/index.js';
import type { EventIndex } from './store.js';

/** Which zone's batch a bucket key holds, or undefined for any other key. */
export type BatchKeyParser = (key: string) => { zone: string; batch: number } | undefined;

function bytesOf(value: unknown): Uint8Array | undefined {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

/**
 * `bucket` with a `put` that, once a batch is stored, indexes it before resolving, so a query made
 * after a batch is written sees its events. A failure to index is reported to `onError` and never
 * fails the put: the batch is stored, and the next start's catch-up indexes it.
 * @example
 * const events = new EventLog({ bucket: indexOnPut(bucket, index, parseKey, onError), log });
 */
export function indexOnPut<B extends StoreBucket>(bucket: B, index: EventIndex, batchOf: BatchKeyParser, onError: (err: unknown) => void): B {
  const put = bucket.put.bind(bucket) as (key: string, value: unknown, options?: unknown) => Promise<unknown>;
  const wrapped = async (key: string, value: unknown, options?: unknown): Promise<unknown> => {
    const stored = await put(key, value, options);
    const at = stored === null ? undefined : batchOf(key);
    const bytes = at === undefined ? undefined : bytesOf(value);
    if (at !== undefined && bytes !== undefined) {
      try {
        await index.addBatch(at.zone, at.batch, bytes);
      } catch (e) {
        onError(e);
      }
    }
    return stored;
  };
  return new Proxy(bucket, {
    get(target, prop, receiver) {
      if (prop === 'put') return wrapped;
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
