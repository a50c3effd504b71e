/**
 * The events bucket's batches as the events index reads them (src/events): which zones have batches,
 * their numbers, their bytes, and which zone and batch a key names. Used to keep the index current
 * (src/service) and to catch it up or rebuild it (every start, `leakscan events`).
 */
import { batchKey, batchNumberOf, batchPrefix, listKeys, listPrefixes } from '../eventlog/index.js';
import type { StoreBucket } from '../storage/index.js';
import type { BatchSource } from './store.js';

const kZonePrefix = /^events\/([0-9a-f]{32})\/$/;
const kZoneOfKey = /^events\/([0-9a-f]{32})\//;

/** Zone and batch number of a batch key (`events/{zone}/{n}.ndjson`); undefined for any other key. */
export function batchOfKey(key: string): { zone: string; batch: number } | undefined {
  const zone = kZoneOfKey.exec(key)?.[1];
  const batch = zone === undefined ? undefined : batchNumberOf(key, zone);
  return zone === undefined || batch === undefined ? undefined : { zone, batch };
}

/** The stored batches of an events bucket. */
export function storedBatches(bucket: StoreBucket): BatchSource {
  return {
    zones: async () => (await listPrefixes(bucket, 'events/')).flatMap((p) => kZonePrefix.exec(p)?.[1] ?? []),
    batches: async (zone) =>
      (await listKeys(bucket, batchPrefix(zone)))
        .map((k) => batchNumberOf(k, zone))
        .filter((n) => n !== undefined)
        .sort((a, b) => a - b),
    read: async (zone, n) => {
      const obj = await bucket.get(batchKey(zone, n));
      return obj === null ? null : new Uint8Array(await obj.arrayBuffer());
    },
  };
}
