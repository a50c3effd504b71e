/**
 * Issue 34, part 2 (acceptance): the official `cloudflare` SDK creates a webhook destination and a
 * Data Loss Protection spike policy against a running service; a spike driven through the proxy
 * reaches a local webhook receiver exactly once, with Cloudflare's documented payload and the
 * destination's secret in `cf-webhook-auth`; a quiet zone gets nothing; a delivery pending at a stop
 * is sent after the restart, once.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { deploy, get, plant, startOrigin, tempDir, type Origin, type OriginBody } from '../serve/helpers.js';

const ZSPIKE = 'c'.repeat(32);
const ZQUIET = 'd'.repeat(32);
const planted = plant();
// Thresholds small enough for a test: a spike is 40 events in a bucket (z-score still > 3.5).
const kMinEvents = 40;

function jsonBody(cards: number): OriginBody {
  const body = Buffer.from(JSON.stringify({ payments: Array.from({ length: cards }, (_, i) => ({ i, card: planted.card })) }));
  return { headers: { 'content-type': 'application/json' }, body, decoded: body };
}

interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A local webhook receiver; `status` is what it answers (503 to refuse). */
async function startReceiver(): Promise<{ url: string; got: Received[]; status: number; close(): Promise<void> }> {
  const r = { url: '', got: [] as Received[], status: 200, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (r.status === 200) r.got.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      res.writeHead(r.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return r;
}

const data = tempDir('leakscan-alerts-');
let origin: Origin;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

function start(): Promise<ServeHandle> {
  return startServe({
    dataDir: data.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, workers: 0,
    zones: { hosts: { 'spike.example': ZSPIKE, 'quiet.example': ZQUIET } },
    batch: { intervalMs: 20 },
    alerts: { minEvents: kMinEvents, delivery: { baseDelayMs: 20, maxDelayMs: 50, maxAttempts: 1000 } },
    onError: () => {},
  });
}

/** Waits until `check` holds, flushing the service between looks (no timing is asserted). */
async function until(svc: ServeHandle, check: () => Promise<boolean> | boolean): Promise<void> {
  for (;;) {
    await svc.flush();
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  origin = await startOrigin({ '/one.json': jsonBody(1), '/many.json': jsonBody(kMinEvents + 5) }, planted);
  receiver = await startReceiver();
});
afterAll(async () => {
  await origin.close();
  await receiver.close();
  data.remove();
});

describe('Data Loss Protection spike alerts', () => {
  let svc: ServeHandle;
  let cf: Cloudflare;
  let policyId: string;
  let webhookId: string;
  const secret = 'receiver-shared-secret';

  beforeAll(async () => {
    svc = await start();
    cf = new Cloudflare({ baseURL: svc.api.url, apiToken: svc.admin.token, maxRetries: 0 });
    await deploy(svc.api.url, svc.admin.token, ZSPIKE);
    await deploy(svc.api.url, svc.admin.token, ZQUIET);
  }, 60_000);
  afterAll(async () => svc.close());

  it('creates a webhook destination and a policy with the official SDK', async () => {
    const account_id = svc.accountId;
    const hook = await cf.alerting.destinations.webhooks.create({ account_id, name: 'receiver', url: receiver.url, secret });
    webhookId = hook.id!;
    expect(webhookId).toMatch(/^[0-9a-f]{32}$/);
    const policy = await cf.alerting.policies.create({
      account_id, name: 'DLP spikes', alert_type: 'clickhouse_alert_fw_ent_anomaly', enabled: true,
      filters: { zones: [ZSPIKE, ZQUIET], services: ['dlp'] },
      mechanisms: { webhooks: [{ id: webhookId }] },
    });
    policyId = policy.id!;
    const got = await cf.alerting.policies.get(policyId, { account_id });
    expect(got).toMatchObject({ name: 'DLP spikes', alert_type: 'clickhouse_alert_fw_ent_anomaly', enabled: true, mechanisms: { webhooks: [{ id: webhookId }] } });
    const hooks = [];
    for await (const w of cf.alerting.destinations.webhooks.list({ account_id })) hooks.push(w);
    expect(hooks).toEqual([expect.objectContaining({ id: webhookId, name: 'receiver', url: receiver.url, type: 'generic' })]);
    expect(JSON.stringify(hooks)).not.toContain(secret);
  });

  it('a quiet zone gets no alert', async () => {
    for (let i = 0; i < 5; i++) expect((await get(`${svc.proxy!.url}/one.json`, 'quiet.example')).status).toBe(200);
    await svc.flush();
    expect(receiver.got).toEqual([]);
    const history = [];
    for await (const h of cf.alerting.history.list({ account_id: svc.accountId })) history.push(h);
    expect(history).toEqual([]);
  });

  it('a spike through the proxy reaches the receiver exactly once, with the documented payload', async () => {
    // Two spiking responses in the same bucket: the second is within two hours of the first alert.
    for (let i = 0; i < 2; i++) expect((await get(`${svc.proxy!.url}/many.json`, 'spike.example')).status).toBe(200);
    await until(svc, () => receiver.got.length > 0);
    expect(receiver.got).toHaveLength(1);
    const { headers, body } = receiver.got[0]!;
    expect(headers['cf-webhook-auth']).toBe(secret);
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(body).toMatchObject({
      name: 'DLP spikes', alert_type: 'clickhouse_alert_fw_ent_anomaly', policy_id: policyId, policy_name: 'DLP spikes',
      account_id: svc.accountId, alert_event: 'ALERT_STATE_EVENT_START', text: expect.stringContaining(ZSPIKE),
      data: { zone: ZSPIKE, service: 'dlp', action: 'log' },
    });
    expect(body['ts']).toEqual(expect.any(Number));
    expect(body['alert_correlation_id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((body['data'] as { events: number }).events).toBeGreaterThanOrEqual(kMinEvents);
    expect(JSON.stringify(body)).not.toContain(planted.card);
    // The stored delivery (its body and text) is a sink too.
    expect(await readFile(join(data.dir, 'alerts', 'state.json'), 'utf8')).not.toContain(planted.card);

    const history = [];
    for await (const h of cf.alerting.history.list({ account_id: svc.accountId })) history.push(h);
    expect(history).toEqual([expect.objectContaining({ policy_id: policyId, mechanism_type: 'webhook', alert_type: 'clickhouse_alert_fw_ent_anomaly', status: 'delivered', attempts: 1 })]);
  });

  it('a delivery pending at a stop is sent after the restart, once', async () => {
    // A second zone-spike policy on the same zone alerts once more; the receiver refuses it for now.
    await cf.alerting.policies.create({ account_id: svc.accountId, name: 'all security events', alert_type: 'clickhouse_alert_fw_anomaly', enabled: true, filters: { zones: [ZSPIKE] }, mechanisms: { webhooks: [{ id: webhookId }] } });
    receiver.status = 503;
    expect((await get(`${svc.proxy!.url}/many.json`, 'spike.example')).status).toBe(200);
    let failed = 0;
    await until(svc, async () => {
      for await (const h of cf.alerting.history.list({ account_id: svc.accountId })) if ((h as { attempts: number }).attempts > 0 && h.name === 'all security events') failed++;
      return failed > 0;
    });
    await svc.close();
    expect(receiver.got).toHaveLength(1);

    receiver.status = 200;
    svc = await start();
    cf = new Cloudflare({ baseURL: svc.api.url, apiToken: svc.admin.token, maxRetries: 0 });
    await until(svc, () => receiver.got.length > 1);
    expect(receiver.got.map((g) => g.body['policy_name'])).toEqual(['DLP spikes', 'all security events']);
    // Restarting again sends nothing more: both deliveries are stored as delivered.
    await svc.close();
    svc = await start();
    await svc.flush();
    expect(receiver.got).toHaveLength(2);
  }, 60_000);
});
