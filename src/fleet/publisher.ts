/**
 * Publishes events and outcomes to `events.<zone>` and waits for the stream's acknowledgement. A
 * publish that fails (the server restarting, a timeout) is sent again with the same `Nats-Msg-Id`, so
 * a first attempt that was in fact stored is dropped as a duplicate by the stream, never stored twice.
 * Memory is bounded: past `maxInFlight` unacknowledged messages new ones are refused and counted
 * (`serve`: the proxy never waits on the bus), or, with `whenFull: 'wait'`, wait for room (a scan
 * worker: its body stays in hand instead of being handed back and scanned again).
 */
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { PendingEvent } from '../eventlog/index.js';
import { eventsSubject } from './bus.js';
import { kKindHeader, outcomeMsgId, type Outcome } from './messages.js';

export interface PublisherOptions {
  /** Messages sent and not yet acknowledged; more are refused (`dropped`) or wait. Default 10,000. */
  maxInFlight?: number;
  /** Past `maxInFlight`: `drop` (default) refuses a message, `wait` holds it until one is acknowledged. */
  whenFull?: 'drop' | 'wait';
  /** Attempts per message before it counts as failed. Default 8 (about 13 s of backoff in all). */
  attempts?: number;
  /** Each attempt waits this long for the stream's acknowledgement. Default 5 s. */
  timeoutMs?: number;
  onError?: (err: unknown) => void;
}

export interface PublisherStats {
  /** Messages the stream acknowledged (duplicates included). */
  published: number;
  /** Of those, acknowledged as duplicates: stored already by an earlier attempt or publisher. */
  duplicates: number;
  /** Attempts that failed and were sent again. */
  retries: number;
  /** Messages given up after every attempt failed. */
  publishErrors: number;
  /** Messages refused because `maxInFlight` were waiting (`whenFull: 'drop'`). */
  dropped: number;
  /** Messages that waited for room (`whenFull: 'wait'`). */
  waited: number;
  inFlight: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * @example
 * const pub = new EventPublisher(nc);
 * const ok = await pub.events(zone, pending); // true once the stream holds every one
 * await pub.idle();
 */
export class EventPublisher {
  readonly #js: JetStreamClient;
  readonly #maxInFlight: number;
  readonly #wait: boolean;
  /** Sends waiting for room, first come first served; each completion lets one go. */
  readonly #waiters: Array<() => void> = [];
  readonly #attempts: number;
  readonly #timeout: number;
  readonly #onError: (err: unknown) => void;
  readonly #pending = new Set<Promise<boolean>>();
  readonly stats: PublisherStats = { published: 0, duplicates: 0, retries: 0, publishErrors: 0, dropped: 0, waited: 0, inFlight: 0 };

  constructor(nc: NatsConnection, options: PublisherOptions = {}) {
    this.#js = jetstream(nc);
    this.#maxInFlight = options.maxInFlight ?? 10_000;
    this.#wait = options.whenFull === 'wait';
    this.#attempts = options.attempts ?? 8;
    this.#timeout = options.timeoutMs ?? 5000;
    this.#onError = options.onError ?? (() => {});
  }

  /** Publishes a response's events; resolves true once the stream acknowledged every one. */
  async events(zone: string, events: readonly PendingEvent[]): Promise<boolean> {
    const all: Promise<boolean>[] = [];
    for (const e of events) {
      if (this.#wait) await this.#room();
      all.push(this.#send(zone, 'event', e.id, JSON.stringify(e)));
    }
    return (await Promise.all(all)).every(Boolean);
  }

  /** Publishes what became of one response; resolves true once the stream acknowledged it. */
  async outcome(zone: string, o: Outcome): Promise<boolean> {
    if (this.#wait) await this.#room();
    return this.#send(zone, 'outcome', outcomeMsgId(o.requestId), JSON.stringify(o));
  }

  /**
   * Resolves once fewer than `maxInFlight` messages are waiting for the stream. Every message in
   * flight ends (acknowledged or given up after its attempts), so a waiter is always let go.
   */
  async #room(): Promise<void> {
    if (this.stats.inFlight < this.#maxInFlight && this.#waiters.length === 0) return;
    this.stats.waited++;
    await new Promise<void>((r) => this.#waiters.push(r));
  }

  /** Resolves once every message sent so far is acknowledged or given up. */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  #send(zone: string, kind: 'event' | 'outcome', msgID: string, body: string): Promise<boolean> {
    // Waiting sends were let in by #room: one released as another arrives may pass the bound by a few.
    if (!this.#wait && this.stats.inFlight >= this.#maxInFlight) {
      this.stats.dropped++;
      return Promise.resolve(false);
    }
    this.stats.inFlight++;
    const run = this.#attempt(eventsSubject(zone), kind, msgID, body).finally(() => {
      this.stats.inFlight--;
      this.#pending.delete(run);
      this.#waiters.shift()?.();
    });
    this.#pending.add(run);
    return run;
  }

  async #attempt(subject: string, kind: string, msgID: string, body: string): Promise<boolean> {
    const h = headers();
    h.set(kKindHeader, kind);
    for (let i = 1; ; i++) {
      try {
        const ack = await this.#js.publish(subject, body, { msgID, headers: h, timeout: this.#timeout });
        this.stats.published++;
        if (ack.duplicate) this.stats.duplicates++;
        return true;
      } catch (e) {
        if (i >= this.#attempts) {
          this.stats.publishErrors++;
          this.#onError(e);
          return false;
        }
        this.stats.retries++;
        await sleep(Math.min(100 * 2 ** (i - 1), 3000));
      }
    }
  }
}
