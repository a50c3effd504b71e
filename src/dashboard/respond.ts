/**
 * How the dashboard answers: every response carries the same security headers (a strict
 * Content-Security-Policy: no script, styles from the dashboard's own stylesheet) and no-store.
 */
import type { ServerResponse } from 'node:http';
import type { Html } from './html.js';

export const kSecurityHeaders = {
  'content-security-policy': "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function send(res: ServerResponse, status: number, body: string, type: string, cache = 'no-store'): void {
  res.writeHead(status, { ...kSecurityHeaders, 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': cache }).end(body);
}

export function page(res: ServerResponse, status: number, body: Html): void {
  send(res, status, body.text, 'text/html; charset=utf-8');
}

export function redirect(res: ServerResponse, to: string): void {
  res.writeHead(303, { ...kSecurityHeaders, location: to, 'cache-control': 'no-store', 'content-length': 0 }).end();
}

export function notAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { ...kSecurityHeaders, allow, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`method not allowed; use ${allow}\n`);
}
