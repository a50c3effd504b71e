/**
 * What alerting keeps: the account id, webhook destinations, policies, deliveries (pending and
 * history), the last alert per policy and zone, and the detector's counts. One JSON file,
 * `DIR/alerts/state.json` (mode 0600: it holds the webhooks' secrets), replaced atomically on every
 * change, so a crash leaves the state before or after a change, never half of one.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../rulesets/index.js';
import type { DetectorState } from './detector.js';

export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  /** Sent as `cf-webhook-auth`; never answered by the API. */
  secret: string | null;
  type: 'generic';
  created_at: string;
  last_success: string | null;
  last_failure: string | null;
}

export interface PolicyRecord {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  alert_type: string;
  filters: Record<string, string[]>;
  mechanisms: { webhooks: { id: string }[] };
  created: string;
  modified: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One alert to one webhook: created pending (before any attempt), then delivered or failed. */
export interface DeliveryRecord {
  id: string;
  policy_id: string;
  policy_name: string;
  destination_id: string;
  alert_type: string;
  /** The JSON body sent (the same bytes on every attempt). */
  body: string;
  text: string;
  created: string;
  status: DeliveryStatus;
  attempts: number;
  /** ms since the epoch of the next attempt while pending. */
  next_attempt: number;
  last_error: string | null;
  sent: string | null;
}

export interface AlertState {
  format: 1;
  account_id: string;
  webhooks: WebhookRecord[];
  policies: PolicyRecord[];
  deliveries: DeliveryRecord[];
  /** `${policy}/${zone}` → start (ms) of the last bucket alerted. */
  last_alert: Record<string, number>;
  detector: DetectorState;
}

/** Deliveries kept once delivered or failed (the newest); pending ones are always kept. */
export const kHistoryKept = 1000;

export const newId = (): string => randomBytes(16).toString('hex');

/**
 * The state file. `load` once, change `state` in place, then `save()`; saves are serialized.
 * @example
 * const store = await AlertStore.open(dir); store.state.webhooks.push(w); await store.save();
 */
export class AlertStore {
  readonly file: string;
  state: AlertState;
  #saving: Promise<void> = Promise.resolve();

  private constructor(file: string, state: AlertState) {
    this.file = file;
    this.state = state;
  }

  static async open(dataDir: string, accountId?: string): Promise<AlertStore> {
    const file = join(dataDir, 'alerts', 'state.json');
    let state: AlertState;
    try {
      state = JSON.parse(await readFile(file, 'utf8')) as AlertState;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      state = { format: 1, account_id: accountId ?? newId(), webhooks: [], policies: [], deliveries: [], last_alert: {}, detector: {} };
    }
    if (accountId !== undefined) state.account_id = accountId;
    const store = new AlertStore(file, state);
    await store.save();
    return store;
  }

  /** Writes the current state (after every save queued before it). */
  save(): Promise<void> {
    const prune = (): void => {
      const done = this.state.deliveries.filter((d) => d.status !== 'pending');
      if (done.length <= kHistoryKept) return;
      const drop = new Set(done.slice(0, done.length - kHistoryKept));
      this.state.deliveries = this.state.deliveries.filter((d) => !drop.has(d));
    };
    const next = this.#saving.then(() => {
      prune();
      return writeFileAtomic(this.file, `${JSON.stringify(this.state)}\n`);
    });
    this.#saving = next.catch(() => {});
    return next;
  }
}
