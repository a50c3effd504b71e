/**
 * Logpush jobs end to end: a job created through the v4 API delivers every batch of its zone to a
 * local HTTPS receiver (a certificate of its own CA, trusted through `logpushCa`), across a restart
 * with deliveries failing and one cut off in flight: no batch is missing, and the only duplicate is
 * a file the receiver already has by name. Plus the API's validation and the field mapping.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTlsMaterial } from '../../src/audit/index.js';
import { eventsOfBatch, fileName, recordLine } from '../../src/logpush/index.js';
import { LocalScanner } from '../../src/scanner.js';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { zoneIdOfHost } from '../../src/eventlog/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, readBatches, startOrigin, tempDir, type Origin } from '../serve/helpers.js';

const planted = plant();
const host = 'shop.example';
const zone = zoneIdOfHost(host);
const data = tempDir('leakscan-logpush-');
const recvDir = tempDir('leakscan-logpush-recv-');

/** What the receiver got: every request, in order, and its mode for the next requests. */
interface Received {
  name: string;
  auth: string | undefined;
  encoding: string | undefined;
  lines: string[];
}
const received: Received[] = [];
/** `ok` answers 200; `fail` 503; `hang` keeps the request (read in full) without answering. */
let mode: 'ok' | 'fail' | 'hang' = 'ok';
let receiver: Server;
let recvUrl = '';
let origin: Origin;
let svc: ServeHandle | null = null;
let ca: Buffer;

async function start(): Promise<ServeHandle> {
  return startServe({
    dataDir: data.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, logpushCa: ca,
    createScanner: async () => new LocalScanner({ allRules: true }),
    batch: { intervalMs: 20 }, onError: () => {},
  });
}

/** Resolves once `check()` holds, polling (a bounded wait, not a timing assertion). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function traffic(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    expect((await get(`${svc!.proxy!.url}/api/user.json`, host)).status).toBe(200);
    await svc!.flush();
  }
}

const api = (path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${svc!.api.url}/zones/${zone}/logpush/jobs${path}`, { ...init, headers: { authorization: `Bearer ${svc!.admin.token}`, 'content-type': 'application/json' } });

beforeAll(async () => {
  const tls = await ensureTlsMaterial(recvDir.dir);
  ca = readFileSync(tls.paths.ca);
  receiver = createServer({ cert: readFileSync(tls.paths.server), key: readFileSync(tls.paths.serverKey) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = mode;
      if (m === 'fail') return void res.writeHead(503).end();
      received.push({
        name: String(req.headers['x-logpush-file']),
        auth: req.headers.authorization,
        encoding: req.headers['content-encoding'],
        lines: gunzipSync(Buffer.concat(chunks)).toString('utf8').split('\n').filter(Boolean),
      });
      if (m === 'ok') res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  recvUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/ingest`;
  origin = await startOrigin(bodies(planted), planted);
  svc = await start();
  await deploy(svc.api.url, svc.admin.token, zone);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await origin?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((r) => receiver?.close(() => r()));
  data.remove();
  recvDir.remove();
});

describe('Logpush jobs', () => {
  let id = 0;

  it('creates, reads, lists and updates a job in the v4 shape', async () => {
    const res = await api('', {
      method: 'POST',
      body: JSON.stringify({ name: 'shop-example', dataset: 'firewall_events', enabled: true, destination_conf: `${recvUrl}?header_Authorization=Bearer%20s3cret`, output_options: { field_names: ['Action', 'Datetime', 'RuleID', 'Source', 'ClientRequestHost', 'ClientRequestPath', 'RayID', 'Metadata'], timestamp_format: 'rfc3339' } }),
    });
    const body = (await res.json()) as { success: boolean; result: Record<string, unknown> };
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.result).toMatchObject({ dataset: 'firewall_events', enabled: true, name: 'shop-example', last_complete: null, last_error: null, error_message: null });
    id = body.result['id'] as number;
    expect(Number.isInteger(id)).toBe(true);
    const list = (await (await api('')).json()) as { result: Array<{ id: number }> };
    expect(list.result.map((j) => j.id)).toEqual([id]);
    const got = (await (await api(`/${id}`)).json()) as { result: { output_options: { timestamp_format: string } } };
    expect(got.result.output_options.timestamp_format).toBe('rfc3339');
    // The official SDK's logpush.jobs resource reads the same job, then creates, renames and deletes another.
    const cf = new Cloudflare({ baseURL: svc!.api.url, apiToken: svc!.admin.token, maxRetries: 0 });
    const listed = [];
    for await (const j of cf.logpush.jobs.list({ zone_id: zone })) listed.push(j);
    expect(listed.map((j) => j?.id)).toEqual([id]);
    const other = await cf.logpush.jobs.create({ zone_id: zone, dataset: 'firewall_events', destination_conf: recvUrl, name: 'other' });
    expect(other?.enabled).toBe(false);
    expect((await cf.logpush.jobs.update(other!.id!, { zone_id: zone, name: 'renamed' }))?.name).toBe('renamed');
    await cf.logpush.jobs.delete(other!.id!, { zone_id: zone });
    expect((await cf.logpush.jobs.get(id, { zone_id: zone }))?.name).toBe('shop-example');
  });

  it('refuses another dataset, a non-https destination, an unknown field name and an unknown job', async () => {
    const post = async (b: unknown) => (await api('', { method: 'POST', body: JSON.stringify(b) })).json() as Promise<{ success: boolean; errors: Array<{ code: number; message: string }> }>;
    expect((await post({ dataset: 'http_requests', destination_conf: recvUrl })).errors[0]!.message).toMatch(/^SDD_ERR_LOGPUSH_DATASET: /);
    expect((await post({ dataset: 'firewall_events', destination_conf: 's3://bucket/logs?region=us-east-1' })).errors[0]!.message).toMatch(/^SDD_ERR_LOGPUSH_DESTINATION: /);
    expect((await post({ dataset: 'firewall_events', destination_conf: recvUrl, output_options: { field_names: ['ClientSecret'] } })).errors[0]!.message).toMatch(/^SDD_ERR_LOGPUSH_INVALID: .*ClientSecret/);
    const missing = await api('/999', { method: 'GET' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errors: Array<{ code: number; message: string }> }).errors[0]).toMatchObject({ code: 10003, message: expect.stringMatching(/^SDD_ERR_LOGPUSH_JOB_NOT_FOUND: /) });
  });

  it('delivers every batch across a restart: no gap, duplicates only by name', async () => {
    await traffic(2);
    await until(() => received.length >= 2, 'the first two files');
    // The destination fails: batches wait in the bucket, the job records the error.
    mode = 'fail';
    await traffic(2);
    await until(() => svc!.stats().logpush.deliveryErrors > 0, 'a failed delivery');
    const failed = (await (await api(`/${id}`)).json()) as { result: { last_error: string | null; error_message: string | null } };
    expect(failed.result.last_error).not.toBeNull();
    expect(failed.result.error_message).toMatch(/^SDD_ERR_LOGPUSH_DELIVERY: .*HTTP 503/);
    expect(failed.result.error_message).not.toContain('s3cret');
    // The next file is read in full but never answered: it is in flight when the service stops.
    mode = 'hang';
    const before = received.length;
    await svc!.flush();
    await until(() => received.length > before, 'a file in flight');
    // A destination that never answers holds up neither scanning nor storage: traffic is written and published.
    const written = svc!.stats().events.batchesWritten;
    await traffic(1);
    expect(svc!.stats().events.batchesWritten).toBeGreaterThan(written);
    await svc!.close();
    svc = null;

    mode = 'ok';
    svc = await start();
    await traffic(2);
    await svc.flush();
    const stored = await (async () => {
      // Every batch of the zone with events, read once the service is stopped.
      await until(() => received.length >= before + 1 + 5, 'the files after the restart');
      await svc!.close();
      svc = null;
      return readBatches(data.dir);
    })();
    const withEvents = [...stored.entries()].filter(([k, b]) => k.startsWith(`events/${zone}/`) && b.events.length > 0);
    const expected = new Map(withEvents.map(([k, b]) => [fileName(zone, Number(/(\d{10})\.ndjson$/.exec(k)![1])), b.events.map((e) => e.id)]));
    const byName = new Map<string, string[]>();
    for (const r of received) {
      const ids = r.lines.map((l) => (JSON.parse(l) as { Metadata: { event_id: string } }).Metadata.event_id);
      // A repeated name is the same file again (the one cut off in flight), never different content.
      if (byName.has(r.name)) expect(ids).toEqual(byName.get(r.name));
      byName.set(r.name, ids);
    }
    expect([...byName.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, ids] of expected) expect(byName.get(name), name).toEqual(ids);
    expect(received.length - byName.size).toBe(1);
    for (const r of received) {
      expect(r.auth).toBe('Bearer s3cret');
      expect(r.encoding).toBe('gzip');
      for (const l of r.lines) {
        const rec = JSON.parse(l) as Record<string, unknown>;
        expect(Object.keys(rec)).toEqual(['Action', 'Datetime', 'RuleID', 'Source', 'ClientRequestHost', 'ClientRequestPath', 'RayID', 'Metadata']);
        expect(rec).toMatchObject({ Action: 'log', Source: 'dlp', ClientRequestHost: host, ClientRequestPath: '/api/user.json' });
        expect(rec['Datetime']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
        // Never a raw value: the planted card appears only masked.
        expect(l).not.toContain(planted.card);
      }
    }
  });
});

describe('firewall_events records', () => {
  const line = JSON.stringify({ batch: 3, seq: 0, id: `${'a'.repeat(32)}-0`, timestamp: '2026-05-01T12:00:00.123Z', zone, action: 'log', rulesetId: 'r', ruleId: 'card-visa', description: 'd', tags: ['pii'], host: 'h', method: 'GET', path: '/p', status: 200, contentType: null, requestId: 'a'.repeat(32), start: 1, end: 2, redacted: '****1111', confidence: 'high' });

  it('reads the events of a batch, not its header, and writes Cloudflare field names', () => {
    const bytes = Buffer.from(`{"version":2,"zone":"${zone}","batch":3}\n${line}\n`);
    const events = eventsOfBatch(bytes, zone, 3);
    expect(events).toHaveLength(1);
    expect(eventsOfBatch(bytes, zone, 4)).toHaveLength(0);
    expect(recordLine(events[0]!, ['Datetime', 'RuleID', 'RayID'], 'unixnano')).toBe(`{"Datetime":1777636800123000000,"RuleID":"card-visa","RayID":"${'a'.repeat(32)}"}\n`);
    expect(recordLine(events[0]!, ['Datetime'], 'unix')).toBe('{"Datetime":1777636800}\n');
  });
});

describe('leakscan serve --logpush-ca', () => {
  it('is a usage error when the file cannot be read, before anything starts', async () => {
    const r = await runCli(['serve', '--data', data.dir, '--port', '0', '--audit-port', '0', '--logpush-ca', 'no-such-ca.pem'], { cwd: recvDir.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read --logpush-ca no-such-ca.pem');
  });
});
