/**
 * Dashboard sign-ins. A session names the API token it was opened with by the token's id only (the
 * token itself is not kept), and every request looks the id up again in the token store: a token revoked
 * with `leakscan token revoke` ends its sessions at their next request, and a changed permission or
 * zone list applies at once. Sessions live in memory: a restart signs everyone out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenInfo, TokenStore } from '../api/index.js';

export const kSessionCookie = 'leakscan_session';
/** A session ends this long after sign-in. */
export const kSessionTtlMs = 12 * 60 * 60 * 1000;
/** Sessions kept at most; the oldest goes first. */
export const kMaxSessions = 1024;

interface Session {
  tokenId: string;
  csrf: string;
  expires: number;
}

export interface OpenSession {
  id: string;
  token: TokenInfo;
  /** Sent back by every form of the session (a page of another site cannot know it). */
  csrf: string;
}

export class Sessions {
  readonly #tokens: TokenStore;
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;

  constructor(tokens: TokenStore, now: () => number = Date.now) {
    this.#tokens = tokens;
    this.#now = now;
  }

  /** Opens a session for a valid token; undefined for an unknown or revoked one. */
  async open(token: string): Promise<OpenSession | undefined> {
    const info = await this.#tokens.verify(token);
    if (info === undefined) return undefined;
    while (this.#sessions.size >= kMaxSessions) this.#sessions.delete(this.#sessions.keys().next().value!);
    const id = randomBytes(32).toString('base64url');
    const csrf = randomBytes(24).toString('base64url');
    this.#sessions.set(id, { tokenId: info.id, csrf, expires: this.#now() + kSessionTtlMs });
    return { id, token: info, csrf };
  }

  /** The live session of a cookie value, its token as the store has it now. */
  async get(id: string | undefined): Promise<OpenSession | undefined> {
    if (id === undefined) return undefined;
    const s = this.#sessions.get(id);
    if (s === undefined) return undefined;
    if (s.expires <= this.#now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    const token = (await this.#tokens.list()).find((t) => t.id === s.tokenId);
    if (token === undefined) {
      this.#sessions.delete(id);
      return undefined;
    }
    return { id, token, csrf: s.csrf };
  }

  end(id: string): void {
    this.#sessions.delete(id);
  }

  get size(): number {
    return this.#sessions.size;
  }
}

/** Constant-time comparison of a form's CSRF value with the session's. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
