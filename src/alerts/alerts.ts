/**
 * Alerting as one object: the store, the spike detector fed with the service's events, the policies
 * that turn a spike into alerts, and the webhook deliverer. service.ts opens it, hands it every
 * zone's new events (`observe`) and routes the Notifications API to `answer`.
 */
import { randomUUID } from 'node:crypto';
import { LeakscanError } from '../errors.js';
import { answerAlerting, kService, type AlertingAnswer, type AlertingCall } from './api.js';
import { Deliverer, type DeliveryOptions } from './delivery.js';
import { SpikeDetector, type DetectorOptions, type Spike } from './detector.js';
import { AlertStore, newId, type PolicyRecord } from './store.js';

export interface AlertOptions extends DetectorOptions {
  /** No second alert of a policy for a zone within this many ms of the last one's bucket. Default 2 hours. */
  dedupMs?: number;
  delivery?: DeliveryOptions;
  /** The service's account id; default one made on first start and kept in `DIR/alerts/state.json`. */
  accountId?: string;
}

export const kDedupMs = 2 * 60 * 60_000;

/** The fields of an event alerting reads: never its values. */
export interface ObservedEvent {
  ruleId: string;
  /** RFC 3339: when the response arrived. */
  timestamp: string;
}

/** The generic webhook payload Cloudflare documents ("Webhook payload schema"), for one spike and policy. */
export function alertPayload(spike: Spike, policy: PolicyRecord, accountId: string, correlationId: string, min: { z: number; events: number }): { body: string; text: string } {
  const z = spike.zScore === null ? 'a flat baseline' : `z-score ${spike.zScore.toFixed(2)}`;
  const minutes = Math.round((spike.end - spike.start) / 60_000);
  const text = `Data Loss Protection spike in zone ${spike.zone}: ${spike.events} security events from ${new Date(spike.start).toISOString()} (${minutes} min), ${z} against the previous window (alert above ${min.z} and ${min.events} events).`;
  const body = {
    name: policy.name,
    text,
    data: {
      zone: spike.zone, service: kService, action: 'log', events: spike.events, rules: spike.rules,
      bucket_start: new Date(spike.start).toISOString(), bucket_end: new Date(spike.end).toISOString(),
      baseline_mean: spike.baselineMean, baseline_stddev: spike.baselineStddev, z_score: spike.zScore,
      z_threshold: min.z, min_events: min.events,
    },
    ts: Math.floor(Date.now() / 1000),
    account_id: accountId,
    policy_id: policy.id,
    policy_name: policy.name,
    alert_type: policy.alert_type,
    alert_correlation_id: correlationId,
    alert_event: 'ALERT_STATE_EVENT_START',
  };
  return { body: JSON.stringify(body), text };
}

/** Whether `policy` is about `zone`'s Data Loss Protection events. */
function policyCovers(policy: PolicyRecord, zone: string): boolean {
  if (!policy.enabled) return false;
  const f = policy.filters;
  if (f['zones'] !== undefined && f['zones'].length > 0 && !f['zones'].includes(zone)) return false;
  if (f['services'] !== undefined && f['services'].length > 0 && !f['services'].includes(kService)) return false;
  if (f['actions'] !== undefined && f['actions'].length > 0 && !f['actions'].includes('log')) return false;
  return true;
}

/**
 * @example
 * const alerts = await Alerts.open('.leakscan', { minEvents: 200 }, console.error);
 * alerts.observe(zone, events);   // per zone, as events are produced
 * await alerts.close();
 */
export class Alerts {
  readonly #store: AlertStore;
  readonly #detector: SpikeDetector;
  readonly #deliverer: Deliverer;
  readonly #dedupMs: number;
  readonly #onError: (err: unknown) => void;
  #saving: Promise<void> = Promise.resolve();
  #dirty = false;
  readonly #timer: NodeJS.Timeout;

  private constructor(store: AlertStore, options: AlertOptions, onError: (err: unknown) => void) {
    this.#store = store;
    this.#detector = new SpikeDetector(options, store.state.detector);
    this.#deliverer = new Deliverer(store, options.delivery ?? {}, onError);
    this.#dedupMs = options.dedupMs ?? kDedupMs;
    this.#onError = onError;
    // The detector's counts are saved now and then (an alert saves at once), so a restart keeps the baseline.
    this.#timer = setInterval(() => {
      if (this.#dirty) this.#persist();
    }, 10_000);
    this.#timer.unref();
  }

  /** Opens `DIR/alerts/state.json` and resends the deliveries a previous run left pending. */
  static async open(dataDir: string, options: AlertOptions = {}, onError: (err: unknown) => void = () => {}): Promise<Alerts> {
    const alerts = new Alerts(await AlertStore.open(dataDir, options.accountId), options, onError);
    alerts.#deliverer.kick();
    return alerts;
  }

  get accountId(): string {
    return this.#store.state.account_id;
  }

  /** One Notifications API call (src/api routes them here). */
  answer(call: AlertingCall): Promise<AlertingAnswer> {
    return answerAlerting(this.#store, call);
  }

  /** Counts a zone's new events; a spike makes one alert per policy covering the zone, unless one was sent within `dedupMs`. */
  observe(zone: string, events: readonly ObservedEvent[]): void {
    const byTime = new Map<number, ObservedEvent[]>();
    for (const e of events) {
      const t = Date.parse(e.timestamp);
      if (Number.isNaN(t)) continue;
      byTime.get(t)?.push(e) ?? byTime.set(t, [e]);
    }
    for (const [t, list] of byTime) {
      const spike = this.#detector.add(zone, t, list);
      this.#dirty = true;
      if (spike !== null) this.#alert(spike);
    }
  }

  #alert(spike: Spike): void {
    const s = this.#store.state;
    const { zThreshold, minEvents } = this.#detector.options;
    const correlation = randomUUID();
    let added = 0;
    for (const policy of s.policies) {
      if (!policyCovers(policy, spike.zone)) continue;
      const key = `${policy.id}/${spike.zone}`;
      const last = s.last_alert[key];
      if (last !== undefined && spike.start - last < this.#dedupMs) continue;
      s.last_alert[key] = spike.start;
      const { body, text } = alertPayload(spike, policy, s.account_id, correlation, { z: zThreshold, events: minEvents });
      const created = new Date().toISOString();
      for (const { id } of policy.mechanisms.webhooks) {
        s.deliveries.push({ id: newId(), policy_id: policy.id, policy_name: policy.name, destination_id: id, alert_type: policy.alert_type, body, text, created, status: 'pending', attempts: 0, next_attempt: 0, last_error: null, sent: null });
        added++;
      }
    }
    // Stored pending before the first attempt: a crash from here on resends, never loses, the alert.
    if (added > 0) this.#persist(() => this.#deliverer.kick());
  }

  #persist(then?: () => void): void {
    this.#dirty = false;
    this.#store.state.detector = this.#detector.state();
    this.#saving = this.#saving
      .then(() => this.#store.save())
      .then(then, (e: unknown) => this.#onError(new LeakscanError('SDD_ERR_ALERT_DELIVERY', `the alert state could not be saved: ${(e as Error).message}`, { cause: e })));
  }

  /** Resolves once every alert so far is stored and no delivery is in flight (tests, `flush`). */
  async idle(): Promise<void> {
    await this.#saving;
    await this.#deliverer.idle();
  }

  /** Saves the detector's counts and waits for attempts in flight; pending deliveries go out after the next start. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#persist();
    await this.#saving;
    await this.#deliverer.close();
  }
}

/** Alert options from `LEAKSCAN_ALERT_*` variables (tests and small setups), over `base`. */
export function alertOptionsFromEnv(env: NodeJS.ProcessEnv, base: AlertOptions = {}): AlertOptions {
  const out: AlertOptions = { ...base };
  const num = (name: string, set: (n: number) => void, min: number): void => {
    const t = env[name];
    if (t === undefined || t === '') return;
    const n = Number(t);
    if (!Number.isFinite(n) || n < min) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `${name}=${t}: a number of at least ${min}`);
    set(n);
  };
  num('LEAKSCAN_ALERT_BUCKET_SECONDS', (n) => (out.bucketMs = n * 1000), 0.001);
  num('LEAKSCAN_ALERT_WINDOW_BUCKETS', (n) => (out.windowBuckets = Math.round(n)), 1);
  num('LEAKSCAN_ALERT_Z', (n) => (out.zThreshold = n), 0);
  num('LEAKSCAN_ALERT_MIN_EVENTS', (n) => (out.minEvents = Math.round(n)), 1);
  num('LEAKSCAN_ALERT_DEDUP_SECONDS', (n) => (out.dedupMs = n * 1000), 0);
  num('LEAKSCAN_ALERT_RETRY_MS', (n) => (out.delivery = { ...out.delivery, baseDelayMs: n }), 1);
  if (env['LEAKSCAN_ACCOUNT_ID'] !== undefined && env['LEAKSCAN_ACCOUNT_ID'] !== '') {
    if (!/^[0-9a-f]{32}$/.test(env['LEAKSCAN_ACCOUNT_ID'])) throw new LeakscanError('SDD_ERR_INVALID_OPTION', 'LEAKSCAN_ACCOUNT_ID: 32 lower-case hex digits');
    out.accountId = env['LEAKSCAN_ACCOUNT_ID'];
  }
  return out;
}
