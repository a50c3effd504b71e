/**
 * Atomic and durable: an acknowledged epoch survives a restart of the real server; a publishing process
 * killed with SIGKILL at arbitrary moments leaves each epoch wholly published or absent, never loses an
 * acknowledged one, and the rules still hold afterwards (the bookkeeping it may have lost is repaired).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditError, openAuditLog, verifyRecord, type EpochRecord } from '../../src/audit/index.js';
import { clientsFor, digestOf, post, startIn, tempDir } from './helpers.js';

const other = tempDir('leakscan-audit-other-');
afterAll(() => other.remove());

describe('restart', () => {
  it('keeps acknowledged epochs, the signing key and the TLS material', async () => {
    const data = tempDir('leakscan-audit-restart-');
    try {
      let s = await startIn(data.dir);
      expect(s.material.created.length).toBeGreaterThan(0);
      let c = await clientsFor(s, other.dir);
      await post(c.owner, '/namespaces', { name: 'restart.example' });
      const acked: EpochRecord[] = [];
      for (let e = 1; e <= 3; e++) {
        const r = await post(c.owner, '/namespaces/restart.example/audits', { epoch: e, digest: digestOf(`r${e}`) });
        expect(r.status).toBe(200);
        acked.push(JSON.parse(r.body) as EpochRecord);
      }
      const info = await c.anon.info();
      const files = Object.values(s.material.tls).map((p) => readFileSync(p, 'utf8'));
      const signingKey = readFileSync(s.material.signing.paths.signingKey, 'utf8');
      await s.close();

      s = await startIn(data.dir);
      try {
        expect(s.material.created).toEqual([]);
        expect(Object.values(s.material.tls).map((p) => readFileSync(p, 'utf8'))).toEqual(files);
        expect(readFileSync(s.material.signing.paths.signingKey, 'utf8')).toBe(signingKey);
        c = await clientsFor(s, other.dir);
        expect(await c.anon.info()).toEqual(info);
        for (const rec of acked) {
          const { key_id: _k, ...read } = rec;
          expect(await c.anon.record('restart.example', rec.epoch)).toEqual(read);
        }
        expect(await c.anon.namespace('restart.example')).toMatchObject({ status: 'Online', latest_epoch: 3 });
        const again = await post(c.owner, '/namespaces/restart.example/audits', { epoch: 3, digest: digestOf('r3') });
        expect(again.status).toBe(409);
        expect((await post(c.owner, '/namespaces/restart.example/audits', { epoch: 4, digest: digestOf('r1') })).status).toBe(409);
        expect((await post(c.owner, '/namespaces/restart.example/audits', { epoch: 4, digest: digestOf('r4') })).status).toBe(200);
      } finally {
        await s.close();
      }
    } finally {
      data.remove();
    }
  });

  it('repairs bookkeeping lost between the commit and its follow-up writes', async () => {
    const data = tempDir('leakscan-audit-repair-');
    try {
      const { log, bucket, close } = await openAuditLog(data.dir);
      try {
        await log.createNamespace({ name: 'repair.example' });
        for (let e = 1; e <= 3; e++) await log.publish('repair.example', { epoch: e, digest: digestOf(`p${e}`) });
        // What a crash right after committing epoch 3 leaves: no digest claim, a head hint one behind.
        await bucket.delete(`digests/repair.example/${digestOf('p3')}`);
        await bucket.put('heads/repair.example', JSON.stringify({ epoch: 2 }));
        expect((await log.latest('repair.example')).epoch).toBe(3);
        await expect(log.publish('repair.example', { epoch: 4, digest: digestOf('p3') })).rejects.toMatchObject({ code: 'AUDIT_ERR_DIGEST_REUSED' });
        await expect(log.publish('repair.example', { epoch: 3, digest: digestOf('p9') })).rejects.toMatchObject({ code: 'AUDIT_ERR_EPOCH_EXISTS' });
        await log.publish('repair.example', { epoch: 4, digest: digestOf('p4') });
        // The claim of epoch 3 was rewritten before epoch 4 committed, so it still counts at epoch 5.
        expect(await bucket.head(`digests/repair.example/${digestOf('p3')}`)).not.toBeNull();
        await expect(log.publish('repair.example', { epoch: 5, digest: digestOf('p3') })).rejects.toMatchObject({ code: 'AUDIT_ERR_DIGEST_REUSED' });
        // A missing hint altogether: the latest is found from the first epoch.
        await bucket.delete('heads/repair.example');
        expect((await log.namespace('repair.example')).latest_epoch).toBe(4);
      } finally {
        await close();
      }
    } finally {
      data.remove();
    }
  });
});

function runAndKill(dir: string, killAfterAcks: number, extraMs: number): Promise<{ start: number; acked: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/publisher.ts'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let start = 0;
    let acked = 0;
    let count = 0;
    let buf = '';
    let killing = false;
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('start ')) start = Number(line.slice(6));
        if (line.startsWith('ack ')) {
          acked = Number(line.slice(4));
          count++;
        }
        if (!killing && count >= killAfterAcks) {
          killing = true;
          // Land the kill at an arbitrary point of a later publish.
          setTimeout(() => child.kill('SIGKILL'), extraMs);
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`publisher exited on its own (${signal ?? code})`));
      else resolve({ start, acked });
    });
  });
}

describe('crash (kill -9 of a publishing process)', () => {
  it('leaves every epoch wholly published or absent and loses no acknowledged one', async () => {
    const data = tempDir('leakscan-audit-crash-');
    const ns = 'crash.example';
    const expected = (e: number) => digestOf(`crash-epoch-${e}`);
    try {
      let lastAcked = 0;
      for (let round = 0; round < 6; round++) {
        const { start, acked } = await runAndKill(data.dir, 2 + (round % 4), (round * 3) % 7);
        expect(start, 'each run continues after the last published epoch').toBeGreaterThan(lastAcked);
        lastAcked = acked;

        const { log, close } = await openAuditLog(data.dir);
        try {
          const info = log.info();
          const latest = (await log.latest(ns)).epoch;
          // The publish in flight at the kill may or may not have committed; nothing acknowledged is lost.
          expect(latest).toBeGreaterThanOrEqual(acked);
          expect(latest).toBeLessThanOrEqual(acked + 1);
          for (let e = 1; e <= latest; e++) {
            const rec = await log.record(ns, e);
            expect(rec.digest).toBe(expected(e));
            expect(verifyRecord(rec, info, { namespace: ns, epoch: e })).toMatchObject({ valid: true });
          }
          await expect(log.record(ns, latest + 1)).rejects.toBeInstanceOf(AuditError);
          // Rules still hold over whatever the crash interrupted.
          for (const reused of [1, latest]) {
            await expect(log.publish(ns, { epoch: latest + 1, digest: expected(reused) })).rejects.toMatchObject({ code: 'AUDIT_ERR_DIGEST_REUSED' });
          }
          await expect(log.publish(ns, { epoch: latest, digest: expected(latest + 100) })).rejects.toMatchObject({ code: 'AUDIT_ERR_EPOCH_EXISTS' });
          lastAcked = latest;
        } finally {
          await close();
        }
      }
    } finally {
      data.remove();
    }
  }, 120_000);
});
