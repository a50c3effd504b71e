/**
 * The Rulesets API over HTTP (Cloudflare v4 compatible): `startApiServer` for the API alone,
 * `createApiHandler` to mount it beside other handlers (as `leakscan serve` does), and the token store.
 * @example
 * import { startApiServer } from './api/index.js';
 * const api = await startApiServer({ dataDir: '.leakscan' });
 * // new Cloudflare({ baseURL: api.url, apiToken: api.admin.token })
 */
export { startApiServer, openApi, type ApiServer, type ApiServerOptions } from './server.js';
export { createApiHandler, readBodyCapped, sendNoRoute, kApiPrefix, kMaxBodyBytes, type ApiDeps } from './handler.js';
export { TokenStore, ensureAdminToken, kTokenPattern, tokenAllows, type TokenInfo, type TokenPermission } from './tokens.js';
export { matchRoute, type GraphqlEndpoint, type LogpushEndpoint } from './routes.js';
export type { AlertingCall, AlertingEndpoint } from './routes.js';
