/**
 * The Notifications API's refusals, through the official SDK against a running service (no proxy):
 * the account id, the token's scope and permission, validation, a destination in use, dry runs, and
 * the account id kept across a restart.
 */
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServeError } from '../../src/eventlog/index.js';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { runCli } from '../cli/helpers.js';
import { tempDir } from '../serve/helpers.js';
import { apiError as refusal } from '../api/helpers.js';

const Z = 'f'.repeat(32);
const data = tempDir('leakscan-alerts-api-');
let svc: ServeHandle;
let cf: Cloudflare;

const start = (): Promise<ServeHandle> => startServe({ dataDir: data.dir, port: 0, auditPort: 0, onError: () => {} });

beforeAll(async () => {
  svc = await start();
  cf = new Cloudflare({ baseURL: svc.api.url, apiToken: svc.admin.token, maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await svc.close();
  data.remove();
});

describe('Notifications API', () => {
  it('lists the two WAF alert types', async () => {
    const types = (await cf.alerting.availableAlerts.list({ account_id: svc.accountId })) as unknown as Record<string, { type: string }[]>;
    expect(types['WAF']!.map((t) => t.type)).toEqual(['clickhouse_alert_fw_anomaly', 'clickhouse_alert_fw_ent_anomaly']);
  });

  it("refuses another account id and a token limited to zones, even an edit one", async () => {
    expect(await refusal(cf.alerting.policies.list({ account_id: '0'.repeat(32) }).then((p) => p.getPaginatedItems()))).toMatchObject({ status: 403, code: 10000, message: expect.stringMatching(/^SDD_ERR_ALERT_FORBIDDEN: /) });
    const zoned = (await runCli(['token', 'create', '--name', 'zoned', '--zone', Z, '--permission', 'edit', '--data', data.dir])).stdout.trim();
    const cz = new Cloudflare({ baseURL: svc.api.url, apiToken: zoned, maxRetries: 0 });
    expect(await refusal(cz.alerting.destinations.webhooks.create({ account_id: svc.accountId, name: 'x', url: 'http://127.0.0.1:9/x' }))).toMatchObject({ status: 403, code: 10000 });
    const reader = (await runCli(['token', 'create', '--name', 'reader', '--all-zones', '--permission', 'read', '--data', data.dir])).stdout.trim();
    const cr = new Cloudflare({ baseURL: svc.api.url, apiToken: reader, maxRetries: 0 });
    expect((await cr.alerting.policies.list({ account_id: svc.accountId })).getPaginatedItems()).toEqual([]);
    expect((await refusal(cr.alerting.destinations.webhooks.create({ account_id: svc.accountId, name: 'x', url: 'http://127.0.0.1:9/x' }))).status).toBe(403);
  });

  it('validates destinations and policies', async () => {
    const account_id = svc.accountId;
    expect(await refusal(cf.alerting.destinations.webhooks.create({ account_id, name: 'x', url: 'ftp://example' }))).toMatchObject({ status: 400, code: 20002, message: expect.stringMatching(/^SDD_ERR_ALERT_INVALID: .*url/) });
    const hook = await cf.alerting.destinations.webhooks.create({ account_id, name: 'x', url: 'http://127.0.0.1:9/x' });
    const base = { account_id, name: 'p', enabled: true, mechanisms: { webhooks: [{ id: hook.id! }] } };
    expect(await refusal(cf.alerting.policies.create({ ...base, alert_type: 'universal_ssl_event_type' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^SDD_ERR_ALERT_UNSUPPORTED: /) });
    expect(await refusal(cf.alerting.policies.create({ ...base, alert_type: 'clickhouse_alert_fw_ent_anomaly', filters: { zones: [Z] } }))).toMatchObject({ status: 400, message: expect.stringContaining('filters.services') });
    expect(await refusal(cf.alerting.policies.create({ ...base, alert_type: 'clickhouse_alert_fw_anomaly', mechanisms: { webhooks: [{ id: 'a'.repeat(32) }] } }))).toMatchObject({ status: 404, code: 10003 });
    expect(await refusal(cf.alerting.policies.create({ ...base, alert_type: 'clickhouse_alert_fw_anomaly', mechanisms: { email: [{ id: 'soc@example.com' }] } }))).toMatchObject({ status: 400, message: expect.stringMatching(/^SDD_ERR_ALERT_UNSUPPORTED: .*mechanisms\.email/) });

    const policy = await cf.alerting.policies.create({ ...base, alert_type: 'clickhouse_alert_fw_anomaly' });
    expect(await refusal(cf.alerting.destinations.webhooks.delete(hook.id!, { account_id }))).toMatchObject({ status: 400, code: 20014 });
    await cf.alerting.policies.update(policy.id!, { account_id, enabled: false });
    expect(await cf.alerting.policies.get(policy.id!, { account_id })).toMatchObject({ name: 'p', enabled: false, alert_type: 'clickhouse_alert_fw_anomaly' });
    await cf.alerting.policies.delete(policy.id!, { account_id });
    await cf.alerting.destinations.webhooks.delete(hook.id!, { account_id });
    expect(await refusal(cf.alerting.destinations.webhooks.get(hook.id!, { account_id }))).toMatchObject({ status: 404, code: 10003 });
  });

  it('a dry run changes nothing; the account id and the destinations survive a restart', async () => {
    const res = await fetch(`${svc.api.url}/accounts/${svc.accountId}/alerting/v3/destinations/webhooks?dry_run=true`, {
      method: 'POST', headers: { authorization: `Bearer ${svc.admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'dry', url: 'http://127.0.0.1:9/x' }),
    });
    expect(await res.json()).toMatchObject({ success: true, result: null });
    await cf.alerting.destinations.webhooks.create({ account_id: svc.accountId, name: 'kept', url: 'http://127.0.0.1:9/kept', secret: 's' });
    const account = svc.accountId;
    await svc.close();
    svc = await start();
    cf = new Cloudflare({ baseURL: svc.api.url, apiToken: svc.admin.token, maxRetries: 0 });
    expect(svc.accountId).toBe(account);
    const names = (await cf.alerting.destinations.webhooks.list({ account_id: account })).getPaginatedItems().map((w) => w.name);
    expect(names).toEqual(['kept']);
  }, 60_000);

  it('a bad LEAKSCAN_ALERT_* value is a bad option of the start', async () => {
    const other = tempDir('leakscan-alerts-env-');
    process.env['LEAKSCAN_ALERT_MIN_EVENTS'] = 'many';
    try {
      const err = await startServe({ dataDir: other.dir, port: 0, auditPort: 0 }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(ServeError);
      expect(err).toMatchObject({ code: 'SERVE_ERR_INVALID_OPTION', message: expect.stringContaining('LEAKSCAN_ALERT_MIN_EVENTS=many') });
    } finally {
      delete process.env['LEAKSCAN_ALERT_MIN_EVENTS'];
      other.remove();
    }
  });
});
