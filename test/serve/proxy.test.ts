/**
 * The proxy in-process (startServe) against a local origin: scanning stays off the response path (a
 * scanner held back does not hold back responses, even a large streamed body), the backlog's bounds
 * and counters, broken origins and clients, and which findings become events.
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ensureTlsMaterial } from '../../src/audit/index.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScanner } from '../../src/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { keepsFinding, scannerOptionsFor, type EffectiveRules, type Overrides } from '../../src/rulesets/index.js';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { LocalScanner } from '../../src/scanner.js';
import type { BodySource, BodyStream, ScanMeta, ScanReport, Scanner } from '../../src/types.js';
import { bodies, deploy, get, plant, readBatches, startOrigin, tempDir, type Origin } from './helpers.js';

const planted = plant();
const routes = bodies(planted);
let origin: Origin;

/** The real in-thread scanner behind a gate: nothing is scanned until `open()`. */
class GatedScanner implements Scanner {
  readonly #real = new LocalScanner({ allRules: true });
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));
  started = 0;
  open(): void {
    this.#open();
  }
  async analyze(body: BodySource, meta?: ScanMeta): Promise<ScanReport> {
    this.started++;
    await this.#gate;
    return this.#real.analyze(body, meta);
  }
  async analyzeStream(body: BodyStream, meta?: ScanMeta): Promise<ScanReport> {
    await this.#gate;
    return this.#real.analyzeStream(body, meta);
  }
  async scan(body: BodySource, meta?: ScanMeta) {
    return (await this.analyze(body, meta)).findings;
  }
  async scanStream(body: BodyStream, meta?: ScanMeta) {
    return (await this.analyzeStream(body, meta)).findings;
  }
  async close(): Promise<void> {
    await this.#real.close();
  }
}

const host = 'shop.example';

async function start(dataDir: string, scanner: Scanner, extra: Partial<Parameters<typeof startServe>[0]> = {}): Promise<ServeHandle> {
  const svc = await startServe({
    dataDir,
    port: 0,
    auditPort: 0,
    proxyPort: 0,
    origin: origin.url,
    createScanner: async () => scanner,
    batch: { intervalMs: 20 },
    onError: () => {},
    ...extra,
  });
  return svc;
}

beforeAll(async () => {
  origin = await startOrigin(routes, planted);
});
const dirs: Array<{ remove(): void }> = [];
afterAll(async () => {
  await origin?.close();
  for (const d of dirs) d.remove();
});
/** A temporary directory removed after the file's tests, whatever their outcome. */
function temp(prefix: string): { dir: string } {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

describe('proxy', () => {
  it('returns responses in full while the scanner has not scanned anything, then records their events', async () => {
    const d = temp('leakscan-proxy-');
    const scanner = new GatedScanner();
    const svc = await start(d.dir, scanner, { zones: { hosts: { [host]: '0123456789abcdef0123456789abcdef' } } });
    try {
      await deploy(svc.api.url, svc.admin.token, '0123456789abcdef0123456789abcdef');
      const small = await get(`${svc.proxy!.url}/api/user.json`, host);
      expect(small.body.equals(routes['/api/user.json']!.body)).toBe(true);
      // 16 MiB streamed through while no scan may finish: the tap keeps only the first 1 MiB.
      const big = await get(`${svc.proxy!.url}/big?mb=16`, host);
      expect(big.status).toBe(200);
      expect(big.body.length).toBe(`card ${planted.card}\n`.length + 16 * 1024 * 1024);
      const head = `card ${planted.card}\n`;
      expect(big.body.subarray(0, head.length).toString()).toBe(head);
      expect(big.body.subarray(head.length).every((b, i) => b === 'lorem ipsum dolor sit amet '.charCodeAt(i % 1024 % 27))).toBe(true);
      // Both bodies reach the scanner (after the zone's rules are read), and nothing comes back.
      await vi.waitFor(() => expect(scanner.started).toBe(2), { timeout: 10_000 });
      const held = svc.stats();
      expect(held.events.eventsAccepted).toBe(0);
      expect(held.backlog!.scanning + held.backlog!.waiting).toBe(2);
      expect(held.backlog!.bytesHeld).toBeLessThanOrEqual(routes['/api/user.json']!.body.length + 1024 * 1024);

      scanner.open();
      await svc.flush();
      const s = svc.stats();
      expect(s.backlog!.bodiesScanned).toBe(2);
      expect(s.backlog!.bytesHeld).toBe(0);
      expect(s.events.eventsWritten).toBeGreaterThanOrEqual(2);
      expect(s.events.epochsPublished).toBe(s.events.batchesWritten);
    } finally {
      scanner.open();
      await svc.close();
    }
    const events = [...(await readBatches(d.dir)).values()].flatMap((b) => b.events);
    expect(events.filter((e) => e.path === '/big' && e.ruleId.startsWith('card-')).map((e) => e.start)).toEqual([5]);
    expect(events.some((e) => e.path === '/api/user.json' && e.ruleId.startsWith('card-'))).toBe(true);
  });

  it('bounds the backlog: bodies beyond its memory or queue are skipped or dropped, and counted', async () => {
    const d = temp('leakscan-proxy-bound-');
    const scanner = new GatedScanner();
    const zone = '11111111111111111111111111111111';
    const svc = await start(d.dir, scanner, { zones: { defaultZone: zone }, backlog: { maxBytes: 256 * 1024, maxJobs: 1, concurrency: 1 } });
    try {
      await deploy(svc.api.url, svc.admin.token, zone);
      const json = routes['/api/user.json']!.body;
      for (let i = 0; i < 4; i++) expect((await get(`${svc.proxy!.url}/api/user.json`, host)).body.equals(json)).toBe(true);
      const big = await get(`${svc.proxy!.url}/big?mb=1`, host);
      expect(big.body.length).toBe(`card ${planted.card}\n`.length + 1024 * 1024);
      await vi.waitFor(() => expect(svc.stats().backlog!.bodiesDropped).toBe(2), { timeout: 10_000 });
      const s = svc.stats().backlog!;
      // One scanning, one waiting, two refused by the queue, the 1 MiB body refused by the budget.
      expect(s.scanning).toBe(1);
      expect(s.waiting).toBe(1);
      expect(s.bodiesDropped).toBe(2);
      expect(s.bodiesSkipped).toBe(1);
      expect(s.bytesHeld).toBeLessThanOrEqual(256 * 1024);
      scanner.open();
      await svc.flush();
      expect(svc.stats().backlog!.bodiesScanned).toBe(2);
    } finally {
      scanner.open();
      await svc.close();
    }
  });

  it('survives a broken origin and broken clients', async () => {
    const d = temp('leakscan-proxy-broken-');
    const scanner = new GatedScanner();
    scanner.open();
    const svc = await start(d.dir, scanner);
    try {
      // The origin drops the connection mid-body: the client's response is cut, not completed.
      await expect(get(`${svc.proxy!.url}/cut`, host)).rejects.toThrow();
      // A client that goes away in the middle of a large body.
      await new Promise<void>((resolve) => {
        const req = request(`${svc.proxy!.url}/big?mb=64`, { agent: false }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.end();
      });
      // Bodies go to the origin, the origin sees its own Host and the client's in X-Forwarded-Host.
      const echo = await get(`${svc.proxy!.url}/echo`, host, { method: 'POST', body: Buffer.from('payload ✓') });
      expect(echo.body.toString()).toBe('payload ✓');
      expect(echo.headers['x-seen-host']).toBe(new URL(origin.url).host);
      expect(echo.headers['x-forwarded-host-seen']).toBe(host);
      expect(svc.stats().proxy!.originErrors).toBeGreaterThanOrEqual(1);
    } finally {
      await svc.close();
    }
    // An origin that is not there: 502, and the service still answers.
    const dead = await startServe({ dataDir: d.dir, port: 0, auditPort: 0, proxyPort: 0, origin: 'http://127.0.0.1:1', createScanner: async () => scanner, onError: () => {} });
    try {
      const r = await get(`${dead.proxy!.url}/x`, host);
      expect(r.status).toBe(502);
      expect(r.body.toString()).toMatch(/^leakscan: the origin could not be reached/);
      expect((await get(`${dead.proxy!.url}/y`, host)).status).toBe(502);
    } finally {
      await dead.close();
    }
  });

  it('sends a bodiless GET again when the origin resets a reused keep-alive connection, never a POST', async () => {
    // An origin that serves one request per connection and resets the connection on the next one: the
    // race of its keep-alive timeout against a reused connection, made certain.
    const seen = new WeakMap<object, number>();
    const flaky = createServer((req, res) => {
      const n = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, n);
      if (n > 1) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${req.method}`));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const d = temp('leakscan-proxy-retry-');
    const scanner = new GatedScanner();
    scanner.open();
    const svc = await start(d.dir, scanner, { origin: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}` });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await get(`${svc.proxy!.url}/x${i}`, host);
        expect(r.status, `GET ${i}`).toBe(200);
        expect(r.body.toString()).toBe('ok GET');
      }
      expect(svc.stats().proxy!.originRetries).toBe(4);
      // A request with a body is not sent twice: the reset reaches the client as 502.
      const post = await get(`${svc.proxy!.url}/p`, host, { method: 'POST', body: Buffer.from('x') });
      expect(post.status).toBe(502);
      expect(svc.stats().proxy!.originErrors).toBe(1);
    } finally {
      await svc.close();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  });

  it('forwards to an https origin trusted through a given CA', async () => {
    const d = temp('leakscan-proxy-tls-');
    const tls = (await ensureTlsMaterial(join(d.dir, 'origin'))).paths;
    const body = routes['/config.json.gz']!;
    const server = createHttpsServer({ key: readFileSync(tls.serverKey), cert: readFileSync(tls.server) }, (_req, res) => {
      res.writeHead(200, { ...body.headers, 'content-length': body.body.length }).end(body.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const scanner = new GatedScanner();
    scanner.open();
    const svc = await start(d.dir, scanner, { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, originCa: readFileSync(tls.ca) });
    try {
      const r = await get(`${svc.proxy!.url}/config.json.gz`, host);
      expect(r.status).toBe(200);
      expect(r.body.equals(body.body)).toBe(true);
    } finally {
      await svc.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('keeps only the findings of the zone\'s effective rules at their thresholds, as a scanner built for those rules finds them', async () => {
    // A bare NHS number (no label): reported at medium by a rule with context.without, if any.
    const body = Buffer.from(JSON.stringify({ email: 'jane.doe@example.org', card: planted.card, key: planted.awsKeyId, ssn: '536-22-8726', ref: '6871775781', nhsNumber: '6671150664' }));
    const overrides: Overrides = {
      categories: [{ category: 'financial-information', enabled: false }],
      rules: [{ id: 'email-address', enabled: true }, { id: 'uk-nhs', sensitivity_level: 'medium' }],
    };
    const d = temp('leakscan-proxy-rules-');
    const zone = '22222222222222222222222222222222';
    const svc = await startServe({ dataDir: d.dir, port: 0, auditPort: 0, proxyPort: 0 });
    let rules: EffectiveRules;
    try {
      await svc.rulesets.createRuleset(zone, {
        name: 'default', kind: 'zone', phase: 'http_response_firewall_managed',
        rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'e22d83c647c64a3eae91b71b499d988e', overrides } }],
      });
      rules = await svc.rulesets.effectiveRules(zone, { request: { url: '/' }, response: { status: 200 } });
    } finally {
      await svc.close();
    }
    const { ruleIds } = rules;
    expect(ruleIds).toContain('email-address');
    expect(ruleIds.some((id) => id.startsWith('card-'))).toBe(false);
    expect(rules.thresholds['uk-nhs']).toBe('medium');
    // As the service's pool: every rule at the lowest level, then the zone's rules and thresholds.
    const all = await createScanner({ allRules: true, minConfidence: 'low', workers: 0 });
    const own = await createScanner({ ...scannerOptionsFor(ruleIds, rules), workers: 0 });
    const filtered = (await all.scan(body, { contentType: 'application/json' })).filter((f) => keepsFinding(rules, f));
    const direct = (await own.scan(body, { contentType: 'application/json' })).filter((f) => keepsFinding(rules, f));
    expect(filtered).toEqual(direct);
    expect(direct.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['email-address', 'aws-access-key-id', 'uk-nhs']));
    expect(direct.find((f) => f.ruleId === 'uk-nhs' && f.confidence === 'high')).toBeDefined();
    // The bare number is kept at the rule's medium threshold when the rule reports it at all.
    const bare = allRuleDefs.find((r) => r.id === 'uk-nhs')?.context?.without === 'medium';
    expect(direct.some((f) => f.ruleId === 'uk-nhs' && f.confidence === 'medium')).toBe(bare);
    await all.close();
    await own.close();
  });
});
