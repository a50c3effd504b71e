/**
 * Finding an event's batch for its proof (`GET …/security/events/{id}/proof`, `leakscan verify
 * --event`): one zone's batches in a local bucket, the events index over them, and the time to find
 * an event of the oldest batch, of a middle one and of the newest, with and without the index's hint.
 * Batches are format 1 (no Merkle tree), so proveEvent stops with SDD_ERR_PROOF_UNAVAILABLE right
 * after finding the event: the time measured is the search alone.
 *
 *   npx tsx bench/event-proof.ts                  # 1,000 batches of 1,000 events (a zone's share of 10M)
 *   npx tsx bench/event-proof.ts --batches 100
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditLog } from '../src/audit/index.js';
import { LeakscanError } from '../src/errors.js';
import { openEventIndex } from '../src/events/index.js';
import { batchHint, batchKey, proveEvent } from '../src/eventlog/index.js';
import { openBucket } from '../src/storage/index.js';
import { Rng } from './prng.js';

const args = process.argv.slice(2);
const at = args.indexOf('--batches');
const batches = at >= 0 ? Number(args[at + 1]) : 1000;
const kPerBatch = 1000;
const zone = '01'.repeat(16);
const rng = new Rng(0x5eed);
const requestOf = (n: number, seq: number): string => `${(rng.u32() >>> 0).toString(16).padStart(8, '0')}${n.toString(16).padStart(12, '0')}${seq.toString(16).padStart(12, '0')}`;

function batchBytes(n: number): { bytes: Buffer; ids: string[] } {
  const ids: string[] = [];
  let text = '';
  for (let seq = 0; seq < kPerBatch; seq++) {
    const req = requestOf(n, seq);
    ids.push(`${req}-0`);
    text += `${JSON.stringify({
      batch: n, seq, id: `${req}-0`, timestamp: new Date(Date.UTC(2026, 0, 1) + (n * kPerBatch + seq) * 1000).toISOString(), zone, action: 'log',
      rulesetId: 'e22d83c647c64a3eae91b71b499d988e', ruleId: 'card-visa', description: 'synthetic', tags: ['pii'], host: 'shop.example', method: 'GET',
      path: `/api/v1/items/${seq % 97}`, status: 200, contentType: 'application/json', requestId: req, start: 10, end: 26, redacted: '************1111', confidence: 'high',
    })}\n`;
  }
  return { bytes: Buffer.from(text), ids };
}

const dir = mkdtempSync(join(tmpdir(), 'leakscan-bench-proof-'));
const bucket = await openBucket({ dir: join(dir, 'events') });
const index = openEventIndex(join(dir, 'events-index.mdb'));
const probes: [string, string][] = [];
try {
  process.stderr.write(`writing ${batches} batches of ${kPerBatch} events…\n`);
  for (let n = 1; n <= batches; n++) {
    const { bytes, ids } = batchBytes(n);
    await bucket.put(batchKey(zone, n), bytes);
    await index.addBatch(zone, n, bytes);
    if (n === 1) probes.push(['oldest batch', ids[500]!]);
    if (n === Math.ceil(batches / 2)) probes.push(['middle batch', ids[500]!]);
    if (n === batches) probes.push(['newest batch', ids[500]!]);
  }
  const noLog = {} as AuditLog;
  const find = async (id: string, hinted: boolean): Promise<{ wall: number; cpu: number }> => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      await proveEvent(bucket, noLog, zone, id, [], hinted ? batchHint(index, zone, id) : {});
      throw new Error('expected SDD_ERR_PROOF_UNAVAILABLE');
    } catch (e) {
      if (!(e instanceof LeakscanError && e.code === 'SDD_ERR_PROOF_UNAVAILABLE')) throw e;
    }
    const c = process.cpuUsage(c0);
    return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const out = [`node ${process.versions.node}; ${batches} batches of ${kPerBatch} events in one zone; median of 5 after a warm-up`, '', '| event in | index hint | wall median ms | CPU median ms |', '|---|---|---|---|'];
  for (const [where, id] of probes) {
    for (const hinted of [false, true]) {
      await find(id, hinted);
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await find(id, hinted));
      out.push(`| ${where} | ${hinted ? 'yes' : 'no'} | ${median(runs.map((r) => r.wall)).toFixed(2)} | ${median(runs.map((r) => r.cpu)).toFixed(2)} |`);
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await index.close();
  await bucket.close();
  rmSync(dir, { recursive: true, force: true });
}
