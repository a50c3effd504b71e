/**
 * A small client of the Rulesets API's v4 REST shape, as a script would call it (`fetch`, the
 * `Authorization: Bearer` header, the `{result, success, errors}` envelope). Failures become
 * LeakscanErrors with one of three codes, so the command can tell "nothing answers" from "the token
 * is refused" from "the API said no" (with the v4 codes it gave).
 */
import { LeakscanError } from '../../errors.js';

/** One `errors[]` entry of a v4 envelope. */
export interface V4Error {
  code: number;
  message: string;
}

interface Envelope {
  success: boolean;
  result: unknown;
  errors: V4Error[];
}

/** v4 codes that mean the token (or its absence) is the problem: 6003 bad header, 9106 missing, 10000 refused. */
const kAuthCodes = new Set([6003, 9106, 10000]);

/** How long one call may take: the API answers from memory, so a slow answer means something is wrong. */
const kTimeoutMs = 15_000;

/** A v4 refusal: the HTTP status and the envelope's errors. */
export class ApiRefusal {
  constructor(
    readonly status: number,
    readonly errors: readonly V4Error[],
  ) {}

  has(code: number): boolean {
    return this.errors.some((e) => e.code === code);
  }

  /** `HTTP 404, v4 10003: could not find …`, as the message of an error. */
  describe(): string {
    const list = this.errors.map((e) => `v4 ${e.code}: ${e.message}`).join('; ');
    return `HTTP ${this.status}${list === '' ? '' : `, ${list}`}`;
  }
}

/**
 * `--api URL` as the v4 base: `http://host:port` and `http://host:port/` gain `/client/v4`; a URL
 * that already names a path is kept (without a trailing slash).
 */
export function apiBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LeakscanError('SDD_ERR_INVALID_OPTION', `--api ${JSON.stringify(url)} is not a URL (expected e.g. http://127.0.0.1:8787/client/v4)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new LeakscanError('SDD_ERR_INVALID_OPTION', `--api ${JSON.stringify(url)}: only http:// and https:// URLs`);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path === '' ? '/client/v4' : path}`;
}

export class ApiClient {
  readonly base: string;
  readonly #token: string;

  constructor(base: string, token: string) {
    this.base = base;
    this.#token = token;
  }

  /**
   * One call; resolves with `result` on success, or with the refusal when `accept(refusal)` says the
   * caller handles it (A1's 404). Any other refusal throws: SDD_ERR_API_AUTH for the token's codes,
   * else SDD_ERR_API_REFUSED naming `what` and the v4 codes.
   */
  async call(method: string, path: string, what: string, body?: unknown, accept?: (r: ApiRefusal) => boolean): Promise<unknown> {
    const env = await this.#send(method, path, body);
    if (env instanceof ApiRefusal) {
      if (accept?.(env) === true) return env;
      if (env.errors.some((e) => kAuthCodes.has(e.code))) {
        throw new LeakscanError('SDD_ERR_API_AUTH', `${what}: ${env.describe()} (the token is not valid, or may not ${method === 'GET' ? 'read' : 'edit'} this zone)`);
      }
      throw new LeakscanError('SDD_ERR_API_REFUSED', `${what}: ${env.describe()}`);
    }
    return env.result;
  }

  async #send(method: string, path: string, body: unknown): Promise<Envelope | ApiRefusal> {
    const url = `${this.base}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.#token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(kTimeoutMs),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
      throw new LeakscanError('SDD_ERR_API_UNREACHABLE', `${method} ${url}: ${cause}`, { cause: e });
    }
    const text = await res.text();
    let env: Envelope | undefined;
    try {
      const v = JSON.parse(text) as Envelope;
      if (typeof v === 'object' && v !== null && typeof v.success === 'boolean' && Array.isArray(v.errors)) env = v;
    } catch {
      // not JSON: handled below
    }
    if (env === undefined) {
      throw new LeakscanError('SDD_ERR_API_UNREACHABLE', `${method} ${url}: HTTP ${res.status} without a v4 answer (is ${this.base} the Rulesets API, …/client/v4?)`);
    }
    if (!env.success || res.status >= 400) return new ApiRefusal(res.status, env.errors.map((e) => ({ code: Number(e.code), message: String(e.message) })));
    return env;
  }
}
