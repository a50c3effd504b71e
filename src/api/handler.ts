import type { IncomingMessage, ServerResponse } from 'node:http';
import { RulesetsApiError, type ApiErrorEntry, type RulesetService } from '../rulesets/index.js';
import { kTokenPattern, tokenAllows, type TokenInfo, type TokenStore } from './tokens.js';
import { matchRoute, type AlertingEndpoint, type GraphqlEndpoint, type LogpushEndpoint, type RouteContext } from './routes.js';
import { kCodes, LeakscanError } from '../errors.js';

/** Path prefix of the v4 API (`http://127.0.0.1:8787/client/v4`). */
export const kApiPrefix = '/client/v4';
/** Largest request body accepted; a ruleset of 1,000 rules with long expressions fits. */
export const kMaxBodyBytes = 4 * 1024 * 1024;

export interface ApiDeps {
  service: RulesetService;
  tokens: TokenStore;
  /** `POST /graphql` (the events query); without it that path is `7000 No route`. */
  graphql?: GraphqlEndpoint;
  /** `/zones/{zone}/logpush/jobs[/{id}]` (src/logpush); without it those paths are `7000 No route`. */
  logpush?: LogpushEndpoint;
  /** `/accounts/{account}/alerting/v3/…` (the Notifications API); without it those paths are `7000 No route`. */
  alerting?: AlertingEndpoint;
  /** Unexpected errors (bugs, disk failures): the client gets a 500 envelope; default prints to stderr. */
  onError?: (err: unknown) => void;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (status === 204) {
    res.writeHead(204).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) }).end(text);
}

function sendErrors(res: ServerResponse, status: number, errors: ApiErrorEntry[]): void {
  send(res, status, { result: null, success: false, errors, messages: [] });
}

function sendError(res: ServerResponse, err: RulesetsApiError, extra: ApiErrorEntry[] = []): void {
  sendErrors(res, err.status, [err.toEntry(), ...extra]);
}

/** The v4 404 (`7000 No route for that URI`) for a path no handler on the port serves. */
export function sendNoRoute(res: ServerResponse): void {
  sendError(res, new RulesetsApiError('NO_ROUTE'));
}

/** A request's body, or undefined as soon as it passes `maxBytes` (the rest is not read). Also the dashboard's forms. */
export async function readBodyCapped(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads the body, refusing more than `kMaxBodyBytes`; empty is undefined. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBodyCapped(req, kMaxBodyBytes);
  if (body === undefined) throw new RulesetsApiError('PAYLOAD_TOO_LARGE', `request body larger than ${kMaxBodyBytes} bytes`);
  const text = body.toString('utf8');
  if (text.trim() === '') throw new RulesetsApiError('INVALID_JSON', 'invalid JSON: the request body is empty');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new RulesetsApiError('INVALID_JSON', `invalid JSON: ${(err as Error).message}`);
  }
}

/** The token of a well-formed `Authorization: Bearer …` header, or the v4 error for the request. */
async function authenticate(req: IncomingMessage, tokens: TokenStore): Promise<TokenInfo | RulesetsApiError> {
  const header = req.headers.authorization;
  if (header === undefined) {
    // Legacy global API keys are not supported: a request carrying one is refused like a bad token.
    if (req.headers['x-auth-key'] !== undefined) return new RulesetsApiError('AUTHENTICATION');
    return new RulesetsApiError('MISSING_AUTH');
  }
  const m = /^Bearer ([^\s]+)$/.exec(header);
  if (m === null || !/^[A-Za-z0-9_.~+/-]+=*$/.test(m[1]!)) {
    return new RulesetsApiError('INVALID_HEADERS', undefined, { chain: [{ code: 6111, message: 'Invalid format for Authorization header' }] });
  }
  const token = m[1]!;
  const info = kTokenPattern.test(token) ? await tokens.verify(token) : undefined;
  return info ?? new RulesetsApiError('AUTHENTICATION');
}

/**
 * The v4 API as a request handler: answers every request under `/client/v4` and returns true;
 * returns false for any other path, so `leakscan serve` can hand those to the dashboard.
 */
export function createApiHandler(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const onError = deps.onError ?? ((err: unknown) => process.stderr.write(`leakscan api: ${(err as Error)?.stack ?? String(err)}\n`));
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== kApiPrefix && !url.pathname.startsWith(`${kApiPrefix}/`)) return false;
    try {
      const auth = await authenticate(req, deps.tokens);
      if (auth instanceof RulesetsApiError) {
        req.resume();
        sendError(res, auth);
        return true;
      }
      const path = url.pathname.slice(kApiPrefix.length);
      const route = matchRoute(req.method ?? 'GET', path);
      if ('error' in route) {
        req.resume();
        const noRoute = new RulesetsApiError('NO_ROUTE').toEntry();
        if (route.error === 'bad-id') sendError(res, new RulesetsApiError('BAD_IDENTIFIER', `Could not route to ${path}, perhaps your object identifier is invalid?`), [noRoute]);
        else if (route.error === 'method') sendError(res, new RulesetsApiError('METHOD_NOT_ALLOWED', `Method ${req.method ?? ''} not allowed for ${path}`));
        else sendError(res, new RulesetsApiError('NO_ROUTE'));
        return true;
      }
      const write = route.write;
      if (!tokenAllows(auth, route.params['zone'], write)) {
        req.resume();
        sendError(res, new RulesetsApiError('AUTHENTICATION'));
        return true;
      }
      const dryRunText = url.searchParams.get('dry_run');
      if (dryRunText !== null && dryRunText !== 'true' && dryRunText !== 'false') {
        req.resume();
        sendError(res, new RulesetsApiError('INVALID_DRY_RUN', `'${dryRunText}' is not a valid value for dry_run because it must be true or false`));
        return true;
      }
      const ctx: RouteContext = {
        service: deps.service,
        graphql: deps.graphql,
        logpush: deps.logpush,
        alerting: deps.alerting,
        params: route.params,
        query: url.searchParams,
        dryRun: dryRunText === 'true',
        token: auth,
        body: route.body ? await readJson(req) : (req.resume(), undefined),
      };
      const out = await route.handler(ctx);
      if (out.raw !== undefined) send(res, 200, out.raw);
      else if (out.status === 204) send(res, 204, undefined);
      else send(res, 200, { result: ctx.dryRun ? null : out.result, success: true, errors: [], messages: [], ...(out.resultInfo === undefined ? {} : { result_info: out.resultInfo }) });
    } catch (err) {
      if (err instanceof RulesetsApiError) {
        if (!res.headersSent) sendError(res, err);
      } else if (err instanceof LeakscanError && 'v4' in kCodes[err.code]) {
        // A capability's catalogued error with a v4 number (src/errors.ts): its message starts with the code.
        const entry = { code: (kCodes[err.code] as { v4: number }).v4, message: `${err.code}: ${err.message}` };
        if (!res.headersSent) sendErrors(res, err.status, [entry]);
      } else {
        onError(err);
        if (!res.headersSent) sendError(res, new RulesetsApiError('INTERNAL'));
      }
      // The body may be unread (a 413 stops mid-stream): close rather than read megabytes we refuse.
      if (!req.complete) res.once('finish', () => req.destroy());
    }
    return true;
  };
}
