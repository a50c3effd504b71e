/**
 * Webhook delivery: each delivery is stored pending before its first attempt, POSTed with the
 * destination's secret in `cf-webhook-auth` (as Cloudflare's generic webhooks are), retried with
 * exponential backoff, and marked delivered once the receiver answers 2xx. A start resends what is
 * still pending, so a restart loses no alert; an acknowledged one is stored delivered before anything
 * else happens, so it is not sent again. (A crash between the receiver's 2xx and that write can
 * resend it: the body is the same bytes, with the same `alert_correlation_id`, for the receiver to drop.)
 */
import { LeakscanError } from '../errors.js';
import type { AlertStore, DeliveryRecord } from './store.js';

export interface DeliveryOptions {
  /** First retry after this many ms, doubling each time up to `maxDelayMs`. Default 1 s. */
  baseDelayMs?: number;
  /** Default 5 minutes. */
  maxDelayMs?: number;
  /** Attempts before a delivery is marked failed. Default 10. */
  maxAttempts?: number;
  /** One attempt's time limit. Default 10 s. */
  timeoutMs?: number;
}

export const kDeliveryDefaults = { baseDelayMs: 1000, maxDelayMs: 5 * 60_000, maxAttempts: 10, timeoutMs: 10_000 } as const;

/**
 * Sends the store's pending deliveries, each when its `next_attempt` comes. `kick()` after adding
 * some; `close()` stops the timers and waits for attempts in flight (their outcome is stored).
 */
export class Deliverer {
  readonly #store: AlertStore;
  readonly #options: Required<DeliveryOptions>;
  readonly #onError: (err: unknown) => void;
  readonly #inFlight = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(store: AlertStore, options: DeliveryOptions, onError: (err: unknown) => void) {
    this.#store = store;
    this.#options = { ...kDeliveryDefaults, ...options };
    this.#onError = onError;
  }

  /** Starts every pending delivery that is due, and sets a timer for the next one. */
  kick(): void {
    if (this.#closed) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const now = Date.now();
    let next = Infinity;
    for (const d of this.#store.state.deliveries) {
      if (d.status !== 'pending' || this.#inFlight.has(d.id)) continue;
      if (d.next_attempt <= now) {
        const p = this.#attempt(d)
          .catch(this.#onError)
          .finally(() => {
            this.#inFlight.delete(d.id);
            this.kick();
          });
        this.#inFlight.set(d.id, p);
      } else next = Math.min(next, d.next_attempt);
    }
    if (next !== Infinity) {
      this.#timer = setTimeout(() => this.kick(), Math.max(0, next - now));
      this.#timer.unref();
    }
  }

  async #attempt(d: DeliveryRecord): Promise<void> {
    const hook = this.#store.state.webhooks.find((w) => w.id === d.destination_id);
    let error: string | null = null;
    if (hook === undefined) {
      error = 'the destination was deleted';
      d.attempts = this.#options.maxAttempts - 1;
    } else {
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'leakscan-alerting', ...(hook.secret === null ? {} : { 'cf-webhook-auth': hook.secret }) },
          body: d.body,
          signal: AbortSignal.timeout(this.#options.timeoutMs),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
      } catch (e) {
        error = (e as Error).name === 'TimeoutError' ? `no answer in ${this.#options.timeoutMs} ms` : String((e as Error).cause ?? (e as Error).message);
      }
    }
    const at = new Date().toISOString();
    d.attempts++;
    if (error === null) {
      d.status = 'delivered';
      d.sent = at;
      d.last_error = null;
      if (hook !== undefined) hook.last_success = at;
    } else {
      d.last_error = new LeakscanError('SDD_ERR_ALERT_DELIVERY', error).message;
      if (hook !== undefined) hook.last_failure = at;
      if (d.attempts >= this.#options.maxAttempts) d.status = 'failed';
      else d.next_attempt = Date.now() + Math.min(this.#options.maxDelayMs, this.#options.baseDelayMs * 2 ** (d.attempts - 1));
    }
    await this.#store.save();
  }

  /** Resolves once no delivery is in flight or due now (tests; pending ones waiting for a retry stay). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight.values()]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    await this.idle();
  }
}
