/**
 * `leakscan batcher` as real processes against a real nats-server: killed with SIGKILL between writing
 * a batch and publishing its epoch (LEAKSCAN_FAULT_KILL_AFTER_BATCH), then repaired by the next
 * batcher; on the embedded stores of a data directory, and on one Ceph RGW bucket with two batchers
 * competing (`verify --s3`). Issue 35, part 2. Each part is skipped, with the reason printed, where
 * nats-server or Ceph cannot start.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ensureSigningKey } from '../../src/audit/index.js';
import { connectBus, ensureEventsStream, EventPublisher, openFleetStore } from '../../src/fleet/index.js';
import { verifyStores } from '../../src/verify/index.js';
import { startRgw, type Rgw } from '../support/ceph-rgw.js';
import { spawnLeakscan, sh, tempDir, type Spawned } from '../serve/helpers.js';
import { exchangeEvents, natsOrReason, randomZone } from './helpers.js';

const started = await natsOrReason();
const kMain = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** `leakscan verify ARGS` as a process: its exit code and report. */
async function verify(args: string, env?: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const r = await sh(`"${process.execPath}" --import tsx "${kMain}" verify ${args}`, { timeoutMs: 60_000, ...(env === undefined ? {} : { env }) });
  return { code: r.code, out: r.stdout.toString() + r.stderr };
}

/** Events of `zones` stored in the fleet's bucket, counted by verifying it in-process. */
async function storedEvents(s3: string, dataDir: string, env: NodeJS.ProcessEnv, zones: readonly string[]): Promise<number> {
  const store = await openFleetStore({ s3, dataDir, env });
  try {
    let n = 0;
    for (const zone of zones) n += (await verifyStores(store.events, store.audit, store.keys, zone)).zones[0]!.events;
    return n;
  } finally {
    await store.close();
  }
}

/** Polls `check` until it holds (a condition, not a time, is what the test waits for). */
async function until(check: () => Promise<boolean>, what: () => string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`gave up waiting for ${what()}`);
}

/** Resolves once the process has exited, with its signal (a SIGKILL it sent itself) or code. */
function ended(p: Spawned): Promise<string> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) resolve(String(p.child.signalCode ?? p.child.exitCode));
    else p.child.once('exit', (code, signal) => resolve(String(signal ?? code)));
  });
}

if (typeof started === 'string') {
  describe.skip(`leakscan batcher (${started})`, () => {
    it('skipped', () => {});
  });
} else {
  const nats = started;
  const procs: Spawned[] = [];
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  afterAll(() => nats.stop());

  const publish = async (zone: string, exchanges: number): Promise<string[]> => {
    const nc = await connectBus(nats.url, 'test-publisher');
    await ensureEventsStream(nc);
    const pub = new EventPublisher(nc);
    const ids: string[] = [];
    for (let i = 0; i < exchanges; i++) {
      const ev = exchangeEvents(zone, 2);
      ids.push(...ev.map((e) => e.id));
      expect(await pub.events(zone, ev)).toBe(true);
      expect(await pub.outcome(zone, { requestId: ev[0]!.requestId, outcome: 'scanned', truncated: false })).toBe(true);
    }
    await nc.close();
    return ids;
  };

  describe('leakscan batcher on the embedded stores', () => {
    it('kill -9 between a batch and its epoch: the next batcher publishes it, and verify passes', async () => {
      const t = tempDir('leakscan-batcher-');
      cleanup.push(() => t.remove());
      const zone = randomZone();
      await publish(zone, 6);
      const args = ['batcher', '--nats', nats.url, '--data', t.dir, '--batch-size', '4', '--batch-interval', '100'];
      const first = await spawnLeakscan(args, { ...process.env, LEAKSCAN_FAULT_KILL_AFTER_BATCH: '2' });
      procs.push(first);
      expect(await ended(first)).toBe('SIGKILL');
      const broken = await verify(`--data ${t.dir} --format json`);
      expect(broken.code).toBe(1);
      const problems = (JSON.parse(broken.out.slice(0, broken.out.lastIndexOf('}') + 1)) as { zones: { problems: { code: string; batch: number }[] }[] }).zones[0]!.problems;
      expect(problems).toEqual([expect.objectContaining({ code: 'VERIFY_BATCH_WITHOUT_EPOCH', batch: 2 })]);

      const second = await spawnLeakscan(args);
      procs.push(second);
      expect(second.lines).toContain('recovered: published 1 batch left without an epoch');
      // More events while it runs.
      const ids = await publish(zone, 2);
      expect(ids).toHaveLength(4);
      // A clean stop makes one last pass: what the stream holds now is written before it exits.
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      const ok = await verify(`--data ${t.dir} --zone ${zone}`);
      expect(ok.out).toMatch(/events: verified/);
      expect(ok.code).toBe(0);
      // 8 exchanges of 2 events, each once.
      expect(ok.out).toContain(', 16 events: verified');
      expect(ok.out).toContain('8 responses seen, 8 scanned');
      // Four tsx processes (two batchers, two verifies) one after another: past the default 30 s on a
      // loaded 2-core machine.
    }, 180_000);
  });

  describe('leakscan batcher and scan-worker signals', () => {
    it('SIGTERM sent the moment `ready` is printed: a clean exit 0 after the last pass', async () => {
      const t = tempDir('leakscan-batcher-term-');
      cleanup.push(() => t.remove());
      const zone = randomZone();
      await publish(zone, 3);
      // A pass interval far longer than the test: what gets written is the last pass's doing, or the first's.
      const batcher = await spawnLeakscan(['batcher', '--nats', nats.url, '--data', t.dir, '--batch-interval', '3600000']);
      procs.push(batcher);
      batcher.child.kill('SIGTERM');
      expect(await ended(batcher)).toBe('0');
      // Other tests' zones share the stream: this zone's part is what verify counts below.
      expect(batcher.stderr()).toMatch(/stopped: \d+ events in \d+ batches written/);
      const ok = await verify(`--data ${t.dir} --zone ${zone}`);
      expect(ok.out).toContain('3 responses seen, 3 scanned');
      expect(ok.code).toBe(0);

      const worker = await spawnLeakscan(['scan-worker', '--nats', nats.url, '--workers', '1']);
      procs.push(worker);
      worker.child.kill('SIGTERM');
      expect(await ended(worker)).toBe('0');
      expect(worker.stderr()).toContain('stopped: ');
    }, 120_000);
  });

  // Ceph RGW: one bucket for batches and the audit log, two batcher processes competing.
  let rgw: Rgw | string;
  try {
    rgw = await startRgw(90_000);
  } catch (e) {
    rgw = `Ceph RGW could not start here: ${(e as Error).message}`;
    console.log(`[fleet] RGW part skipped: ${rgw}`);
  }
  if (typeof rgw === 'string') {
    describe.skip(`leakscan batcher on Ceph RGW (${rgw})`, () => {
      it('skipped', () => {});
    });
  } else {
    const store = rgw;
    afterAll(() => store.stop());
    describe('leakscan batcher on Ceph RGW', () => {
      it('one batcher killed between batch and epoch, two more competing on one bucket: verify --s3 passes', async () => {
        const t = tempDir('leakscan-batcher-s3-');
        cleanup.push(() => t.remove());
        ensureSigningKey(t.dir);
        const admin = new S3Client({ endpoint: store.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey } });
        const name = `fleet-${Date.now()}`;
        await admin.send(new CreateBucketCommand({ Bucket: name }));
        admin.destroy();
        const env = { ...process.env, AWS_ACCESS_KEY_ID: store.accessKeyId, AWS_SECRET_ACCESS_KEY: store.secretAccessKey };
        const s3 = `${store.endpoint}/${name}?if-match=unquoted`;
        const zones = [randomZone(), randomZone()];
        const sent = (await Promise.all(zones.map((z) => publish(z, 10)))).flat();
        const args = ['batcher', '--nats', nats.url, '--s3', s3, '--data', t.dir, '--batch-size', '3', '--batch-interval', '100'];
        // The first is killed after writing its second batch, before that batch's epoch.
        const killed = await spawnLeakscan(args, { ...env, LEAKSCAN_FAULT_KILL_AFTER_BATCH: '2' });
        procs.push(killed);
        expect(await ended(killed)).toBe('SIGKILL');
        // Two more compete for the rest (and repair the killed one's batch), while more events come.
        const [a, b] = await Promise.all([spawnLeakscan(args, env), spawnLeakscan(args, env)]);
        procs.push(a!, b!);
        sent.push(...(await publish(zones[0]!, 3)));
        let have = 0;
        await until(async () => (have = await storedEvents(s3, t.dir, env, zones)) === sent.length, () => `${sent.length} events stored (${have} are); batcher stderr: ${a!.stderr().slice(-1000)} ${b!.stderr().slice(-1000)}`);
        a!.child.kill('SIGTERM');
        b!.child.kill('SIGTERM');
        expect(await a!.exited).toBe(0);
        expect(await b!.exited).toBe(0);
        expect([...a!.lines, ...b!.lines].filter((l) => l.startsWith('recovered:'))).toHaveLength(1);
        // A third batcher finds nothing left to repair or to write.
        const last = await spawnLeakscan(args, env);
        procs.push(last);
        expect(last.lines).not.toContainEqual(expect.stringMatching(/^recovered/));
        last.child.kill('SIGTERM');
        expect(await last.exited).toBe(0);
        const report = await verify(`--s3 '${s3}' --data ${t.dir} --format json`, env);
        const json = JSON.parse(report.out.slice(0, report.out.lastIndexOf('}') + 1)) as { ok: boolean; zones: { zone: string; events: number; problems: unknown[] }[] };
        expect(json.zones.flatMap((z) => z.problems)).toEqual([]);
        expect(json.ok).toBe(true);
        expect(report.code).toBe(0);
        // Every event exactly once: 2 per exchange, 23 exchanges. (The stream is shared with the test
        // above, so its zone is batched here too.)
        expect(json.zones.filter((z) => zones.includes(z.zone)).reduce((n, z) => n + z.events, 0)).toBe(sent.length);
        expect(sent.length).toBe(46);
      }, 240_000);
    });
  }
}
