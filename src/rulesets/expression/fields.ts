import { parseIp, type IpValue } from './ip.js';

/** Value types of the Rules language, as Cloudflare names them in errors and docs. */
export type ValueType =
  | { readonly kind: 'Bytes' | 'Int' | 'Bool' | 'Ip' }
  | { readonly kind: 'Array' | 'Map'; readonly of: ValueType };

export const kBytes: ValueType = { kind: 'Bytes' };
export const kInt: ValueType = { kind: 'Int' };
export const kBool: ValueType = { kind: 'Bool' };
export const kIp: ValueType = { kind: 'Ip' };
export const arrayOf = (of: ValueType): ValueType => ({ kind: 'Array', of });
export const mapOf = (of: ValueType): ValueType => ({ kind: 'Map', of });

export function typeName(t: ValueType): string {
  return t.kind === 'Array' || t.kind === 'Map' ? `${t.kind}<${typeName(t.of)}>` : t.kind;
}

/** Header values in either the node:http shape or a fetch `Headers`. */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

/**
 * One request and its response, as the proxy (or any caller) sees it: what filter expressions are
 * evaluated on. Everything is optional except the URL, and a missing value simply fails comparisons.
 */
export interface Traffic {
  readonly request: {
    /** Absolute (`https://example.com/a?b`) or origin-form (`/a?b`, host then from the Host header). */
    readonly url: string;
    readonly method?: string;
    readonly headers?: HeaderValues;
    /** The client's address (`ip.src`). */
    readonly clientIp?: string;
    /** ISO 3166-1 alpha-2 country of the client (`ip.src.country`). */
    readonly country?: string;
    /** `HTTP/1.1`, `HTTP/2`… */
    readonly httpVersion?: string;
    /** Milliseconds since the epoch; default: now. */
    readonly timestamp?: number;
  };
  readonly response?: {
    readonly status?: number;
    readonly headers?: HeaderValues;
  };
}

function headerMap(h: HeaderValues | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (h === undefined) return out;
  const add = (k: string, v: string) => {
    const key = k.toLowerCase();
    const list = out.get(key);
    if (list === undefined) out.set(key, [v]);
    else list.push(v);
  };
  if (typeof (h as Headers).forEach === 'function' && typeof (h as Headers).get === 'function') {
    (h as Headers).forEach((v, k) => add(k, v));
    return out;
  }
  for (const [k, v] of Object.entries(h as Record<string, string | readonly string[] | undefined>)) {
    if (v === undefined) continue;
    if (typeof v === 'string') add(k, v);
    else for (const item of v) add(k, item);
  }
  return out;
}

interface UrlParts {
  scheme: string;
  host: string;
  path: string;
  query: string;
}

const kAbsolute = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?/;

function splitUrl(url: string, hostHeader: string | undefined): UrlParts {
  const m = kAbsolute.exec(url);
  let scheme = 'http';
  let authority = hostHeader ?? '';
  let rest = url;
  if (m !== null) {
    scheme = m[1]!.toLowerCase();
    authority = hostHeader ?? m[2]!;
    rest = `${m[3] ?? ''}${m[4] === undefined ? '' : `?${m[4]}`}`;
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const path = (q >= 0 ? rest.slice(0, q) : rest) || '/';
  const query = q >= 0 ? rest.slice(q + 1) : '';
  // Host without user info and port, lower-cased (IPv6 literals keep their brackets).
  let host = authority.slice(authority.lastIndexOf('@') + 1);
  const port = host.startsWith('[') ? host.indexOf(']:') + 1 : host.lastIndexOf(':');
  if (port > 0) host = host.slice(0, port);
  return { scheme, host: host.toLowerCase(), path, query };
}

function queryArgs(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (query === '') return out;
  for (const [k, v] of new URLSearchParams(query)) {
    const list = out.get(k);
    if (list === undefined) out.set(k, [v]);
    else list.push(v);
  }
  return out;
}

function cookies(header: readonly string[] | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of header ?? []) {
    for (const pair of line.split(';')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const k = pair.slice(0, eq).trim();
      const v = pair.slice(eq + 1).trim();
      const list = out.get(k);
      if (list === undefined) out.set(k, [v]);
      else list.push(v);
    }
  }
  return out;
}

/** Everything derived from one `Traffic`, computed on first use and kept for the request. */
export class TrafficView {
  readonly traffic: Traffic;
  /** Field values already computed for this request, shared by every expression evaluated on it. */
  readonly memo: Map<string, unknown> = new Map();
  #url: UrlParts | undefined;
  #reqHeaders: Map<string, string[]> | undefined;
  #resHeaders: Map<string, string[]> | undefined;
  #ip: IpValue | null | undefined;
  constructor(traffic: Traffic) {
    this.traffic = traffic;
  }
  get reqHeaders(): Map<string, string[]> {
    return (this.#reqHeaders ??= headerMap(this.traffic.request.headers));
  }
  get resHeaders(): Map<string, string[]> {
    return (this.#resHeaders ??= headerMap(this.traffic.response?.headers));
  }
  get url(): UrlParts {
    return (this.#url ??= splitUrl(this.traffic.request.url, this.reqHeaders.get('host')?.[0]));
  }
  header(name: string): string {
    return (this.reqHeaders.get(name) ?? []).join(', ');
  }
  get ip(): IpValue | undefined {
    if (this.#ip === undefined) this.#ip = this.traffic.request.clientIp === undefined ? null : parseIp(this.traffic.request.clientIp);
    return this.#ip ?? undefined;
  }
  get uri(): string {
    return this.url.query === '' ? this.url.path : `${this.url.path}?${this.url.query}`;
  }
}

export interface FieldDef {
  readonly type: ValueType;
  readonly get: (v: TrafficView) => unknown;
}

const values = (m: Map<string, string[]>) => [...m.values()].flat();

function extension(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot >= 0 ? last.slice(dot + 1).toLowerCase() : '';
}

function mediaType(v: TrafficView): string {
  const ct = v.resHeaders.get('content-type')?.[0] ?? '';
  return ct.split(';')[0]!.trim().toLowerCase();
}

const kFieldList: [string, FieldDef][] = [
  ['http.host', { type: kBytes, get: (v) => v.url.host }],
  ['http.cookie', { type: kBytes, get: (v) => v.header('cookie') }],
  ['http.referer', { type: kBytes, get: (v) => v.header('referer') }],
  ['http.user_agent', { type: kBytes, get: (v) => v.header('user-agent') }],
  ['http.x_forwarded_for', { type: kBytes, get: (v) => v.header('x-forwarded-for') }],
  ['http.request.method', { type: kBytes, get: (v) => (v.traffic.request.method ?? 'GET').toUpperCase() }],
  ['http.request.full_uri', { type: kBytes, get: (v) => `${v.url.scheme}://${v.url.host}${v.uri}` }],
  ['http.request.uri', { type: kBytes, get: (v) => v.uri }],
  ['http.request.uri.path', { type: kBytes, get: (v) => v.url.path }],
  ['http.request.uri.path.extension', { type: kBytes, get: (v) => extension(v.url.path) }],
  ['http.request.uri.query', { type: kBytes, get: (v) => v.url.query }],
  ['http.request.uri.args', { type: mapOf(arrayOf(kBytes)), get: (v) => queryArgs(v.url.query) }],
  ['http.request.uri.args.names', { type: arrayOf(kBytes), get: (v) => [...queryArgs(v.url.query).keys()] }],
  ['http.request.uri.args.values', { type: arrayOf(kBytes), get: (v) => values(queryArgs(v.url.query)) }],
  ['http.request.version', { type: kBytes, get: (v) => v.traffic.request.httpVersion ?? 'HTTP/1.1' }],
  ['http.request.timestamp.sec', { type: kInt, get: (v) => Math.floor((v.traffic.request.timestamp ?? Date.now()) / 1000) }],
  ['http.request.timestamp.msec', { type: kInt, get: (v) => (v.traffic.request.timestamp ?? Date.now()) % 1000 }],
  ['http.request.headers', { type: mapOf(arrayOf(kBytes)), get: (v) => v.reqHeaders }],
  ['http.request.headers.names', { type: arrayOf(kBytes), get: (v) => [...v.reqHeaders.keys()] }],
  ['http.request.headers.values', { type: arrayOf(kBytes), get: (v) => values(v.reqHeaders) }],
  ['http.request.cookies', { type: mapOf(arrayOf(kBytes)), get: (v) => cookies(v.reqHeaders.get('cookie')) }],
  ['ip.src', { type: kIp, get: (v) => v.ip }],
  ['ip.src.country', { type: kBytes, get: (v) => (v.traffic.request.country ?? '').toUpperCase() }],
  ['ssl', { type: kBool, get: (v) => v.url.scheme === 'https' }],
  ['http.response.code', { type: kInt, get: (v) => v.traffic.response?.status }],
  ['http.response.content_type.media_type', { type: kBytes, get: mediaType }],
  ['http.response.headers', { type: mapOf(arrayOf(kBytes)), get: (v) => v.resHeaders }],
  ['http.response.headers.names', { type: arrayOf(kBytes), get: (v) => [...v.resHeaders.keys()] }],
  ['http.response.headers.values', { type: arrayOf(kBytes), get: (v) => values(v.resHeaders) }],
];

// leakscan does not normalise URLs, so the `raw.` fields are the same values as their plain twins.
for (const name of ['http.request.full_uri', 'http.request.uri', 'http.request.uri.path', 'http.request.uri.query']) {
  const def = kFieldList.find(([n]) => n === name)![1];
  kFieldList.push([`raw.${name}`, def]);
}

/** The fields of the `http_response_firewall_managed` phase that expressions may use. */
export const kFields: ReadonlyMap<string, FieldDef> = new Map(kFieldList);
