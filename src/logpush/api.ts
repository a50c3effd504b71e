/**
 * The jobs API of one zone, as Cloudflare's v4 `/zones/{zone_id}/logpush/jobs[/{job_id}]` answers it
 * (the SDK's `logpush.jobs`): list, create, get, update, delete. Mounted by the v4 API's route table
 * (src/api/routes.ts), which authenticates the token for the zone and wraps results in the envelope.
 * Refusals are thrown as LeakscanError `SDD_ERR_LOGPUSH_*`; the API answers them with their v4 number.
 */
import type { LogpushDelivery } from './delivery.js';
import { jobFields, publicJob, type JobStore, type LogpushJob } from './jobs.js';

export interface LogpushApi {
  list(zone: string): Promise<LogpushJob[]>;
  create(zone: string, body: unknown, dryRun: boolean): Promise<LogpushJob | null>;
  get(zone: string, id: number): Promise<LogpushJob>;
  update(zone: string, id: number, body: unknown, dryRun: boolean): Promise<LogpushJob | null>;
  remove(zone: string, id: number, dryRun: boolean): Promise<{ id: number }>;
}

/** `published(zone)`: the zone's latest published batch; a new job starts after it (it pushes what comes next). */
export function createLogpushApi(store: JobStore, delivery: LogpushDelivery, published: (zone: string) => Promise<number>): LogpushApi {
  return {
    list: async (zone) => store.list(zone).map(publicJob),
    get: async (zone, id) => publicJob(store.get(zone, id)),
    create: async (zone, body, dryRun) => {
      const fields = jobFields(body);
      if (dryRun) return null;
      const job = await store.create(zone, fields, await published(zone));
      delivery.wake(job);
      return publicJob(job);
    },
    update: async (zone, id, body, dryRun) => {
      const fields = jobFields(body, store.get(zone, id));
      if (dryRun) return null;
      const job = await store.update(zone, id, (j) => Object.assign(j, fields));
      delivery.wake(job);
      return publicJob(job);
    },
    remove: async (zone, id, dryRun) => {
      if (dryRun) store.get(zone, id);
      else await store.remove(zone, id);
      return { id };
    },
  };
}
