/**
 * Webhook delivery on its own (Alerts without the service): retries until the receiver accepts and
 * gives up after maxAttempts; each outcome is in the history with its attempts and last error.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Alerts, type AlertingCall } from '../../src/alerts/index.js';
import { tempDir } from '../serve/helpers.js';

const Z = '1'.repeat(32);
const admin = { zones: ['*'], permission: 'edit' as const };
let answers: number[] = [];
let got = 0;
const server = createServer((req, res) => {
  req.resume();
  const status = answers.shift() ?? 200;
  if (status === 200) got++;
  res.writeHead(status).end();
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function setup(dir: string, maxAttempts: number): Promise<{ alerts: Alerts; call: (c: Partial<AlertingCall>) => Promise<unknown> }> {
  const alerts = await Alerts.open(dir, { minEvents: 3, delivery: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts } });
  const call = async (c: Partial<AlertingCall>): Promise<unknown> =>
    (await alerts.answer({ method: 'GET', resource: 'history', account: alerts.accountId, id: undefined, body: undefined, query: new URLSearchParams(), token: admin, dryRun: false, ...c })).result;
  const hook = (await call({ method: 'POST', resource: 'webhooks', body: { name: 'r', url } })) as { id: string };
  await call({ method: 'POST', resource: 'policies', body: { name: 'p', alert_type: 'clickhouse_alert_fw_anomaly', enabled: true, mechanisms: { webhooks: [{ id: hook.id }] } } });
  return { alerts, call };
}

const spike = (alerts: Alerts): void => alerts.observe(Z, Array.from({ length: 3 }, () => ({ ruleId: 'card-visa', timestamp: '2026-05-01T12:00:00.000Z' })));

async function settled(alerts: Alerts, call: (c: Partial<AlertingCall>) => Promise<unknown>): Promise<Record<string, unknown>[]> {
  for (;;) {
    await alerts.idle();
    const rows = (await call({})) as Record<string, unknown>[];
    if (rows.every((r) => r['status'] !== 'pending')) return rows;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('webhook delivery', () => {
  it('retries with backoff until the receiver accepts', async () => {
    const d = tempDir('leakscan-delivery-');
    answers = [503, 500, 200];
    got = 0;
    const { alerts, call } = await setup(d.dir, 10);
    spike(alerts);
    const rows = await settled(alerts, call);
    expect(rows).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3, last_error: null })]);
    expect(got).toBe(1);
    await alerts.close();
    d.remove();
  });

  it('gives up after maxAttempts, with the last error', async () => {
    const d = tempDir('leakscan-delivery-');
    answers = [503, 503];
    const { alerts, call } = await setup(d.dir, 2);
    spike(alerts);
    expect(await settled(alerts, call)).toEqual([expect.objectContaining({ status: 'failed', attempts: 2, last_error: expect.stringMatching(/^the webhook did not accept the alert: HTTP 503$/) })]);
    await alerts.close();
    d.remove();
  });
});
