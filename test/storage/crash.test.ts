/**
 * Durability: a real writer process is killed with SIGKILL at random moments mid-write, many times.
 * After each kill the bucket is reopened: every acknowledged write is there, byte for byte, and no
 * object is torn (each listed object's bytes match its size and etag).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBucket } from '../../src/storage/index.js';
import { apply, md5, op, stateAfter } from './fixtures/crash-ops.js';

const dir = mkdtempSync(join(tmpdir(), 'leakscan-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runAndKill(start: number, killAfterAcks: number, extraMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/crash-writer.ts'), dir, String(start)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let acked = start;
    let buf = '';
    let killing = false;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('ack ')) acked = Number(line.slice(4)) + 1;
        if (!killing && acked - start >= killAfterAcks) {
          killing = true;
          // Land the kill at an arbitrary point inside a later write.
          setTimeout(() => child.kill('SIGKILL'), extraMs);
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited on its own (${signal ?? _code})`));
      else resolve(acked);
    });
  });
}

describe('crash safety (kill -9 of a writing process)', () => {
  it('keeps every acknowledged write and never shows a torn object', async () => {
    let next = 0;
    const rounds = 12;
    for (let round = 0; round < rounds; round++) {
      const acked = await runAndKill(next, 3 + ((round * 5) % 9), (round * 7) % 13);
      // The op after the last ack may or may not have landed: the writer is sequential.
      const before = stateAfter(acked);
      const after = new Map(before);
      apply(after, op(acked));
      const bucket = await openBucket({ dir, minPartSize: 50 });
      try {
        const listed = await bucket.list();
        const keys = listed.objects.map((o) => o.key);
        const possibleKeys = new Set([...before.keys(), ...after.keys()]);
        for (const k of keys) expect(possibleKeys, `unexpected key ${k}`).toContain(k);
        for (const k of possibleKeys) {
          const o = await bucket.get(k);
          const a = before.get(k);
          const b = after.get(k);
          if (o === null) {
            expect(a === undefined || b === undefined, `acknowledged ${k} is missing (round ${round})`).toBe(true);
            continue;
          }
          const got = Buffer.from(await o.arrayBuffer());
          expect(got.length, `torn ${k}`).toBe(o.size);
          const digest = md5(got);
          const ok = (a !== undefined && md5(a) === digest) || (b !== undefined && md5(b) === digest);
          expect(ok, `${k} holds neither the acknowledged nor the in-flight value (round ${round})`).toBe(true);
          if (!o.etag.includes('-')) expect(o.etag).toBe(digest);
          else expect(o.etag).toMatch(/^[0-9a-f]{32}-3$/);
        }
        // Settle the in-flight op so the next round starts from stateAfter(acked + 1).
        const pending = op(acked);
        if (pending.kind === 'delete') await bucket.delete(pending.key);
        else await bucket.put(pending.key, pending.kind === 'put' ? pending.body : Buffer.concat(pending.parts));
      } finally {
        await bucket.close();
      }
      // A reopen sweeps what the dead writer left behind: no temp files survive.
      expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
      next = acked + 1;
    }
  }, 60_000);
});
