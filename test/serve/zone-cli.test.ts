/**
 * `leakscan zone deploy|status|disable` against a real `leakscan serve` process: the A1 → A2/A3
 * procedure made idempotent (deploy twice, a zone that already has two execute rules made by hand),
 * the service found through --data or named with --api, and each error's code and exit code.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedRuleset } from '../../src/index.js';
import { zoneIdOfHost } from '../../src/eventlog/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, spawnServe, startOrigin, tempDir, type Origin, type ServeProcess } from './helpers.js';

interface Rule {
  id: string;
  action: string;
  enabled: boolean;
  action_parameters?: { id?: string };
}
interface StateJson {
  action?: string;
  rule?: string;
  rules?: string[];
  zone: string;
  host: string | null;
  entrypoint: { id: string; version: string } | null;
  executeRules: Array<{ id: string; enabled: boolean; expression: string; summary: string; sensitivity_level: string }>;
  warnings: string[];
}

const phase = 'http_response_firewall_managed';
let svc: ServeProcess;
let data: string;
let token: string;
const dirs: Array<{ remove(): void }> = [];

beforeAll(async () => {
  const d = tempDir('leakscan-zone-');
  dirs.push(d);
  data = d.dir;
  svc = await spawnServe(['--data', data, '--workers', '1']);
  token = readFileSync(join(data, 'admin-token'), 'utf8').trim();
}, 90_000);
afterAll(async () => {
  if (svc !== undefined && svc.child.exitCode === null) await svc.stop('SIGKILL');
  for (const d of dirs) d.remove();
});

/** A v4 call made by hand, as the documented procedure's user would. */
async function v4(method: string, path: string, body?: unknown): Promise<{ status: number; json: { success: boolean; result: unknown; errors: Array<{ code: number }> } }> {
  const res = await fetch(`${svc.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as never };
}

async function executeRules(zone: string): Promise<Rule[]> {
  const r = await v4('GET', `/zones/${zone}/rulesets/phases/${phase}/entrypoint`);
  expect(r.status).toBe(200);
  return (r.json.result as { rules: Rule[] }).rules.filter((x) => x.action === 'execute' && x.action_parameters?.id === managedRuleset.id);
}

const zoneJson = async (...argv: string[]): Promise<{ code: number; doc: StateJson; stderr: string }> => {
  const r = await runCli(['zone', ...argv, '--data', data, '--json']);
  expect(r.stdout, r.stderr).not.toBe('');
  return { code: r.code, doc: JSON.parse(r.stdout) as StateJson, stderr: r.stderr };
};

describe('leakscan zone (real service)', () => {
  it('deploys on a host (A3), and deploying again adds no second rule', async () => {
    const host = 'deploy-twice.example';
    const zone = zoneIdOfHost(host);
    const first = await runCli(['zone', 'deploy', '--zone', host, '--data', data]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^deploy: created the entry point with execute rule [0-9a-f]{32} \(A3\)$/m);
    expect(first.stdout).toContain(`zone ${zone} (${host})`);
    expect(await executeRules(zone)).toHaveLength(1);

    const second = await runCli(['zone', 'deploy', '--zone', host, '--data', data]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/already deployed: execute rule [0-9a-f]{32} is enabled; nothing changed/);
    const rules = await executeRules(zone);
    expect(rules).toHaveLength(1);
    expect(rules[0]!.enabled).toBe(true);

    // Disabled, then deployed again: the same rule is enabled, still one.
    const off = await zoneJson('disable', '--zone', host);
    expect(off.code).toBe(0);
    expect(off.doc.action).toBe('disabled');
    expect(off.doc.rules).toEqual([rules[0]!.id]);
    expect(off.doc.executeRules.map((r) => r.enabled)).toEqual([false]);
    const on = await zoneJson('deploy', '--zone', host);
    expect(on.doc.action).toBe('enabled');
    expect(on.doc.rule).toBe(rules[0]!.id);
    expect((await executeRules(zone)).map((r) => [r.id, r.enabled])).toEqual([[rules[0]!.id, true]]);
  });

  it('adds the execute rule to an entry point that has none (A2)', async () => {
    const zone = zoneIdOfHost('a2.example');
    const put = await v4('PUT', `/zones/${zone}/rulesets/phases/${phase}/entrypoint`, { rules: [{ action: 'log', expression: 'true', description: 'by hand' }] });
    expect(put.status).toBe(200);
    const r = await zoneJson('deploy', '--zone', zone);
    expect(r.code).toBe(0);
    expect(r.doc.action).toBe('added');
    expect(r.doc.host).toBeNull();
    expect(r.doc.executeRules).toEqual([expect.objectContaining({ id: r.doc.rule, enabled: true, expression: 'true', summary: 'none', sensitivity_level: 'default' })]);
  });

  it('a zone with two execute rules made by hand: status lists both and warns, disable turns both off, deploy adds none', async () => {
    const host = 'two-rules.example';
    const zone = zoneIdOfHost(host);
    // The documented procedure run twice by hand: A3, then A2 on the entry point A1 finds.
    await deploy(svc.api, token, zone);
    const ep = await v4('GET', `/zones/${zone}/rulesets/phases/${phase}/entrypoint`);
    const second = await v4('POST', `/zones/${zone}/rulesets/${(ep.json.result as { id: string }).id}/rules`, {
      action: 'execute',
      expression: 'http.response.code eq 200',
      action_parameters: { id: managedRuleset.id, overrides: { sensitivity_level: 'medium', categories: [{ category: 'secrets', enabled: false }], rules: [{ id: 'uk-nhs', sensitivity_level: 'low' }] } },
    });
    expect(second.status).toBe(200);

    const status = await runCli(['zone', 'status', '--zone', host, '--data', data]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/execute rule 1 of 2: [0-9a-f]{32}  enabled\n  expression: true\n  overrides: none\n  sensitivity level: default/);
    expect(status.stdout).toMatch(/execute rule 2 of 2: [0-9a-f]{32}  enabled\n  expression: http.response.code eq 200\n  overrides: categories: secrets off; rules: uk-nhs low\n  sensitivity level: medium/);
    expect(status.stderr).toMatch(/^leakscan: warning: zone [0-9a-f]{32} has 2 execute rules of the managed ruleset \(2 enabled\)/);

    const off = await zoneJson('disable', '--zone', host);
    expect(off.doc.rules).toHaveLength(2);
    expect(off.doc.warnings).toHaveLength(1);
    expect((await executeRules(zone)).map((r) => r.enabled)).toEqual([false, false]);

    // Deploy enables the first rule it finds and adds nothing; the warning stays.
    const on = await runCli(['zone', 'deploy', '--zone', host, '--data', data]);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/enabled execute rule [0-9a-f]{32}, which was disabled/);
    expect(on.stderr).toContain('has 2 execute rules');
    expect((await executeRules(zone)).map((r) => r.enabled)).toEqual([true, false]);
  });

  it('status of a zone where nothing is deployed, through --api and LEAKSCAN_API_TOKEN', async () => {
    const saved = process.env['LEAKSCAN_API_TOKEN'];
    process.env['LEAKSCAN_API_TOKEN'] = token;
    try {
      const r = await runCli(['zone', 'status', '--zone', 'nothing.example', '--api', new URL(svc.api).origin]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('no entry point in http_response_firewall_managed: Cloudflare Sensitive Data Detection is not deployed');
    } finally {
      if (saved === undefined) delete process.env['LEAKSCAN_API_TOKEN'];
      else process.env['LEAKSCAN_API_TOKEN'] = saved;
    }
  });

  it('shows the v4 code when the API refuses the change (exit 1)', async () => {
    const zone = zoneIdOfHost('full.example');
    // An entry point at its limit of 1,000 rules: A2 is refused.
    const rules = Array.from({ length: 1000 }, () => ({ action: 'log', expression: 'true' }));
    expect((await v4('PUT', `/zones/${zone}/rulesets/phases/${phase}/entrypoint`, { rules })).status).toBe(200);
    const r = await runCli(['zone', 'deploy', '--zone', zone, '--data', data]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^leakscan: SDD_ERR_API_REFUSED: the Rulesets API refused the call: add the execute rule \(A2\): HTTP 400, v4 20016: /);
  });

  it('a wrong or missing token is SDD_ERR_API_AUTH (exit 4)', async () => {
    const wrong = await runCli(['zone', 'status', '--zone', 'shop.example', '--data', data, '--token', 'x'.repeat(40)]);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/^leakscan: SDD_ERR_API_AUTH: .*HTTP 403, v4 10000: Authentication error/);
    expect(wrong.stdout).toBe('');
    const saved = process.env['LEAKSCAN_API_TOKEN'];
    delete process.env['LEAKSCAN_API_TOKEN'];
    try {
      const none = await runCli(['zone', 'status', '--zone', 'shop.example', '--api', svc.api]);
      expect(none.code).toBe(4);
      expect(none.stderr).toMatch(/SDD_ERR_API_AUTH: .*no token: with --api, give --token/);
    } finally {
      if (saved !== undefined) process.env['LEAKSCAN_API_TOKEN'] = saved;
    }
  });
});

describe('leakscan zone (errors without a service)', () => {
  it('nothing runs on --data DIR, or nothing answers at --api URL: SDD_ERR_API_UNREACHABLE (exit 3)', async () => {
    const empty = tempDir('leakscan-zone-empty-');
    dirs.push(empty);
    const r = await runCli(['zone', 'deploy', '--zone', 'shop.example', '--data', empty.dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^leakscan: SDD_ERR_API_UNREACHABLE: .*no leakscan serve runs on /);
    // A port nobody listens on.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const down = await runCli(['zone', 'status', '--zone', 'shop.example', '--api', `http://127.0.0.1:${port}`, '--token', 'x'.repeat(40)]);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/SDD_ERR_API_UNREACHABLE: .*ECONNREFUSED/);
  });

  it.each([
    [['--zone', 'not a host!'], /SDD_ERR_INVALID_ZONE: .*"not a host!"/],
    [['--zone', 'shop.example', '--api', 'ftp://x', '--token', 't'], /SDD_ERR_INVALID_OPTION: .*only http/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await runCli(['zone', 'status', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});

describe('leakscan zone disable stops every rule from scanning (real proxy)', () => {
  const planted = plant();
  const host = 'scanned.example';
  const zone = zoneIdOfHost(host);
  let origin: Origin;
  let proxied: ServeProcess;
  let dir: string;
  let adminToken: string;

  beforeAll(async () => {
    origin = await startOrigin(bodies(planted), planted);
    const d = tempDir('leakscan-zone-proxy-');
    dirs.push(d);
    dir = d.dir;
    // A batch (and its signed epoch) 200 ms after a zone's first event: each detection shows as a new epoch.
    proxied = await spawnServe(['--data', dir, '--origin', origin.url, '--workers', '1', '--batch-interval', '200']);
    adminToken = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
  }, 90_000);
  afterAll(async () => {
    if (proxied !== undefined && proxied.child.exitCode === null) await proxied.stop('SIGKILL');
    await origin?.close();
  });

  /** The latest epoch of the zone's audit namespace (0 before the first batch). */
  const latestEpoch = async (): Promise<number> => {
    const r = await runCli(['audit', 'get', `events.${zone}`, 'latest', '--url', proxied.audit, '--data', dir]);
    return r.code === 0 ? (JSON.parse(r.stdout) as { epoch: number }).epoch : 0;
  };
  /** Sends a body with a card through the proxy, then waits for a new epoch (up to `ms`). */
  const detected = async (before: number, ms: number): Promise<boolean> => {
    expect((await get(`${proxied.proxy}/api/user.json`, host)).status).toBe(200);
    for (const end = Date.now() + ms; Date.now() < end; ) {
      if ((await latestEpoch()) > before) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('with two execute rules, disabling one by hand still scans; zone disable stops both; deploy scans again', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${proxied.api}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    await deploy(proxied.api, adminToken, zone);
    const ep = (await (await call('GET', `/zones/${zone}/rulesets/phases/${phase}/entrypoint`)).json()) as { result: { id: string; rules: Array<Record<string, unknown>> } };
    expect((await call('POST', `/zones/${zone}/rulesets/${ep.result.id}/rules`, { action: 'execute', expression: 'true', action_parameters: { id: managedRuleset.id } })).status).toBe(200);
    expect(await detected(0, 15_000)).toBe(true);

    // The first rule disabled by hand, as the dashboard did: the second one goes on scanning.
    const first = ep.result.rules[0]!;
    const { version: _v, last_updated: _u, ...definition } = first;
    expect((await call('PATCH', `/zones/${zone}/rulesets/${ep.result.id}/rules/${String(first['id'])}`, { ...definition, enabled: false })).status).toBe(200);
    let epoch = await latestEpoch();
    expect(await detected(epoch, 15_000)).toBe(true);

    const off = await runCli(['zone', 'disable', '--zone', host, '--data', dir]);
    expect(off.code).toBe(0);
    epoch = await latestEpoch();
    expect(await detected(epoch, 2000)).toBe(false);

    const on = await runCli(['zone', 'deploy', '--zone', host, '--data', dir]);
    expect(on.code).toBe(0);
    expect(await detected(epoch, 15_000)).toBe(true);
  }, 90_000);
});
