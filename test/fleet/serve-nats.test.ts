/**
 * `leakscan serve --nats URL` as a real process against a real nats-server: the proxy's events and
 * each response's outcome go to the stream (`events.<zone>`, one message per event with the event id
 * as Nats-Msg-Id), the batcher in the process writes them, `leakscan verify` passes, and a value
 * planted in a body reaches neither the stream nor a batch raw. Issue 35, part 2.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectBus, eventsSubject, kBodiesStream, kEventsStream } from '../../src/fleet/index.js';
import { zoneIdOfHost } from '../../src/eventlog/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, readBatches, spawnLeakscan, spawnServe, startOrigin, tempDir, type Spawned } from '../serve/helpers.js';
import { natsOrReason } from './helpers.js';

const started = await natsOrReason();

if (typeof started === 'string') {
  describe.skip(`serve --nats (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const nats = started;
  afterAll(() => nats.stop());

  describe('leakscan serve --nats', () => {
    it('publishes events and outcomes to the stream, batches them from there, and verify passes', async () => {
      const planted = plant();
      const routes = bodies(planted);
      const origin = await startOrigin(routes, planted);
      const data = tempDir('leakscan-serve-nats-');
      const host = 'shop.example';
      const zone = zoneIdOfHost(host);
      try {
        const svc = await spawnServe(['--data', data.dir, '--origin', origin.url, '--workers', '1', '--batch-interval', '100', '--nats', nats.url]);
        try {
          await deploy(svc.api, readFileSync(join(data.dir, 'admin-token'), 'utf8').trim(), zone);
          for (const path of Object.keys(routes)) expect((await get(`${svc.proxy}${path}`, host)).status).toBe(200);
          expect((await get(`${svc.proxy}/missing`, host)).status).toBe(404);
        } finally {
          expect(await svc.stop('SIGTERM')).toBe(0);
        }
        expect(svc.stderr()).toMatch(/stopped: 3 events in \d+ batches written/);

        // The stream: 3 events (one per planted value) and 4 outcomes (3 scanned, 1 without findings).
        const nc = await connectBus(nats.url, 'test');
        const jsm = await jetstreamManager(nc);
        const info = await jsm.streams.info(kEventsStream, { subjects_filter: eventsSubject(zone) });
        expect(info.state.subjects?.[eventsSubject(zone)]).toBe(7);
        for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
          const m = await jsm.streams.getMessage(kEventsStream, { seq });
          const text = m?.string() ?? '';
          for (const v of Object.values(planted)) expect(text).not.toContain(v);
        }
        await nc.close();

        const batches = await readBatches(data.dir);
        const events = [...batches.values()].flatMap((b) => b.events);
        expect(events.map((e) => e.path).sort()).toEqual(['/api/user.json', '/config.json.gz', '/settings.html']);
        for (const b of batches.values()) for (const v of Object.values(planted)) expect(b.bytes.toString()).not.toContain(v);
        const v = await runCli(['verify', '--data', data.dir]);
        expect(v.stdout).toContain('4 responses seen, 4 scanned');
        expect(v.code).toBe(0);
      } finally {
        await origin.close();
        data.remove();
      }
    }, 90_000);

    it('--scan remote: bodies go to scan-workers, their events come back; a body the full stream refuses is counted', async () => {
      const planted = plant();
      const routes = bodies(planted);
      const origin = await startOrigin(routes, planted);
      const data = tempDir('leakscan-serve-remote-');
      const host = 'remote.example';
      const zone = zoneIdOfHost(host);
      const workers: Spawned[] = [];
      try {
        // A 1 MiB stream: the small bodies fit, a 1 MiB capture (with its header) does not.
        const svc = await spawnServe(['--data', data.dir, '--origin', origin.url, '--workers', '1', '--batch-interval', '100', '--nats', nats.url, '--scan', 'remote', '--bodies-mb', '1']);
        try {
          workers.push(await spawnLeakscan(['scan-worker', '--nats', nats.url, '--workers', '1']), await spawnLeakscan(['scan-worker', '--nats', nats.url, '--workers', '1']));
          await deploy(svc.api, readFileSync(join(data.dir, 'admin-token'), 'utf8').trim(), zone);
          for (const path of Object.keys(routes)) expect((await get(`${svc.proxy}${path}`, host)).status).toBe(200);
          expect((await get(`${svc.proxy}/big?mb=2`, host)).status).toBe(200);
          // Stopped once the workers have taken every body the stream holds.
          const nc = await connectBus(nats.url, 'probe');
          const jsm = await jetstreamManager(nc);
          for (let i = 0; i < 300 && (await jsm.streams.info(kBodiesStream)).state.messages > 0; i++) await new Promise((r) => setTimeout(r, 100));
          expect((await jsm.streams.info(kBodiesStream)).state.messages).toBe(0);
          await nc.close();
        } finally {
          for (const w of workers) w.child.kill('SIGTERM');
          for (const w of workers) expect(await w.exited).toBe(0);
          expect(await svc.stop('SIGTERM')).toBe(0);
        }
        expect(svc.stderr()).toMatch(/bodies not sent to scan workers 1/);
        // The stream is shared with the test above: this data directory's batcher wrote its zone too.
        const events = [...(await readBatches(data.dir)).values()].flatMap((b) => b.events).filter((e) => e.zone === zone);
        expect(events.map((e) => e.path).sort()).toEqual(['/api/user.json', '/config.json.gz', '/settings.html']);
        for (const e of events) for (const v of Object.values(planted)) expect(JSON.stringify(e)).not.toContain(v);
        const v = await runCli(['verify', '--data', data.dir, '--zone', zone]);
        expect(v.stdout).toContain('4 responses seen, 3 scanned');
        expect(v.stdout).toContain('over budget 1');
        expect(v.code).toBe(0);
      } finally {
        for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
        await origin.close();
        data.remove();
      }
    }, 120_000);
  });
}
