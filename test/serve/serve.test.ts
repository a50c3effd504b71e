/**
 * `leakscan serve` and `leakscan verify` as real processes on free ports, with a local origin whose
 * bodies (JSON, HTML, gzip) carry synthetic secrets: first start, proxying, events, epochs, verify,
 * restart, crash repair, tampering, and the bucket lock.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchDigest, batchKey, zoneIdOfHost, type LogEvent } from '../../src/eventlog/index.js';
import { openBucket } from '../../src/storage/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, readBatches, spawnServe, startOrigin, tempDir, type Origin, type OriginBody, type ServeProcess } from './helpers.js';

const planted = plant();
const routes = bodies(planted);
const data = tempDir('leakscan-serve-');
const host = 'shop.example';
const zone = zoneIdOfHost(host);
let origin: Origin;
let svc: ServeProcess | undefined;
const serveArgs = (): string[] => ['--data', data.dir, '--origin', origin.url, '--workers', '1', '--batch-interval', '50'];

beforeAll(async () => {
  origin = await startOrigin(routes, planted);
});
afterAll(async () => {
  if (svc && svc.child.exitCode === null) await svc.stop('SIGKILL');
  await origin?.close();
  data.remove();
});

/** Each planted value and the route whose body holds it. */
const expected: Array<{ path: string; value: string; rule: RegExp }> = [
  { path: '/api/user.json', value: planted.card, rule: /^card-/ },
  { path: '/settings.html', value: planted.awsKeyId, rule: /^aws-access-key-id$/ },
  { path: '/config.json.gz', value: planted.stripeKey, rule: /^stripe/ },
];

async function verify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(['verify', '--data', data.dir, ...args]);
}

describe('leakscan serve', () => {
  it('on first start creates the admin token (its value printed on a terminal only), TLS material and signing key, then ready', async () => {
    svc = await spawnServe(serveArgs());
    const token = readFileSync(join(data.dir, 'admin-token'), 'utf8').trim();
    // Not a terminal: the line names the file and never holds the value.
    expect(svc.lines).toContain(`admin token: saved in ${join(data.dir, 'admin-token')} (the value is shown on a terminal only)`);
    expect(svc.lines.join('\n')).not.toContain(token);
    expect(svc.lines.find((l) => l.startsWith('engine: '))).toMatch(/^engine: prefilter (native|typescript), regex (re2 \(system [^)]+\)|re2-wasm)/);
    for (const f of ['tls/ca.pem', 'tls/client.pem', 'tls/client-key.pem', 'audit/signing-key.pem']) {
      expect(existsSync(join(data.dir, f)), f).toBe(true);
      expect(svc.lines).toContain(`created ${join(data.dir, f)}`);
    }
    expect(svc.lines.at(-1)).toBe('ready');
    expect(svc.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    // The dashboard shares the API's port (test/dashboard has its own suite).
    expect(svc.dashboard).toBe(`${new URL(svc.api).origin}/`);
    const dash = await fetch(svc.dashboard);
    expect(dash.status).toBe(200);
    expect(dash.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await dash.text()).toContain('name="token"');
    expect(svc.audit).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(svc.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('forwards requests and returns the origin responses byte for byte', async () => {
    await deploy(svc!.api, readFileSync(join(data.dir, 'admin-token'), 'utf8').trim(), zone);
    for (const [path, r] of Object.entries(routes) as Array<[string, OriginBody]>) {
      const via = await get(`${svc!.proxy}${path}?session=abc`, host);
      const direct = await get(`${origin.url}${path}`, host);
      expect(via.status).toBe(200);
      expect(via.body.equals(r.body), path).toBe(true);
      expect(via.body.equals(direct.body)).toBe(true);
      expect(via.headers['content-type']).toBe(r.headers['content-type']);
      expect(via.headers['content-encoding']).toBe(r.headers['content-encoding']);
    }
    // A host whose zone has no ruleset is forwarded the same and produces no events.
    const other = await get(`${svc!.proxy}/api/user.json`, 'other.example');
    expect(other.body.equals(routes['/api/user.json']!.body)).toBe(true);
    const missing = await get(`${svc!.proxy}/nope`, host);
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('no such page\n');
  });

  it('verify refuses to open the directory while serve holds it', async () => {
    const r = await verify();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SERVE_ERR_DATA_LOCKED');
    expect(r.stderr).toContain('stop `leakscan serve` first');
    // A second service on the same directory is refused the same way, before it listens.
    const second = await runCli(['serve', '--data', data.dir, '--port', '0', '--audit-port', '0']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('SERVE_ERR_DATA_LOCKED');
    expect(second.stdout).not.toContain('ready');
  });

  it('drains on SIGTERM: every accepted event is written and its batch published', async () => {
    const code = await svc!.stop('SIGTERM');
    expect(code, svc!.stderr()).toBe(0);
    expect(svc!.stderr()).toMatch(/stopped: \d+ events in \d+ batches written, \d+ epochs published/);

    const batches = await readBatches(data.dir);
    const events = [...batches.values()].flatMap((b) => b.events);
    expect(new Set(events.map((e) => e.zone))).toEqual(new Set([zone]));
    for (const { path, value, rule } of expected) {
      const e = events.find((x) => x.path === path && rule.test(x.ruleId));
      expect(e, `${path} ${rule}`).toBeDefined();
      // Offsets point at the value in the decoded body; the stored value is redacted.
      expect(routes[path]!.decoded.subarray(e!.start, e!.end).toString('utf8')).toBe(value);
      expect(e!.redacted).not.toBe(value);
      expect(e!.redacted).toMatch(/\*{4,}/);
      expect(e).toMatchObject({ host, method: 'GET', status: 200, action: 'log', zone, contentType: routes[path]!.headers['content-type'] });
      expect(e!.requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(Number.isNaN(Date.parse(e!.timestamp))).toBe(false);
    }
    // No raw value and no query string anywhere in what was stored.
    for (const [key, b] of batches) {
      const text = b.bytes.toString('utf8');
      for (const v of Object.values(planted)) expect(text.includes(v), key).toBe(false);
      expect(text).not.toContain('session=abc');
    }
  });

  it('verify passes on the stopped service', async () => {
    const r = await verify();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`zone ${zone}: `);
    expect(r.stdout).toMatch(/: verified\n/);
  });

  it('restarts on the same directory keeping tokens, keys, rulesets and batches', async () => {
    const before = await readBatches(data.dir);
    const firstKey = svc!.lines.find((l) => l.startsWith('audit signing key: '));
    // Batches only by the drain on stop: the event of this run must be written by SIGINT itself.
    svc = await spawnServe([...serveArgs(), '--batch-interval', '3600000', '--batch-size', '100000']);
    expect(svc.lines.some((l) => l.startsWith('admin token: ') || l.startsWith('created '))).toBe(false);
    expect(svc.lines).toContain(firstKey);
    // The ruleset deployed before the restart still applies.
    const r = await get(`${svc.proxy}/api/user.json`, host);
    expect(r.body.equals(routes['/api/user.json']!.body)).toBe(true);
    // The dashboard shows the batches written before the restart, verified against their epochs.
    const signIn = await fetch(`${svc.dashboard}session`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: readFileSync(join(data.dir, 'admin-token'), 'utf8').trim() }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const shown = await (await fetch(`${svc.dashboard}zones/${zone}/sensitive-data/detections`, { headers: { cookie } })).text();
    for (const key of before.keys()) expect(shown).toContain(`data-batch="${Number(key.slice(-17, -7))}" data-state="verified"`);
    for (const { path, rule } of expected) expect(shown, path).toMatch(new RegExp(`<code>${rule.source.replace(/^\^|\$$/g, '')}[^<]*</code></td><td class="confidence" data-confidence="high">high</td><td class="value"><code>[^<]*</code></td><td class="request">GET ${host}${path}<`));
    for (const v of Object.values(planted)) expect(shown).not.toContain(v);
    expect(await svc.stop('SIGINT')).toBe(0);

    const after = await readBatches(data.dir);
    for (const [key, b] of before) expect(after.get(key)?.bytes.equals(b.bytes), key).toBe(true);
    expect(after.size).toBeGreaterThan(before.size);
    // Batch numbers go on from where they were, without a gap.
    expect([...after.keys()].sort()).toEqual(Array.from({ length: after.size }, (_, i) => batchKey(zone, i + 1)));
    const newest = after.get(batchKey(zone, after.size))!;
    expect(newest.events.some((e: LogEvent) => e.path === '/api/user.json' && e.batch === after.size)).toBe(true);
    expect((await verify()).code).toBe(0);
  });

  it('publishes on the next start a batch written before a crash but never published', async () => {
    const n = (await readBatches(data.dir)).size + 1;
    const key = batchKey(zone, n);
    // The state a crash between the batch write and its epoch leaves: the batch is there, the epoch is not.
    const line: LogEvent = {
      batch: n, seq: 0, id: `${'ab'.repeat(16)}-0`, timestamp: new Date().toISOString(), zone, action: 'log',
      rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId: 'card-visa', description: 'Visa card number', tags: ['financial-information'],
      host, method: 'GET', path: '/crash', status: 200, contentType: 'application/json', requestId: 'ab'.repeat(16), start: 0, end: 16, redacted: '************1111', confidence: 'high',
    };
    const bucket = await openBucket({ dir: join(data.dir, 'events') });
    await bucket.put(key, `${JSON.stringify(line)}\n`);
    await bucket.close();

    const pending = await verify();
    expect(pending.code).toBe(1);
    expect(pending.stdout).toContain(`VERIFY_BATCH_WITHOUT_EPOCH: batch ${n} has no epoch ${n}`);
    expect(pending.stdout).toContain('its next start publishes it');

    svc = await spawnServe(serveArgs());
    expect(svc.lines).toContain('recovered: published 1 batch written before the last stop');
    expect(await svc.stop()).toBe(0);
    const r = await verify('--zone', host);
    expect(r.code, r.stdout).toBe(0);
  });

  it('names the batch when one stored batch is rewritten, and the epoch when one is deleted', async () => {
    const k1 = batchKey(zone, 1);
    const k2 = batchKey(zone, 2);
    const bucket = await openBucket({ dir: join(data.dir, 'events') });
    const original = await (await bucket.get(k1))!.text();
    const forged = original.replace(/"redacted":"[^"]*"/, '"redacted":"****"');
    expect(forged).not.toBe(original);
    await bucket.put(k1, forged);
    await bucket.close();

    const r = await verify();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`VERIFY_DIGEST_MISMATCH: ${k1} has Merkle root ${batchDigest(Buffer.from(forged))}`);
    expect(r.stdout).toContain('FAILED');
    const json = JSON.parse((await verify('--format', 'json')).stdout) as { ok: boolean; zones: Array<{ problems: Array<{ code: string; key: string }> }> };
    expect(json.ok).toBe(false);
    expect(json.zones[0]!.problems).toEqual([expect.objectContaining({ code: 'VERIFY_DIGEST_MISMATCH', key: k1 })]);

    const b2 = await openBucket({ dir: join(data.dir, 'events') });
    await b2.put(k1, original);
    await b2.delete(k2);
    await b2.close();
    const deleted = await verify();
    expect(deleted.code).toBe(1);
    expect(deleted.stdout).toContain(`VERIFY_EPOCH_WITHOUT_BATCH: epoch 2 of events.${zone} is published but batch ${k2} is missing`);
    expect(deleted.stdout).not.toContain('VERIFY_DIGEST_MISMATCH');
  });

  it('usage errors exit 2', async () => {
    expect((await verify('--zone', '!bad')).code).toBe(2);
    expect((await verify('--public-key', 'abc')).code).toBe(2);
    const empty = tempDir('leakscan-serve-empty-');
    try {
      const r = await runCli(['verify', '--data', empty.dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('SERVE_ERR_NO_DATA');
      expect((await runCli(['serve', '--data', empty.dir, '--origin', 'ftp://example.com'])).code).toBe(2);
      expect((await runCli(['serve', '--data', empty.dir, '--port', 'x'])).code).toBe(2);
      expect((await runCli(['serve', '--data', empty.dir, '--origin', origin.url, '--zone', 'shop=123'])).code).toBe(2);
    } finally {
      empty.remove();
    }
  });

  it('without --origin serves the API and the audit log, prints ready and stops on SIGINT', async () => {
    const d = tempDir('leakscan-serve-noproxy-');
    try {
      const p = await spawnServe(['--data', d.dir]);
      expect(p.proxy).toBeNull();
      expect(p.lines.at(-1)).toBe('ready');
      const res = await fetch(`${p.api}/zones/${zone}/rulesets`, { headers: { authorization: `Bearer ${readFileSync(join(d.dir, 'admin-token'), 'utf8').trim()}` } });
      expect(res.status).toBe(200);
      expect(await p.stop('SIGINT')).toBe(0);
      const r = await runCli(['verify', '--data', d.dir]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('no zones');
    } finally {
      d.remove();
    }
  });
});
