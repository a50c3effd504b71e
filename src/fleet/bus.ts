/**
 * The bus: a NATS server with JetStream, and the two streams the fleet roles share.
 *
 *   LEAKSCAN_EVENTS  subjects `events.<zone>`  limits retention; each message one event or one
 *                    response's outcome (messages.ts), `Nats-Msg-Id` its deterministic id, so a
 *                    publish retried within the duplicate window is stored once
 *   LEAKSCAN_BODIES  subjects `bodies.<zone>`  work-queue retention, byte-bounded (discard new):
 *                    captured bodies waiting for a scan-worker (`serve --scan remote|overflow`)
 *
 * Both are created by whichever role connects first, with the same settings, so the order in which
 * roles start does not matter. A stream is identified by its name and its creation time: a batcher
 * records both with the stream sequence a batch ends at, and a stream deleted and created again is
 * then read from its start rather than from a sequence that meant something else.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { LeakscanError } from '../errors.js';

export const kEventsStream = 'LEAKSCAN_EVENTS';
export const kBodiesStream = 'LEAKSCAN_BODIES';
/** The durable pull consumer every scan-worker shares (each body goes to one of them). */
export const kScanConsumer = 'scan-workers';

/** How long the events stream remembers a `Nats-Msg-Id` (a retried publish within it is dropped). */
export const kDuplicateWindowMs = 10 * 60_000;
/** How long events stay in the stream: far longer than batchers need to take them. */
export const kEventsMaxAgeMs = 7 * 24 * 3600_000;
/** Bytes of captured bodies the bodies stream holds before a publish is refused (the backlog's budget). */
export const kBodiesMaxBytesDefault = 256 * 1024 * 1024;

const ns = (ms: number): number => ms * 1_000_000;

export function eventsSubject(zone: string): string {
  return `events.${zone}`;
}

export function bodiesSubject(zone: string): string {
  return `bodies.${zone}`;
}

/** The zone of an `events.<zone>` or `bodies.<zone>` subject, or undefined. */
export function zoneOfSubject(subject: string): string | undefined {
  const m = /^(?:events|bodies)\.([0-9a-f]{32})$/.exec(subject);
  return m?.[1];
}

/** `name@created`: what a batch records with its stream sequence. */
export function streamIdentity(info: StreamInfo): string {
  return `${info.config.name}@${info.created}`;
}

/** The `--nats` URL checked: `nats://host:port` (or `tls://`); anything else is SDD_ERR_FLEET_OPTION. */
export function parseNatsUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--nats ${JSON.stringify(url)} is not a URL`);
  }
  if (u.protocol !== 'nats:' && u.protocol !== 'tls:') throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--nats ${JSON.stringify(url)}: give nats://HOST:PORT`);
  return url;
}

/**
 * Connects to the NATS server at `url` (reconnecting for ever after a first success, so a restarted
 * server is picked up again). SDD_ERR_BUS_UNREACHABLE when it does not answer.
 * @example
 * const nc = await connectBus('nats://127.0.0.1:4222', 'leakscan-batcher');
 */
export async function connectBus(url: string, name: string): Promise<NatsConnection> {
  try {
    return await connect({ servers: parseNatsUrl(url), name, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  } catch (e) {
    if (e instanceof LeakscanError) throw e;
    throw new LeakscanError('SDD_ERR_BUS_UNREACHABLE', `${url}: ${(e as Error).message}`, { cause: e });
  }
}

async function manager(nc: NatsConnection): Promise<JetStreamManager> {
  try {
    return await jetstreamManager(nc);
  } catch (e) {
    throw new LeakscanError('SDD_ERR_BUS_UNREACHABLE', `JetStream: ${(e as Error).message}`, { cause: e });
  }
}

/** Adds a stream unless it exists (then its info as it is: the first role to connect set it up). */
async function ensureStream(jsm: JetStreamManager, name: string, config: Parameters<JetStreamManager['streams']['add']>[0]): Promise<StreamInfo> {
  try {
    return await jsm.streams.info(name);
  } catch (e) {
    if (!/stream not found/i.test((e as Error).message)) throw e;
  }
  try {
    return await jsm.streams.add(config);
  } catch (e) {
    // Created meanwhile by another role.
    if (/already in use|name already/i.test((e as Error).message)) return jsm.streams.info(name);
    throw e;
  }
}

/** The events stream, created when missing. */
export async function ensureEventsStream(nc: NatsConnection): Promise<StreamInfo> {
  const jsm = await manager(nc);
  return ensureStream(jsm, kEventsStream, {
    name: kEventsStream,
    subjects: ['events.*'],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: ns(kDuplicateWindowMs),
    max_age: ns(kEventsMaxAgeMs),
  });
}

/** The bodies work queue, created when missing, holding at most `maxBytes` (new bodies refused past it). */
export async function ensureBodiesStream(nc: NatsConnection, maxBytes = kBodiesMaxBytesDefault): Promise<StreamInfo> {
  const jsm = await manager(nc);
  return ensureStream(jsm, kBodiesStream, {
    name: kBodiesStream,
    subjects: ['bodies.*'],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    discard: DiscardPolicy.New,
    max_bytes: maxBytes,
    duplicate_window: ns(kDuplicateWindowMs),
  });
}
