/**
 * `leakscan stop` against a real `leakscan serve` process: the pid file, a drain that writes the
 * events accepted before the stop, the data lock released, a stale pid file, nothing running, and a
 * service that does not stop in time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPidFile, type PidFile } from '../../src/serve/index.js';
import { zoneIdOfHost } from '../../src/eventlog/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, readBatches, spawnServe, startOrigin, tempDir, type Origin, type ServeProcess } from './helpers.js';

const planted = plant();
const routes = bodies(planted);
const host = 'shop.example';
const zone = zoneIdOfHost(host);
let origin: Origin;
const running: ServeProcess[] = [];
const dirs: Array<{ remove(): void }> = [];

beforeAll(async () => {
  origin = await startOrigin(routes, planted);
});
afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) await p.stop('SIGKILL');
  await origin?.close();
  for (const d of dirs) d.remove();
});

function dir(): string {
  const d = tempDir('leakscan-stop-');
  dirs.push(d);
  return d.dir;
}

async function serve(data: string, ...more: string[]): Promise<ServeProcess> {
  // Batches only on stop: the events below are still buffered when `stop` is sent.
  const p = await spawnServe(['--data', data, '--origin', origin.url, '--workers', '1', '--batch-interval', '3600000', '--batch-size', '100000', ...more]);
  running.push(p);
  return p;
}

const exited = (p: ServeProcess): Promise<number | null> =>
  p.child.exitCode !== null ? Promise.resolve(p.child.exitCode) : new Promise((r) => p.child.once('exit', (code) => r(code)));

describe('leakscan stop', () => {
  it('drains a running service: its events are written and verify, the pid file goes, the directory is free', async () => {
    const data = dir();
    const svc = await serve(data);
    const pidLine = svc.lines.find((l) => l.startsWith('pid '));
    expect(pidLine).toBe(`pid ${svc.child.pid} (in ${join(data, 'serve.pid')}; stop with: leakscan stop --data ${data})`);
    const info = readPidFile(data) as PidFile;
    expect(info.pid).toBe(svc.child.pid);
    expect(info.api.url).toBe(svc.api);
    expect(info.proxy?.url).toBe(svc.proxy);
    expect(info.audit.url).toBe(svc.audit);
    expect(info.dashboard).toBe(svc.dashboard);

    await deploy(svc.api, readFileSync(join(data, 'admin-token'), 'utf8').trim(), zone);
    for (const path of Object.keys(routes)) expect((await get(`${svc.proxy}${path}`, host)).status).toBe(200);
    // The scans run off the response path; give them a moment to become buffered events.
    await new Promise((r) => setTimeout(r, 1500));

    const r = await runCli(['stop', '--data', data, '--timeout', '30']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`sent SIGTERM to pid ${svc.child.pid}`);
    expect(r.stdout).toMatch(new RegExp(`stopped pid ${svc.child.pid} in [0-9.]+ s; .* is free`));
    expect(await exited(svc)).toBe(0);
    expect(svc.stderr()).toContain('SIGTERM: draining');
    expect(existsSync(join(data, 'serve.pid'))).toBe(false);

    const batches = await readBatches(data);
    const events = [...batches.values()].flatMap((b) => b.events);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(new Set(events.map((e) => e.path))).toEqual(new Set(Object.keys(routes)));
    const v = await runCli(['verify', '--data', data]);
    expect(v.stdout + v.stderr).not.toContain('FAILED');
    expect(v.code).toBe(0);

    // The lock is released: a second service starts on the same directory.
    const again = await serve(data);
    expect(readPidFile(data)?.pid).toBe(again.child.pid);
    expect((await runCli(['stop', '--data', data])).code).toBe(0);
    expect(await exited(again)).toBe(0);
  }, 120_000);

  it('exits 2 with SERVE_ERR_NOT_RUNNING when nothing runs there, and removes a stale pid file', async () => {
    const data = dir();
    const none = await runCli(['stop', '--data', data]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('SERVE_ERR_NOT_RUNNING');
    expect(none.stdout).toBe('');

    // A pid file left by a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(data, 'serve.pid'), JSON.stringify({ pid: dead }));
    const stale = await runCli(['stop', '--data', data]);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toContain(`SERVE_ERR_NOT_RUNNING`);
    expect(stale.stderr).toContain(`pid ${dead}`);
    expect(existsSync(join(data, 'serve.pid'))).toBe(false);

    // A pid file naming a live process that does not hold the directory (a reused pid) is not signalled.
    writeFileSync(join(data, 'serve.pid'), JSON.stringify({ pid: process.pid }));
    const foreign = await runCli(['stop', '--data', data]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('SERVE_ERR_NOT_RUNNING');

    expect((await runCli(['stop', '--data', data, '--timeout', 'soon'])).code).toBe(2);
  });

  it('a stale pid file does not keep serve from starting: it is replaced', async () => {
    const data = dir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(data, 'serve.pid'), JSON.stringify({ pid: dead }));
    const svc = await serve(data);
    expect(readPidFile(data)?.pid).toBe(svc.child.pid);
    expect(await svc.stop('SIGINT')).toBe(0);
    expect(existsSync(join(data, 'serve.pid'))).toBe(false);
  }, 60_000);

  it('exits 1 with SERVE_ERR_STOP_TIMEOUT when the service does not exit in time; it stops once it can', async () => {
    const data = dir();
    const svc = await serve(data);
    svc.child.kill('SIGSTOP');
    try {
      const r = await runCli(['stop', '--data', data, '--timeout', '0.5']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('SERVE_ERR_STOP_TIMEOUT');
      expect(r.stderr).toContain(`pid ${svc.child.pid} is still running`);
    } finally {
      svc.child.kill('SIGCONT');
    }
    // The SIGTERM it was sent is delivered once it runs again: it drains and exits 0.
    expect(await exited(svc)).toBe(0);
    expect(existsSync(join(data, 'serve.pid'))).toBe(false);
  }, 60_000);

  it('a Ctrl-C delivered twice within a second (by the terminal and by npm) drains once and exits 0', async () => {
    const data = dir();
    const svc = await serve(data, '--drain-timeout', '3000');
    // An exchange held open by its client keeps the drain going (up to --drain-timeout).
    const held = request(`${svc.proxy}/big?mb=64`, { headers: { host }, agent: false });
    held.on('error', () => {});
    await new Promise<void>((r) => held.once('response', (res) => (res.pause(), r())).end());
    svc.child.kill('SIGINT');
    // Apart enough not to be coalesced into one pending signal, within the second that counts as a repeat.
    await new Promise((r) => setTimeout(r, 300));
    svc.child.kill('SIGINT');
    expect(await exited(svc)).toBe(0);
    expect(svc.stderr()).not.toContain('again');
    held.destroy();
    expect(existsSync(join(data, 'serve.pid'))).toBe(false);
  }, 60_000);
});
