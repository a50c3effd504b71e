import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiHandler, openApi, sendNoRoute, type TokenStore } from '../../src/api/index.js';
import { createDashboardHandler, type DashboardDeps } from '../../src/dashboard/index.js';
import type { RulesetService } from '../../src/rulesets/index.js';
import { tempDir } from '../serve/helpers.js';

/** The API and the dashboard on one free port, as `leakscan serve` mounts them, over a fresh data directory. */
export interface Dash {
  base: string;
  admin: string;
  service: RulesetService;
  tokens: TokenStore;
  errors: unknown[];
  close(): Promise<void>;
}

export async function startDash(options: Pick<DashboardDeps, 'detections' | 'zones' | 'events'> = {}): Promise<Dash> {
  const data = tempDir('leakscan-dash-');
  const { service, tokens, admin } = await openApi(data.dir);
  const errors: unknown[] = [];
  const onError = (e: unknown): void => void errors.push(e);
  const handlers = [createApiHandler({ service, tokens, onError }), createDashboardHandler({ service, tokens, onError, ...options })];
  const server: Server = createServer((req, res) => {
    void (async () => {
      for (const h of handlers) if (await h(req, res)) return;
      req.resume();
      sendNoRoute(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    admin: admin.token,
    service,
    tokens,
    errors,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await tokens.close();
      data.remove();
    },
  };
}

export interface Page {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

/** A browser of one: keeps the session cookie, follows nothing by itself, reads each form's token. */
export class Browser {
  cookie = '';
  constructor(readonly base: string) {}

  async get(path: string): Promise<Page> {
    return this.#do(path, { method: 'GET' });
  }

  async post(path: string, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}): Promise<Page> {
    const body = fields instanceof URLSearchParams ? fields : new URLSearchParams(fields);
    return this.#do(path, { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
  }

  async #do(path: string, init: RequestInit): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookie !== '') headers.set('cookie', this.cookie);
    const r = await fetch(`${this.base}${path}`, { ...init, headers, redirect: 'manual' });
    const set = r.headers.get('set-cookie');
    if (set !== null) {
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    return { status: r.status, location: r.headers.get('location'), headers: r.headers, text: await r.text() };
  }

  async signIn(token: string): Promise<Page> {
    return this.post('/session', { token });
  }
}

/** The value of hidden field `name` in a page (every form of a page carries the same). */
export function hiddenField(text: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(text);
  if (m === null) throw new Error(`no hidden field ${name} on the page`);
  return m[1]!;
}
