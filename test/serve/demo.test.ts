/**
 * `leakscan demo` (what `npm start` runs) as a real process on free ports: it deploys the managed
 * ruleset on the demo zone once, prints where the token is (not the token: stdout is no terminal
 * here) and a curl line; the printed curl, sent through the proxy, becomes a stored event that
 * verifies after `leakscan stop`.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kManagedRulesetId } from '../../src/rules/index.js';
import { kDemoZone } from '../../src/cli/commands/serve-demo.js';
import { runCli } from '../cli/helpers.js';
import { readBatches, sh, spawnLeakscan, tempDir } from './helpers.js';
import { Browser } from '../dashboard/helpers.js';

const kSamples = join(import.meta.dirname, '../../corpus/samples');
const data = tempDir('leakscan-demo-');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  data.remove();
});

interface Demo {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  field(prefix: string): string;
}

/** Ports from the environment, as a user of `npm start` can set them. */
async function startDemo(): Promise<Demo> {
  const env = { ...process.env, LEAKSCAN_PORT: '0', LEAKSCAN_AUDIT_PORT: '0', LEAKSCAN_PROXY_PORT: '0' };
  const s = await spawnLeakscan(['demo', '--data', data.dir, '--samples', kSamples, '--workers', '1', '--batch-interval', '50'], env);
  children.push(s.child);
  return {
    child: s.child,
    lines: s.lines,
    exited: s.exited,
    field: (prefix) => {
      const l = s.lines.find((x) => x.startsWith(prefix));
      if (l === undefined) throw new Error(`no line ${prefix}\n${s.stdout()}`);
      return l.slice(prefix.length);
    },
  };
}

async function executeRules(api: string, token: string): Promise<number> {
  const res = await fetch(`${api}/zones/${kDemoZone}/rulesets/phases/http_response_firewall_managed/entrypoint`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { rules: Array<{ action: string; action_parameters?: { id?: string } }> } };
  return body.result.rules.filter((r) => r.action === 'execute' && r.action_parameters?.id === kManagedRulesetId).length;
}

describe('leakscan demo', () => {
  it('deploys on the demo zone, and the printed curl through the proxy becomes a stored, verified event', async () => {
    const demo = await startDemo();
    const tokenFile = join(data.dir, 'admin-token');
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(demo.field('admin token: ')).toBe(`saved in ${tokenFile}`);
    expect(demo.lines.join('\n')).not.toContain(token);
    expect(demo.field('demo zone: ')).toBe(`${kDemoZone} (every host through the proxy): Sensitive Data Detection deployed`);
    const dashboard = demo.field('dashboard: ');
    expect(demo.field('open the dashboard: ')).toBe(`${dashboard} and sign in with the admin token`);
    expect(demo.field('stop: ')).toBe(`Ctrl-C, or npx leakscan stop --data ${data.dir}`);
    expect(demo.lines.at(-2)).toBe('ready');
    const api = demo.field('rulesets API: ');
    expect(await executeRules(api, token)).toBe(1);

    // The printed command, run as printed.
    const curl = demo.field('send traffic through the proxy: ');
    expect(curl).toMatch(/^curl -s http:\/\/127\.0\.0\.1:\d+\/user\.json$/);
    const sent = await sh(curl, { timeoutMs: 15_000 });
    expect(sent.code).toBe(0);
    expect(sent.stdout.equals(readFileSync(join(kSamples, 'user.json')))).toBe(true);

    // The dashboard, signed in with the admin token from its file, shows the detection in a verified batch.
    const b = new Browser(dashboard.replace(/\/$/, ''));
    expect((await b.signIn(token)).status).toBe(303);
    let page = '';
    for (let i = 0; i < 100 && !page.includes('data-state="verified"'); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 200));
      page = (await b.get(`/zones/${kDemoZone}/sensitive-data/detections`)).text;
    }
    expect(page).toContain('data-state="verified"');
    expect(page).toContain('card-mastercard');
    expect(page).toContain('/user.json');

    const stop = await runCli(['stop', '--data', data.dir]);
    expect(stop.code).toBe(0);
    expect(await demo.exited).toBe(0);

    const events = [...(await readBatches(data.dir)).values()].flatMap((b) => b.events);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.zone === kDemoZone && e.path === '/user.json')).toBe(true);
    expect(events.map((e) => e.ruleId)).toContain('card-mastercard');
    const v = await runCli(['verify', '--data', data.dir]);
    expect(v.code).toBe(0);
  }, 120_000);

  it('a second start finds the ruleset deployed and adds no second execute rule; a disabled one is enabled again', async () => {
    const demo = await startDemo();
    expect(demo.field('demo zone: ')).toBe(`${kDemoZone} (every host through the proxy): Sensitive Data Detection already deployed`);
    const token = readFileSync(join(data.dir, 'admin-token'), 'utf8').trim();
    expect(await executeRules(demo.field('rulesets API: '), token)).toBe(1);
    // Disabled meanwhile (by the dashboard or `leakscan zone disable`): the next start enables it again.
    expect((await runCli(['zone', 'disable', '--zone', kDemoZone, '--data', data.dir])).code).toBe(0);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    const again = await startDemo();
    expect(again.field('demo zone: ')).toBe(`${kDemoZone} (every host through the proxy): Sensitive Data Detection enabled again`);
    expect(await executeRules(again.field('rulesets API: '), token)).toBe(1);
    const status = await runCli(['zone', 'status', '--zone', kDemoZone, '--data', data.dir, '--format', 'json']);
    expect((JSON.parse(status.stdout) as { executeRules: Array<{ enabled: boolean }> }).executeRules.map((r) => r.enabled)).toEqual([true]);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 90_000);
});
