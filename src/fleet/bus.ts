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
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager, type StreamInfo } from '@nats-io/jetstream';
import { LeakscanError } from '../errors.js';
import { maskKnown } from '../redact/index.js';
import type { BusLogin } from './auth.js';

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

/** `url` as it may be printed: a `user:pass@` in it masked (such a URL is refused, never echoed). */
function printable(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//***@');
}

/**
 * The `--nats` URL checked: `nats://HOST:PORT`, or `tls://HOST:PORT` to require TLS; anything else, or
 * credentials in it (they go in --nats-user and LEAKSCAN_NATS_PASSWORD, or --nats-creds), is
 * SDD_ERR_FLEET_OPTION.
 */
export function parseNatsUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--nats ${JSON.stringify(printable(url))} is not a URL`);
  }
  if (u.protocol !== 'nats:' && u.protocol !== 'tls:') throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--nats ${JSON.stringify(printable(url))}: give nats://HOST:PORT or tls://HOST:PORT`);
  if (u.username !== '' || u.password !== '') throw new LeakscanError('SDD_ERR_FLEET_OPTION', '--nats: credentials go in --nats-user and LEAKSCAN_NATS_PASSWORD, LEAKSCAN_NATS_TOKEN or --nats-creds, not in the URL');
  return url;
}

/** Node's codes for a TLS handshake that failed on a certificate (ours or the server's). */
const kTlsCodes = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** True when the server refused the login, or TLS with it failed on a certificate. */
function refusedLogin(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) {
    if (c instanceof errors.AuthorizationError || c instanceof errors.UserAuthenticationExpiredError) return true;
    if (/authorization violation|authentication (?:timeout|expired)|tls.*(?:required|not available)|does not support 'tls'/i.test(c.message)) return true;
    const code = (c as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && kTlsCodes.test(code)) return true;
  }
  return false;
}

/**
 * Connects to the NATS server at `url` with `login` (credentials and TLS, src/fleet/auth.ts),
 * reconnecting for ever after a first success, so a restarted server is picked up again. A `tls://`
 * URL requires TLS. SDD_ERR_BUS_AUTH when the server refuses the login or the TLS handshake fails,
 * SDD_ERR_BUS_UNREACHABLE when it does not answer; no message carries the password or the token.
 * @example
 * const nc = await connectBus('nats://127.0.0.1:4222', 'leakscan-batcher');
 */
export async function connectBus(url: string, name: string, login: BusLogin = { options: {}, secrets: [] }): Promise<NatsConnection> {
  const servers = parseNatsUrl(url);
  const tls = login.options.tls ?? (new URL(url).protocol === 'tls:' ? {} : undefined);
  try {
    return await connect({ servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 250, ...login.options, ...(tls === undefined ? {} : { tls }) });
  } catch (e) {
    const detail = maskKnown(`${printable(url)}: ${(e as Error).message}${(e as Error).cause instanceof Error ? ` (${((e as Error).cause as Error).message})` : ''}`, login.secrets);
    throw new LeakscanError(refusedLogin(e) ? 'SDD_ERR_BUS_AUTH' : 'SDD_ERR_BUS_UNREACHABLE', detail);
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
