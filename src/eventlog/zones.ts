/**
 * Which zone a proxied request belongs to, from its Host header.
 *
 * A Cloudflare zone is a domain with a 32-hex-digit id. Here, in order:
 *  1. an explicit mapping `HOST=ZONE_ID` (`--zone`, repeatable); `*.example.com` matches every
 *     subdomain of example.com (not example.com itself), the longest matching suffix wins;
 *  2. a default zone id (`--zone ZONE_ID` alone): every other host;
 *  3. otherwise the host's own zone: the first 32 hex digits of SHA-256 of the lower-cased host name
 *     without its port (`printf %s shop.example | sha256sum | cut -c1-32`), so "zone = host" needs no
 *     configuration and the id is stable across restarts.
 */
import { createHash } from 'node:crypto';
import { ServeError } from './errors.js';

const kZoneId = /^[0-9a-f]{32}$/;
// Host names as they appear in a Host header: DNS labels, IPv4, or a bracketed IPv6 literal.
const kHostName = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]{0,252}))$/;

export interface ZoneMapping {
  /** Exact host names (`shop.example`) or wildcard suffixes (`*.example`) to zone ids. */
  hosts?: Readonly<Record<string, string>>;
  /** Zone of every host not in `hosts`; default: the host's derived zone id. */
  defaultZone?: string;
}

export function isZoneId(v: string): boolean {
  return kZoneId.test(v);
}

/** The host name of a Host header value: lower case, port and a trailing dot removed; '' when unusable. */
export function hostName(header: string | undefined): string {
  if (header === undefined) return '';
  let h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end < 0 ? '' : h.slice(0, end + 1);
  } else {
    const colon = h.indexOf(':');
    if (colon >= 0) h = h.slice(0, colon);
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  return kHostName.test(h) ? h : '';
}

/**
 * The derived zone id of a host: the first 32 hex digits of SHA-256 of its lower-cased name.
 * @example
 * zoneIdOfHost('shop.example'); // the same id `printf %s shop.example | sha256sum | cut -c1-32` prints
 */
export function zoneIdOfHost(host: string): string {
  return createHash('sha256').update(hostName(host) || host.toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * The zone a user names: a zone id as it is, or a host name's derived zone (as the proxy maps a host
 * without a `--zone` mapping); undefined when the value is neither. Used by `leakscan verify --zone`
 * and the dashboard's zone box.
 */
export function zoneOfIdOrHost(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  if (isZoneId(v)) return v;
  if (/^[a-z0-9_][a-z0-9_.:-]*$/.test(v) || /^\[[0-9a-f:.]+\]/.test(v)) return zoneIdOfHost(v);
  return undefined;
}

/** Parses `--zone` values: `ZONE_ID` (the default zone, at most one) or `HOST=ZONE_ID`. */
export function parseZoneArgs(values: readonly string[]): ZoneMapping {
  const hosts: Record<string, string> = {};
  let defaultZone: string | undefined;
  for (const v of values) {
    const eq = v.lastIndexOf('=');
    const id = (eq < 0 ? v : v.slice(eq + 1)).toLowerCase();
    if (!isZoneId(id)) throw new ServeError('SERVE_ERR_INVALID_OPTION', `--zone ${JSON.stringify(v)}: ${JSON.stringify(id)} is not a 32-character hexadecimal zone id`);
    if (eq < 0) {
      if (defaultZone !== undefined && defaultZone !== id) throw new ServeError('SERVE_ERR_INVALID_OPTION', 'more than one default --zone ID (give HOST=ID for the others)');
      defaultZone = id;
      continue;
    }
    const raw = v.slice(0, eq).trim().toLowerCase();
    const wildcard = raw.startsWith('*.');
    const name = hostName(wildcard ? raw.slice(2) : raw);
    if (name === '') throw new ServeError('SERVE_ERR_INVALID_OPTION', `--zone ${JSON.stringify(v)}: ${JSON.stringify(raw)} is not a host name`);
    hosts[wildcard ? `*.${name}` : name] = id;
  }
  return { hosts, ...(defaultZone === undefined ? {} : { defaultZone }) };
}

/** Resolves Host headers to zone ids (see the module comment for the order). */
export class ZoneResolver {
  readonly #exact = new Map<string, string>();
  /** Wildcard suffixes, longest first. */
  readonly #suffixes: Array<[suffix: string, zone: string]> = [];
  readonly #default: string | undefined;

  constructor(mapping: ZoneMapping = {}) {
    for (const [host, zone] of Object.entries(mapping.hosts ?? {})) {
      if (!isZoneId(zone)) throw new ServeError('SERVE_ERR_INVALID_OPTION', `zone of ${JSON.stringify(host)}: ${JSON.stringify(zone)} is not a 32-character hexadecimal zone id`);
      if (host.startsWith('*.')) this.#suffixes.push([host.slice(1), zone]);
      else this.#exact.set(hostName(host) || host, zone);
    }
    this.#suffixes.sort((a, b) => b[0].length - a[0].length);
    if (mapping.defaultZone !== undefined && !isZoneId(mapping.defaultZone)) {
      throw new ServeError('SERVE_ERR_INVALID_OPTION', `default zone ${JSON.stringify(mapping.defaultZone)} is not a 32-character hexadecimal zone id`);
    }
    this.#default = mapping.defaultZone;
  }

  /** The zone of a Host header value. */
  zoneOf(hostHeader: string | undefined): string {
    const host = hostName(hostHeader);
    const exact = this.#exact.get(host);
    if (exact !== undefined) return exact;
    for (const [suffix, zone] of this.#suffixes) if (host.endsWith(suffix)) return zone;
    return this.#default ?? zoneIdOfHost(host);
  }
}
