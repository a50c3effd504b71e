/**
 * Captured bodies on `bodies.<zone>` (`serve --scan remote|overflow` to `leakscan scan-worker`): the
 * body's bytes as captured (still Content-Encoded, at most 2 MiB + 64 KiB), and in the header
 * `Leakscan-Exchange` what a worker needs to make the exchange's events exactly as `serve` would: the
 * exchange (its requestId, so the event ids are the same whoever scans it, and however often) and the
 * zone's effective rules as they were evaluated on the response (each rule's threshold).
 *
 * The exchange's host, path and Content-Type travel as they came, like the body itself: the worker
 * masks them (request-fields.ts) before any event holds them. The bodies stream is a work queue, each
 * message deleted once a worker acknowledges it; the events stream only ever holds redacted events.
 */
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { LeakscanError } from '../errors.js';
import type { Confidence } from '../types.js';
import type { ExchangeInfo } from '../eventlog/index.js';
import { bodiesSubject } from './bus.js';

export const kExchangeHeader = 'Leakscan-Exchange';

export interface BodyEnvelope {
  info: ExchangeInfo;
  /** The zone's effective rules for this response: rule id → lowest confidence kept. */
  thresholds: Record<string, Confidence>;
  /** The body went on past what was captured (the scanner sees only its first part). */
  overflowed: boolean;
}

const kConfidences = new Set(['high', 'medium', 'low']);

function bad(detail: string): LeakscanError {
  return new LeakscanError('SDD_ERR_BUS_MESSAGE', detail);
}

export function encodeEnvelope(e: BodyEnvelope): string {
  return JSON.stringify({ v: 1, ...e });
}

/** The `Leakscan-Exchange` header of a body message checked; throws SDD_ERR_BUS_MESSAGE. */
export function parseEnvelope(header: string | undefined, zone: string): BodyEnvelope {
  if (header === undefined || header === '') throw bad(`no ${kExchangeHeader} header`);
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(header) as Record<string, unknown>;
  } catch {
    throw bad(`${kExchangeHeader} is not JSON`);
  }
  if (typeof o !== 'object' || o === null || o.v !== 1) throw bad(`${kExchangeHeader} is not version 1`);
  const i = o.info as Record<string, unknown> | null;
  if (typeof i !== 'object' || i === null) throw bad('"info" is missing');
  const f = i.fields as Record<string, unknown> | null;
  if (typeof f !== 'object' || f === null) throw bad('"info.fields" is missing');
  if (typeof i.requestId !== 'string' || !/^[0-9a-f]{32}$/.test(i.requestId)) throw bad('"info.requestId" is not 32 hex digits');
  if (i.zone !== zone) throw bad(`the body belongs to zone ${JSON.stringify(i.zone)}, not ${zone}`);
  if (!Number.isSafeInteger(i.timestamp) || !Number.isSafeInteger(i.status)) throw bad('"info.timestamp" or "info.status" is not an integer');
  if (typeof i.method !== 'string' || i.method.length > 32) throw bad('"info.method" is not a method');
  if (i.contentEncoding !== null && typeof i.contentEncoding !== 'string') throw bad('"info.contentEncoding" is neither a string nor null');
  if (typeof f.host !== 'string' || typeof f.path !== 'string' || (f.contentType !== null && typeof f.contentType !== 'string')) throw bad('"info.fields" are not host, path and contentType');
  const t = o.thresholds as Record<string, unknown> | null;
  if (typeof t !== 'object' || t === null || !Object.values(t).every((c) => typeof c === 'string' && kConfidences.has(c))) throw bad('"thresholds" is not rule id → high, medium or low');
  if (typeof o.overflowed !== 'boolean') throw bad('"overflowed" is not a boolean');
  return {
    info: {
      requestId: i.requestId,
      timestamp: i.timestamp as number,
      zone,
      method: i.method,
      status: i.status as number,
      contentEncoding: i.contentEncoding as string | null,
      fields: { host: f.host, path: f.path, contentType: f.contentType as string | null },
    },
    thresholds: { ...(t as Record<string, Confidence>) },
    overflowed: o.overflowed,
  };
}

export interface BodyPublisherStats {
  /** Bodies the stream took. */
  published: number;
  /** Bodies refused: the stream held its byte bound, or the body exceeds the server's max_payload. */
  refused: number;
  /** Bodies given up after every attempt failed (the server unreachable). */
  publishErrors: number;
}

/**
 * Publishes captured bodies to `bodies.<zone>` (`serve --scan remote|overflow`), `Nats-Msg-Id` = the
 * exchange's requestId, so a retried publish is stored once. A full stream (its `max_bytes`, discard
 * new) refuses at once, and the caller counts the body as not scanned, as a full backlog is counted.
 * @example
 * const bodies = new BodyPublisher(nc);
 * if (!(await bodies.publish(envelope, chunks))) cover('overBudget');
 */
export class BodyPublisher {
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #attempts: number;
  readonly #onError: (err: unknown) => void;
  readonly stats: BodyPublisherStats = { published: 0, refused: 0, publishErrors: 0 };

  constructor(nc: NatsConnection, options: { attempts?: number; onError?: (err: unknown) => void } = {}) {
    this.#nc = nc;
    this.#js = jetstream(nc);
    this.#attempts = options.attempts ?? 5;
    this.#onError = options.onError ?? (() => {});
  }

  /** Resolves true once the stream holds the body, false when it was refused or could not be sent. */
  async publish(env: BodyEnvelope, chunks: readonly Buffer[]): Promise<boolean> {
    const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const h = headers();
    h.set(kExchangeHeader, encodeEnvelope(env));
    // Headers and body together must fit the server's max_payload (raised to 4 MB in docs/fleet.md).
    const max = this.#nc.info?.max_payload ?? 1024 * 1024;
    if (data.length + Buffer.byteLength(encodeEnvelope(env)) + 256 > max) {
      this.stats.refused++;
      return false;
    }
    for (let i = 1; ; i++) {
      try {
        await this.#js.publish(bodiesSubject(env.info.zone), data, { msgID: env.info.requestId, headers: h, timeout: 5000 });
        this.stats.published++;
        return true;
      } catch (e) {
        // The stream's byte bound: JetStream API error 10077 ("maximum bytes exceeded"), final.
        if (/maximum (bytes|messages)|10077/i.test(`${(e as Error).message} ${(e as { code?: unknown }).code ?? ''} ${(e as { api_error?: { err_code?: number } }).api_error?.err_code ?? ''}`)) {
          this.stats.refused++;
          return false;
        }
        if (i >= this.#attempts) {
          this.stats.publishErrors++;
          this.#onError(e);
          return false;
        }
        await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** (i - 1), 2000)));
      }
    }
  }
}
