/**
 * The first promise, end to end: values planted everywhere a client or an origin can put them (a body,
 * the path as sent and percent-encoded, the Host header, the query string, a request header) appear
 * nowhere raw afterwards: not in any byte under the data directory (LMDB pages and blob files), not in
 * the service's stdout or stderr, not in any answer of the API, the audit log or the dashboard (its
 * pages, its NDJSON and CSV exports, Security › Events and an event's proof). Each is searched in its plain, spaced, percent-encoded and
 * lower-case forms, after checking that the exchanges did produce events (a search of nothing proves
 * nothing).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../dashboard/helpers.js';
import { syntheticAwsKeyId, syntheticCard, syntheticStripeKey } from '../cli/helpers.js';
import { deploy, readBatches, spawnServe, tempDir, type ServeProcess } from './helpers.js';

const zone = 'c'.repeat(32);
const data = tempDir('leakscan-noraw-');
const spaced = (v: string): string => v.replace(/(.{4})(?=.)/g, '$1 ');

const planted = {
  body: syntheticCard(),
  pathKey: syntheticAwsKeyId(),
  pathCard: syntheticCard(),
  encodedCard: syntheticCard(),
  plusCard: syntheticCard(),
  hostCard: syntheticCard(),
  hostKey: syntheticAwsKeyId(),
  badHostCard: syntheticCard(),
  query: syntheticStripeKey(),
  header: syntheticStripeKey(),
};

/** Every form a raw value could be read back in (compared in lower case). */
function forms(value: string): string[] {
  const s = spaced(value);
  return [...new Set([value, s, encodeURIComponent(s), s.replace(/ /g, '+'), s.replace(/ /g, '-')].map((f) => f.toLowerCase()))];
}

/** [where, text] pairs searched at the end: every file, every answer, the process's output. */
const seen: Array<[string, string]> = [];

function expectNoRawValue(where: string, text: string): void {
  const lower = text.toLowerCase();
  for (const [name, value] of Object.entries(planted)) {
    for (const f of forms(value)) expect(lower.includes(f), `${name} (${f}) found in ${where}`).toBe(false);
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

let origin: Server;
let svc: ServeProcess | undefined;

/** An origin that answers every path with a JSON body holding a card, so every exchange has findings. */
async function startOrigin(): Promise<string> {
  origin = createServer((req, res) => {
    req.resume();
    const body = JSON.stringify({ customer: { name: 'Jane', card: planted.body }, at: req.method });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
}

/** A request through the proxy with the target and headers exactly as given (no URL normalisation). */
function send(proxy: string, target: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const u = new URL(proxy);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: target, headers, agent: false, setHost: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An HTTPS GET of the audit log, trusting its own CA. */
function auditGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(u, { ca: readFileSync(join(data.dir, 'tls', 'ca.pem')) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const url = await startOrigin();
  svc = await spawnServe(['--data', data.dir, '--origin', url, '--zone', zone, '--workers', '1', '--batch-interval', '50']);
});
afterAll(async () => {
  if (svc && svc.child.exitCode === null) await svc.stop('SIGKILL');
  await new Promise<void>((resolve) => origin?.close(() => resolve()));
  data.remove();
});

describe('no raw value anywhere', () => {
  it('stores, prints and serves only masked values of every planted value', async () => {
    const admin = readFileSync(join(data.dir, 'admin-token'), 'utf8').trim();
    await deploy(svc!.api, admin, zone);
    const proxy = svc!.proxy!;

    // Exchanges that are served, each leading to events.
    const served: Array<[string, Record<string, string>]> = [
      [`/acct/${planted.pathKey}/${planted.pathCard}?token=${planted.query}`, { host: 'shop.example', authorization: `Bearer ${planted.header}` }],
      [`/s/${encodeURIComponent(spaced(planted.encodedCard))}`, { host: 'shop.example', 'x-api-key': planted.header }],
      [`/p/${spaced(planted.plusCard).replace(/ /g, '+')}/view`, { host: 'shop.example' }],
      ['/h', { host: `${planted.hostCard}.shop.example` }],
      ['/k', { host: `${planted.hostKey}.shop.example:8080` }],
    ];
    for (const [target, headers] of served) {
      const r = await send(proxy, target, headers);
      expect(r.status, target).toBe(200);
      expect(r.body).toContain(planted.body); // the client gets the origin's response as it was
    }
    // A Host that is not a host name is refused (RFC 9112 §3.2), so it never becomes an event's host.
    const bad = await send(proxy, '/b', { host: `card ${spaced(planted.badHostCard)}` });
    expect(bad.status).toBe(400);

    // The dashboard lists the events once their batches are written.
    const b = new Browser(svc!.dashboard.replace(/\/$/, ''));
    expect((await b.signIn(admin)).status).toBe(303);
    const detections = `/zones/${zone}/sensitive-data/detections`;
    let page = '';
    for (let i = 0; i < 200 && !/(\/h<|\/k<)[\s\S]*(\/h<|\/k<)/.test(page); i++) {
      await new Promise((r) => setTimeout(r, 50));
      page = (await b.get(detections)).text;
    }
    for (const p of ['/acct/', '/s/', '/p/', '.shop.example/h', '.shop.example:8080/k']) expect(page, p).toContain(p);
    // …and its exports, the NDJSON and CSV downloads of the same events.
    for (const path of ['/', `/zones/${zone}/sensitive-data`, detections, `${detections}.ndjson`, `${detections}.csv`]) {
      const r = await b.get(path);
      expect(r.status, path).toBe(200);
      seen.push([`dashboard ${path}`, r.text]);
    }
    // Security › Events: the page (chart, list, alerts), its NDJSON export, and an event's proof page and JSON.
    const securityEvents = `/zones/${zone}/security/events`;
    const listed = await b.get(securityEvents);
    const proof = /<a class="proof" href="([^"]+)">/.exec(listed.text)?.[1];
    expect(proof, 'a proof link on Security › Events').toBeDefined();
    // The link carries the event's batch as a query (`…/proof?batch=N`); the JSON is `…/proof.json?batch=N`.
    const proofJson = proof!.replace(/\/proof(?=\?|$)/, '/proof.json');
    for (const path of [securityEvents, `${securityEvents}.ndjson`, proof!, proofJson]) {
      const r = await b.get(path);
      expect(r.status, path).toBe(200);
      seen.push([`dashboard ${path}`, r.text]);
    }

    // The Rulesets API's answers.
    const auth = { authorization: `Bearer ${admin}` };
    for (const path of [`/zones/${zone}/rulesets`, `/zones/${zone}/rulesets/phases/http_response_firewall_managed/entrypoint`, '/user/tokens/verify']) {
      const r = await fetch(`${svc!.api}${path}`, { headers: auth });
      expect(r.status, path).toBe(200);
      seen.push([`API ${path}`, await r.text()]);
    }
    // The audit log's public answers for the zone's namespace.
    for (const path of ['/info', '/namespaces', `/namespaces/events.${zone}`, `/namespaces/events.${zone}/audits/latest`, `/namespaces/events.${zone}/audits/1`]) {
      const r = await auditGet(svc!.audit, path);
      expect(r.status, path).toBe(200);
      seen.push([`audit log ${path}`, r.body]);
    }

    expect(await svc!.stop('SIGTERM')).toBe(0);
    seen.push(['stdout', svc!.stdout()], ['stderr', svc!.stderr()]);

    // Events were written for every served exchange, with the request's values masked in place.
    const events = [...(await readBatches(data.dir)).values()].flatMap((x) => x.events);
    expect(events.length).toBeGreaterThanOrEqual(served.length);
    const paths = new Set(events.map((e) => e.path));
    expect(paths).toContain(`/acct/${'*'.repeat(16)}${planted.pathKey.slice(-4)}/${'*'.repeat(12)}${planted.pathCard.slice(-4)}`);
    expect(paths).toContain(`/s/${'*'.repeat(15)}${planted.encodedCard.slice(-4)}`);
    expect(paths).toContain(`/p/${'*'.repeat(15)}${planted.plusCard.slice(-4)}/view`);
    const hosts = new Set(events.map((e) => e.host));
    expect(hosts).toContain(`${'*'.repeat(12)}${planted.hostCard.slice(-4)}.shop.example`);
    expect(hosts).toContain(`${'*'.repeat(16)}${planted.hostKey.slice(-4).toLowerCase()}.shop.example:8080`);

    for (const file of filesUnder(data.dir)) seen.push([file, readFileSync(file).toString('latin1')]);
    expect(seen.some(([w]) => w.endsWith('.mdb'))).toBe(true);
    for (const [where, text] of seen) expectNoRawValue(where, text);
  });

  it('refuses a request with two Host headers (RFC 9112 §3.2)', async () => {
    const o = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => o.listen(0, '127.0.0.1', resolve));
    const dir = tempDir('leakscan-noraw2-');
    const s2 = await spawnServe(['--data', dir.dir, '--origin', `http://127.0.0.1:${(o.address() as AddressInfo).port}`, '--workers', '1']);
    try {
      // A raw socket: Node's client would not send a second Host.
      const u = new URL(s2.proxy!);
      const ask = (head: string): Promise<string> =>
        new Promise((resolve, reject) => {
          const sock = connect(Number(u.port), u.hostname, () => sock.write(`GET / HTTP/1.1\r\n${head}Connection: close\r\n\r\n`));
          let got = '';
          sock.on('data', (c: Buffer) => (got += c.toString('latin1')));
          sock.on('end', () => resolve(got));
          sock.on('error', reject);
        });
      const two = await ask('Host: shop.example\r\nHost: other.example\r\n');
      expect(two).toMatch(/^HTTP\/1\.1 400 /);
      expect(two).toContain('more than one Host header');
      expect(await ask('Host: shop.example\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await s2.stop('SIGTERM');
      await new Promise<void>((resolve) => o.close(() => resolve()));
      dir.remove();
    }
  });
});
