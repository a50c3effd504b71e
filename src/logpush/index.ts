/**
 * Logpush-style export: jobs under `/client/v4/zones/{zone_id}/logpush/jobs` (Cloudflare's job object,
 * dataset `firewall_events`) that push every stored batch of the zone to an `https://` destination as
 * gzipped NDJSON with Cloudflare's field names, at least once, one file per batch named by zone and
 * batch number. service.ts opens it, calls `notify` from the batch writer once a batch is durable and
 * published, and mounts `api` in the v4 route table. See docs/api.md (Logpush).
 * @example
 * const logpush = await openLogpush({ dir: join(dataDir, 'logpush'), source, ca: readFileSync('receiver-ca.pem') });
 * logpush.start();
 * events = new EventLog({ …, onPublished: (zone, n) => logpush.notify(zone, n) });
 * await logpush.close();
 */
import { join } from 'node:path';
import { createLogpushApi, type LogpushApi } from './api.js';
import { LogpushDelivery, type DeliveryOptions, type DeliverySource, type LogpushStats } from './delivery.js';
import { JobStore } from './jobs.js';

export { kFirewallEventFields, kDefaultFields, recordLine, eventsOfBatch, type StoredEvent, type TimestampFormat } from './fields.js';
export { fileName, destinationOf, kDeliveryDefaults, type DeliveryOptions, type DeliverySource, type LogpushStats } from './delivery.js';
export { parseDestination, type LogpushJob, type OutputOptions } from './jobs.js';
export type { LogpushApi } from './api.js';

export interface LogpushOptions extends DeliveryOptions {
  /** Where jobs and their cursors are kept (`jobs.json`); `DIR/logpush` in the service. */
  dir: string;
  source: DeliverySource;
  onError?: (err: unknown) => void;
}

export interface Logpush {
  readonly api: LogpushApi;
  /** The batch writer's hook: batch `batch` of `zone` is durable and published. Never waits. */
  notify(zone: string, batch: number): void;
  /** Starts delivering: every job resumes from its cursor. */
  start(): void;
  stats(): LogpushStats;
  /** Stops delivering (a file in flight is sent again after the next start) and waits for the jobs file. */
  close(): Promise<void>;
}

export async function openLogpush(options: LogpushOptions): Promise<Logpush> {
  const { dir, source, ...rest } = options;
  const store = new JobStore(join(dir, 'jobs.json'));
  await store.open();
  const delivery = new LogpushDelivery(store, source, rest);
  return {
    api: createLogpushApi(store, delivery, (zone) => source.published(zone)),
    notify: (zone, batch) => delivery.notify(zone, batch),
    start: () => delivery.start(),
    stats: () => ({ ...delivery.stats }),
    close: async () => {
      await delivery.close();
      await store.idle();
    },
  };
}
