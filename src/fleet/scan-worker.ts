/**
 * `leakscan scan-worker`: pulls captured bodies from the work queue, scans each with every managed rule,
 * keeps the findings of the zone's effective rules (the thresholds that came with the body), masks the
 * exchange's fields, and publishes the events and the response's outcome to `events.<zone>`. The body
 * is acknowledged only after the stream has acknowledged every one of those publishes; a worker that
 * dies before that leaves the body to be delivered again (after the consumer's ack wait), and since a
 * scan is deterministic and the ids come from the exchange, the events it publishes again are the
 * same ids, dropped by the stream as duplicates.
 *
 * A message that is not a body envelope is terminated (never delivered again) and counted; a body whose
 * scan fails is counted as `failed` in its zone's coverage, as `serve` counts it.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { keepsFinding, lowestThreshold } from '../rulesets/index.js';
import { eventsOf, storedFields } from '../eventlog/index.js';
import type { Confidence, Finding, Scanner } from '../types.js';
import { ensureBodiesStream, ensureEventsStream, kBodiesStream, kScanConsumer, zoneOfSubject } from './bus.js';
import { kExchangeHeader, parseEnvelope, type BodyEnvelope } from './bodies.js';
import { EventPublisher } from './publisher.js';

export interface ScanWorkerOptions {
  nc: NatsConnection;
  /** Every managed rule, reporting every level the zones keep, or the levels `reach` lowers it to. */
  scanner: Scanner;
  /**
   * Called before each body's scan with the lowest threshold of the body's zone rules: resolves once
   * `scanner` reports that level (serve's LevelledScanner.reach). Without it `scanner` must already
   * report every level. A body whose level cannot be reached is handed back, not scanned short.
   */
  reach?: (level: Confidence) => Promise<void>;
  /** Bodies scanned at once. Default 2. */
  concurrency?: number;
  /** How long a delivered body may stay unacknowledged before it goes to another worker. Default 60 s. */
  ackWaitMs?: number;
  /**
   * Event messages waiting for the stream's acknowledgement, across the bodies in hand; past it a body's
   * next event waits for room (its body stays in hand, never handed back for it). Default 10,000.
   */
  maxInFlight?: number;
  onError?: (err: unknown) => void;
  /**
   * Runs after a body's events and outcome are acknowledged by the stream and before the body is: the
   * window in which a crash makes the body be delivered again. The failure tests kill the process here.
   */
  beforeAck?: () => void;
}

export interface ScanWorkerStats {
  bodies: number;
  events: number;
  /** Bodies whose scan failed (their outcome is published as `failed`). */
  scanErrors: number;
  /** Bodies given back (`nak`) because a publish failed after every attempt: scanned again later. */
  retried: number;
  /** Messages terminated as not a body envelope (SDD_ERR_BUS_MESSAGE). */
  malformed: number;
}

/**
 * @example
 * const scanner = await createScanner({ allRules: true, minConfidence: 'low' });
 * const worker = new ScanWorker({ nc, scanner });
 * await worker.start();
 * await worker.close();
 */
export class ScanWorker {
  readonly #nc: NatsConnection;
  readonly #scanner: Scanner;
  readonly #concurrency: number;
  readonly #ackWaitMs: number;
  readonly #onError: (err: unknown) => void;
  readonly #publisher: EventPublisher;
  readonly #beforeAck: (() => void) | undefined;
  readonly #reach: ((level: Confidence) => Promise<void>) | undefined;
  #messages: ConsumerMessages | null = null;
  #loop: Promise<void> | null = null;
  readonly #inFlight = new Set<Promise<void>>();
  readonly stats: ScanWorkerStats = { bodies: 0, events: 0, scanErrors: 0, retried: 0, malformed: 0 };

  constructor(options: ScanWorkerOptions) {
    this.#nc = options.nc;
    this.#scanner = options.scanner;
    this.#concurrency = options.concurrency ?? 2;
    this.#ackWaitMs = options.ackWaitMs ?? 60_000;
    this.#onError = options.onError ?? (() => {});
    // Wait for room rather than refuse: a dense body (thousands of events) with others in hand would
    // otherwise pass the bound, be handed back, and be scanned again and again.
    this.#publisher = new EventPublisher(this.#nc, { onError: this.#onError, whenFull: 'wait', ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }) });
    this.#beforeAck = options.beforeAck;
    this.#reach = options.reach;
  }

  /** Creates the streams and the shared consumer when missing, then pulls bodies until `close()`. */
  async start(): Promise<void> {
    await ensureEventsStream(this.#nc);
    await ensureBodiesStream(this.#nc);
    const jsm = await jetstreamManager(this.#nc);
    try {
      await jsm.consumers.info(kBodiesStream, kScanConsumer);
    } catch {
      await jsm.consumers
        .add(kBodiesStream, { durable_name: kScanConsumer, ack_policy: AckPolicy.Explicit, ack_wait: this.#ackWaitMs * 1_000_000, max_ack_pending: 1024 })
        .catch(async (e: unknown) => {
          // Added meanwhile by another worker.
          await jsm.consumers.info(kBodiesStream, kScanConsumer).catch(() => Promise.reject(e));
        });
    }
    const consumer = await jetstream(this.#nc).consumers.get(kBodiesStream, kScanConsumer);
    this.#messages = await consumer.consume({ max_messages: this.#concurrency });
    const messages = this.#messages;
    this.#loop = (async () => {
      for await (const m of messages) {
        while (this.#inFlight.size >= this.#concurrency) await Promise.race(this.#inFlight);
        const run = this.#handle(m).catch(this.#onError);
        const tracked = run.finally(() => this.#inFlight.delete(tracked));
        this.#inFlight.add(tracked);
      }
    })();
  }

  /** Stops pulling; bodies in hand are finished (published and acknowledged) first. */
  async close(): Promise<void> {
    await this.#messages?.close();
    await this.#loop;
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
    await this.#publisher.idle();
  }

  async #handle(m: JsMsg): Promise<void> {
    const zone = zoneOfSubject(m.subject);
    let env: BodyEnvelope;
    try {
      if (zone === undefined) throw new Error(`${m.subject} is not bodies.<zone>`);
      env = parseEnvelope(m.headers?.get(kExchangeHeader) || undefined, zone);
    } catch (e) {
      this.stats.malformed++;
      this.#onError(e);
      m.term();
      return;
    }
    const published = await this.#scanAndPublish(env, m.data);
    if (published) {
      this.#beforeAck?.();
      m.ack();
      this.stats.bodies++;
    } else {
      this.stats.retried++;
      m.nak(1000);
    }
  }

  /** Scans one body and publishes its events and outcome; true once the stream acknowledged them all. */
  async #scanAndPublish(env: BodyEnvelope, body: Uint8Array): Promise<boolean> {
    const { info, thresholds } = env;
    const outcome = (o: 'scanned' | 'binary' | 'failed', truncated = false): Promise<boolean> => this.#publisher.outcome(info.zone, { requestId: info.requestId, outcome: o, truncated });
    try {
      await this.#reach?.(lowestThreshold(env));
    } catch (e) {
      // Scanning above the zone's threshold would lose its findings for good: give the body back.
      this.#onError(e);
      return false;
    }
    let report;
    try {
      report = await this.#scanner.analyze(body, {
        ...(info.fields.contentType === null ? {} : { contentType: info.fields.contentType }),
        ...(info.contentEncoding === null ? {} : { contentEncoding: info.contentEncoding }),
      });
    } catch (e) {
      this.stats.scanErrors++;
      this.#onError(e);
      return outcome('failed');
    }
    if (report.contentKind === 'binary') return outcome('binary');
    const truncated = report.truncated || env.overflowed;
    const keep = (f: Finding): boolean => keepsFinding({ thresholds }, f);
    const findings = report.findings.filter(keep);
    if (findings.length === 0) return outcome('scanned', truncated);
    const fields = await storedFields(info.fields, (text) => this.#scanner.scan(text, { contentType: 'text/plain' }), keep);
    const events = eventsOf(info, fields, findings);
    const ok = await this.#publisher.events(info.zone, events);
    if (!ok) return false;
    this.stats.events += events.length;
    return outcome('scanned', truncated);
  }
}
