/**
 * `leakscan audit …` against the real server, and the scripted check (scripts/audit-check.ts) run as a
 * separate process: a record fetched over B1 verifies with only the published key.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditServer, EpochRecord } from '../../src/audit/index.js';
import { runCli } from '../cli/helpers.js';
import { digestOf, startIn, tempDir } from './helpers.js';

const data = tempDir('leakscan-audit-cli-');
const empty = tempDir('leakscan-audit-cli-empty-');
let server: AuditServer;
const conn = () => ['--url', server.url, '--data', data.dir];

beforeAll(async () => {
  server = await startIn(data.dir);
});
afterAll(async () => {
  await server?.close();
  data.remove();
  empty.remove();
});

describe('leakscan audit', () => {
  it('creates a namespace, publishes, gets and verifies epochs', async () => {
    const created = await runCli(['audit', 'namespace', 'create', 'cli.example', ...conn()]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'cli.example', status: 'Initialization' });

    const d1 = digestOf('cli-1');
    const pub = await runCli(['audit', 'publish', 'cli.example', '1', d1.toUpperCase(), ...conn()]);
    expect(pub.code, pub.stderr).toBe(0);
    const rec = JSON.parse(pub.stdout) as EpochRecord;
    expect(rec).toMatchObject({ namespace: 'cli.example', epoch: 1, digest: d1 });
    expect(typeof rec.key_id).toBe('number');

    const got = await runCli(['audit', 'get', 'cli.example', '1', ...conn()]);
    expect(got.code).toBe(0);
    const { key_id: _k, ...read } = rec;
    expect(JSON.parse(got.stdout)).toEqual(read);
    expect(JSON.parse((await runCli(['audit', 'get', 'cli.example', ...conn()])).stdout)).toEqual(read);

    const ok = await runCli(['audit', 'verify', 'cli.example', '1', ...conn()]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^valid: cli\.example epoch 1 digest [0-9a-f]{64} signed by [0-9a-f]{64}\n$/);

    const key = server.log.info().keys[0]!.public_key;
    expect((await runCli(['audit', 'verify', 'cli.example', '1', '--public-key', key, ...conn()])).code).toBe(0);
    // A valid key that did not sign it, and a tampered saved record, do not verify.
    const wrong = await runCli(['audit', 'verify', 'cli.example', '1', '--public-key', '606a878700158d92b3a14a0fd37ec82e0f05f92fcf23146abfda2e3a2f10a9bc', ...conn()]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/^NOT valid: /);
    const saved = join(empty.dir, 'record.json');
    writeFileSync(saved, JSON.stringify({ ...read, timestamp: read.timestamp + 1 }));
    expect((await runCli(['audit', 'verify', 'cli.example', '--record', saved, '--public-key', key])).code).toBe(1);
    writeFileSync(saved, JSON.stringify(read));
    expect((await runCli(['audit', 'verify', 'cli.example', '--record', saved, '--public-key', key])).code).toBe(0);
    // A record of another namespace is not accepted for this one.
    expect((await runCli(['audit', 'verify', 'other.example', '--record', saved, '--public-key', key])).code).toBe(1);

    const listed = await runCli(['audit', 'namespaces', ...conn()]);
    expect(JSON.parse(listed.stdout).namespaces).toEqual([expect.objectContaining({ name: 'cli.example', latest_epoch: 1, status: 'Online' })]);
  });

  it('reports the log\'s refusals (exit 1) apart from usage errors (exit 2)', async () => {
    await runCli(['audit', 'namespace', 'create', 'refuse.example', ...conn()]);
    expect((await runCli(['audit', 'publish', 'refuse.example', '1', digestOf('r1'), ...conn()])).code).toBe(0);
    const again = await runCli(['audit', 'publish', 'refuse.example', '1', digestOf('r1'), ...conn()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('HTTP 409 AUDIT_ERR_EPOCH_EXISTS');
    const missing = await runCli(['audit', 'get', 'refuse.example', '7', ...conn()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('HTTP 404 AUDIT_ERR_EPOCH_NOT_FOUND');

    const disabled = await runCli(['audit', 'namespace', 'disable', 'refuse.example', ...conn()]);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ status: 'Disabled' });
    const ro = await runCli(['audit', 'publish', 'refuse.example', '2', digestOf('r2'), ...conn()]);
    expect(ro.code).toBe(1);
    expect(ro.stderr).toContain('Namespace is disabled and read-only.');

    // No owner certificate in an empty data directory: a usage error, and nothing is sent.
    const noCert = await runCli(['audit', 'publish', 'refuse.example', '2', digestOf('r2'), '--url', server.url, '--data', empty.dir, '--ca', server.material.tls.ca]);
    expect(noCert.code).toBe(2);
    expect(noCert.stderr).toContain('no client certificate');
    expect((await runCli(['audit', 'publish', 'refuse.example', '0', digestOf('r2'), ...conn()])).code).toBe(2);
    expect((await runCli(['audit', 'publish', 'refuse.example', '2', 'abc', ...conn()])).code).toBe(2);
    expect((await runCli(['audit', 'get', 'refuse.example', '1', '--url', 'http://127.0.0.1:1'])).code).toBe(2);
  });
});

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../../scripts/audit-check.ts'), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('scripts/audit-check.ts', () => {
  it('self-contained: publishes over mTLS, then verifies the B1 record with only the published key', async () => {
    const r = await runScript([]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('ok   signature verifies with only the published key');
    expect(r.stdout).toContain('ok   a tampered copy does not verify');
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toEqual({ ok: true, checks: 6, failed: [] });
  });

  it('against a running log: passes with its key, fails with a key given out of band that did not sign', async () => {
    await runCli(['audit', 'namespace', 'create', 'script.example', ...conn()]);
    await runCli(['audit', 'publish', 'script.example', '1', digestOf('s1'), ...conn()]);
    const base = ['--url', server.url, '--ca', server.material.tls.ca, '--namespace', 'script.example', '--epoch', '1'];
    const good = await runScript(base);
    expect(good.code, good.stdout + good.stderr).toBe(0);
    const bad = await runScript([...base, '--public-key', '606a878700158d92b3a14a0fd37ec82e0f05f92fcf23146abfda2e3a2f10a9bc']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL signature verifies with only the published key');
  });
});
