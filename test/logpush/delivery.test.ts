/**
 * Delivery on its own: a notice the full queue drops is recovered by the sweep (the stored batches,
 * not the notices, say what to send), and a destination that cannot be sent to is refused at create.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTlsMaterial } from '../../src/audit/index.js';
import { LeakscanError } from '../../src/errors.js';
import { LogpushDelivery } from '../../src/logpush/delivery.js';
import { JobStore, jobFields } from '../../src/logpush/jobs.js';
import { tempDir } from '../serve/helpers.js';

const zone = '0f59463c606c5b0e5d3da81f36e3f7c1';
const dir = tempDir('leakscan-logpush-delivery-');
const got: Array<{ name: string; lines: string[] }> = [];
let receiver: Server;
let url = '';
let ca: Buffer;

function batch(n: number): Uint8Array {
  const e = { batch: n, seq: 0, id: `${'b'.repeat(32)}-${n}`, timestamp: '2026-05-01T12:00:00.000Z', zone, action: 'log', rulesetId: 'r', ruleId: 'card-visa', description: 'd', tags: [], host: 'h', method: 'GET', path: '/', status: 200, contentType: null, requestId: 'b'.repeat(32), start: 0, end: 1, redacted: '****', confidence: 'high' };
  return Buffer.from(`{"version":2,"zone":"${zone}","batch":${n}}\n${JSON.stringify(e)}\n`);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  const tls = await ensureTlsMaterial(join(dir.dir, 'recv'));
  ca = readFileSync(tls.paths.ca);
  receiver = createServer({ cert: readFileSync(tls.paths.server), key: readFileSync(tls.paths.serverKey) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ name: String(req.headers['x-logpush-file']), lines: gunzipSync(Buffer.concat(chunks)).toString().split('\n').filter(Boolean) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
  dir.remove();
});

describe('LogpushDelivery', () => {
  it('recovers dropped notices with the sweep: every published batch arrives, in order', async () => {
    const store = new JobStore(join(dir.dir, 'jobs.json'));
    await store.open();
    await store.create(zone, jobFields({ dataset: 'firewall_events', destination_conf: url, enabled: true }), 0);
    const stored = new Map<number, Uint8Array>();
    let published = 0;
    const delivery = new LogpushDelivery(store, { read: async (_z, n) => stored.get(n) ?? null, published: async () => published }, { ca, queueSize: 0, sweepMs: 20 });
    delivery.start();
    for (let n = 1; n <= 3; n++) {
      stored.set(n, batch(n));
      published = n;
      delivery.notify(zone, n);
    }
    expect(delivery.stats.noticesDropped).toBe(3);
    // The receiver holds file 3 before its answer reaches the sender; close() cuts off a file whose
    // answer is still on the way (it is sent again after the next start), so wait for the cursor.
    await until(() => store.list(zone)[0]!.cursor >= 3, 'the cursor after three files');
    await delivery.close();
    expect(got.map((g) => g.name)).toEqual([1, 2, 3].map((n) => `firewall_events/${zone}/${String(n).padStart(10, '0')}.log.gz`));
    expect(store.list(zone)[0]!.cursor).toBe(3);
    // The cursor was written: a new store on the same file resumes after batch 3.
    const again = new JobStore(join(dir.dir, 'jobs.json'));
    await again.open();
    expect(again.list(zone)[0]!.cursor).toBe(3);
  });

  it('refuses a header parameter Node could never send, when the job is created', () => {
    expect(() => jobFields({ dataset: 'firewall_events', destination_conf: `${url}?header_X-Token=a%0Ab` })).toThrow(LeakscanError);
    expect(() => jobFields({ dataset: 'firewall_events', destination_conf: `${url}?header_X-Token=ok` })).not.toThrow();
  });
});
