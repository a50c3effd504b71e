/**
 * Coverage and per-event proofs end to end: responses of each kind through the proxy are counted in
 * the zone's signed batches (and a zone nobody configured is not), `leakscan verify` prints them, and
 * one event is proven through the API and `leakscan verify --event`, a tampered proof failing with its code.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../src/audit/index.js';
import { TokenStore } from '../../src/api/index.js';
import { managedRuleset } from '../../src/rules/index.js';
import { LocalScanner } from '../../src/scanner.js';
import { checkEventProof, createEventProofHandler, zoneIdOfHost, type LogEvent } from '../../src/eventlog/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { openBucket } from '../../src/storage/index.js';
import type { InclusionProof } from '../../src/proofs/index.js';
import { runCli } from '../cli/helpers.js';
import { bodies, deploy, get, plant, readBatches, startOrigin, tempDir, type Origin } from './helpers.js';

const planted = plant();
const host = 'shop.example';
const zone = zoneIdOfHost(host);
let origin: Origin;
const d = tempDir('leakscan-coverage-');
let svc: ServeHandle;
let event: LogEvent;
let apiProof: InclusionProof;

beforeAll(async () => {
  origin = await startOrigin(bodies(planted), planted);
  svc = await startServe({
    dataDir: d.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url,
    createScanner: async () => new LocalScanner({ allRules: true }),
    batch: { intervalMs: 20 }, onError: () => {},
  });
  // Deployed on everything but /settings.html: that response is filtered by the expression.
  const res = await fetch(`${svc.api.url}/zones/${zone}/rulesets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'default', kind: 'zone', phase: 'http_response_firewall_managed',
      rules: [{ action: 'execute', expression: 'http.request.uri.path ne "/settings.html"', action_parameters: { id: managedRuleset.id } }],
    }),
  });
  expect(res.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await origin?.close();
  d.remove();
});

/** The real in-thread scanner behind a gate: nothing is scanned until `open()`. */
class GatedScanner extends LocalScanner {
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));
  open(): void {
    this.#open();
  }
  override async analyze(...args: Parameters<LocalScanner['analyze']>): ReturnType<LocalScanner['analyze']> {
    await this.#gate;
    return super.analyze(...args);
  }
}

describe('coverage when the scanner cannot keep up', () => {
  it('counts bodies refused by the backlog budget and by its queue, beside the ones scanned', async () => {
    const dir = tempDir('leakscan-coverage-bound-');
    const scanner = new GatedScanner({ allRules: true });
    const z = '22222222222222222222222222222222';
    const s = await startServe({
      dataDir: dir.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, zones: { defaultZone: z },
      createScanner: async () => scanner, batch: { intervalMs: 20 }, backlog: { maxBytes: 256 * 1024, maxJobs: 1, concurrency: 1 }, onError: () => {},
    });
    try {
      await deploy(s.api.url, s.admin.token, z);
      // One scanning, one waiting, two refused by the queue; then 1 MiB that does not fit the budget.
      for (let i = 0; i < 4; i++) await get(`${s.proxy!.url}/api/user.json`, host);
      await get(`${s.proxy!.url}/big?mb=1`, host);
      await expect.poll(() => s.stats().backlog!.bodiesDropped, { timeout: 10_000 }).toBe(2);
      scanner.open();
      await s.flush();
    } finally {
      scanner.open();
      await s.close();
    }
    const c = (await verifyDataDir(dir.dir)).zones[0]!.coverage;
    dir.remove();
    expect(c).toMatchObject({ seen: 5, scanned: 2, skipped: { queueFull: 2, overBudget: 1, binary: 0, filtered: 0, noBody: 0, failed: 0 } });
  }, 60_000);

  it('counts a failed scan as failed, not as scanned', async () => {
    const dir = tempDir('leakscan-coverage-failed-');
    const failing = new LocalScanner({ allRules: true });
    failing.analyze = () => Promise.reject(new Error('worker timed out'));
    const z = '33333333333333333333333333333333';
    const s = await startServe({
      dataDir: dir.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, zones: { defaultZone: z },
      createScanner: async () => failing, batch: { intervalMs: 20 }, onError: () => {},
    });
    try {
      await deploy(s.api.url, s.admin.token, z);
      await get(`${s.proxy!.url}/api/user.json`, host);
      await s.flush();
    } finally {
      await s.close();
    }
    const c = (await verifyDataDir(dir.dir)).zones[0]!.coverage;
    dir.remove();
    expect(c).toMatchObject({ seen: 1, scanned: 0, skipped: { failed: 1 } });
  }, 60_000);
});

describe('coverage and proofs', () => {
  it('counts every response of a configured zone once, by what became of it', async () => {
    const p = svc.proxy!.url;
    expect((await get(`${p}/api/user.json`, host)).status).toBe(200); // scanned, a finding
    expect((await get(`${p}/nope`, host)).status).toBe(404); // scanned, nothing found
    await get(`${p}/big?mb=2`, host); // scanned, truncated at the cap
    await get(`${p}/settings.html`, host); // filtered by the expression
    await get(`${p}/echo`, host, { method: 'POST', body: Buffer.from('x') }); // application/octet-stream
    await get(`${p}/api/user.json`, host, { method: 'HEAD' }); // no body
    await get(`${p}/api/user.json`, 'unconfigured.example'); // a zone without an entry point
    await svc.flush();
    // The counts arrive as each response's fate is known; a last flush writes any left.
    await new Promise((r) => setTimeout(r, 100));
    await svc.flush();
    const batches = await readBatches(d.dir);
    expect([...batches.keys()].every((k) => k.startsWith(`events/${zone}/`))).toBe(true);
    const header = (k: string) => JSON.parse(batches.get(k)!.bytes.toString().split('\n')[0]!) as { coverage: Record<string, unknown> };
    const sum = { seen: 0, scanned: 0, truncated: 0, binary: 0, filtered: 0, noBody: 0 };
    for (const k of batches.keys()) {
      const c = header(k).coverage as { seen: number; scanned: number; truncated: number; skipped: Record<string, number> };
      sum.seen += c.seen;
      sum.scanned += c.scanned;
      sum.truncated += c.truncated;
      sum.binary += c.skipped['binary']!;
      sum.filtered += c.skipped['filtered']!;
      sum.noBody += c.skipped['noBody']!;
    }
    expect(sum).toEqual({ seen: 6, scanned: 3, truncated: 1, binary: 1, filtered: 1, noBody: 1 });
    event = [...batches.values()].flatMap((b) => b.events).find((e) => e.path === '/api/user.json' && e.ruleId.startsWith('card-'))!;
    expect(event).toBeDefined();
  }, 60_000);

  it('serves one event with its proof to a token that may read the zone, in the v4 envelope', async () => {
    const url = `${svc.api.url}/zones/${zone}/security/events/${event.id}/proof`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${svc.admin.token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; result: { event: LogEvent; proof: InclusionProof } };
    expect(body.success).toBe(true);
    expect(body.result.event).toEqual(event);
    apiProof = body.result.proof;
    // Only this event's line travels, with hashes: not another event, not the header's counts.
    expect(JSON.stringify(body)).not.toContain('"coverage"');
    expect(apiProof.leaf).toBe(JSON.stringify(event));
    const checked = checkEventProof(apiProof, [{ public_key: svc.publicKey, not_before: 0 }], { zone, id: event.id });
    expect(checked.valid).toBe(true);

    expect((await fetch(url)).status).toBe(400); // no token: 9106
    expect((await fetch(url, { headers: { authorization: `Bearer ${'x'.repeat(40)}` } })).status).toBe(403);
    const missing = await fetch(`${svc.api.url}/zones/${zone}/security/events/${'0'.repeat(32)}-0/proof`, { headers: { authorization: `Bearer ${svc.admin.token}` } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { errors: { code: number; message: string }[] }).errors[0]).toMatchObject({ code: 10003, message: expect.stringContaining('SDD_ERR_EVENT_NOT_FOUND') });
    expect((await fetch(`${svc.api.url}/zones/${zone}/security/events/nope/proof`, { headers: { authorization: `Bearer ${svc.admin.token}` } })).status).toBe(400);
  });

  it('prints coverage per zone in leakscan verify, once the service is stopped', async () => {
    await svc.close();
    const report = await verifyDataDir(d.dir);
    expect(report.ok).toBe(true);
    expect(report.zones.map((z) => z.zone)).toEqual([zone]);
    expect(report.zones[0]!.coverage).toMatchObject({ seen: 6, scanned: 3, truncated: 1 });
    const r = await runCli(['verify', '--data', d.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/coverage .* 6 responses seen, 3 scanned \(1 truncated\), 3 skipped \(over budget 0, binary 1, filtered by the zone's rules 1, no body 1, queue full 0, scan failed 0\)/);
  });

  it('verify --event proves the event; a tampered proof fails with a stable code', async () => {
    const proven = await runCli(['verify', '--data', d.dir, '--event', event.id, '--format', 'json']);
    expect(proven.code, proven.stderr).toBe(0);
    const out = JSON.parse(proven.stdout) as { ok: boolean; event: LogEvent; proof: InclusionProof };
    expect(out.ok).toBe(true);
    expect(out.event.id).toBe(event.id);
    const text = await runCli(['verify', '--data', d.dir, '--event', event.id]);
    expect(text.stdout).toContain(`proven: epoch ${out.proof.epoch} of events.${zone}`);

    // A third party: only the file and the public key.
    const file = join(d.dir, 'proof.json');
    writeFileSync(file, JSON.stringify(out));
    const ok = await runCli(['verify', '--proof', file, '--public-key', svc.publicKey, '--event', event.id]);
    expect(ok.code, ok.stderr).toBe(0);
    const tampered: [string, unknown, string][] = [
      ['the event', { ...out.proof, leaf: out.proof.leaf.replace(`"status":200`, `"status":201`) }, 'SDD_ERR_PROOF_PATH'],
      ['a path hash', { ...out.proof, path: out.proof.path.map((h, i) => (i === 0 ? h.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) : h)) }, 'SDD_ERR_PROOF_PATH'],
      ['the epoch record', { ...out.proof, record: { ...out.proof.record, timestamp: out.proof.record.timestamp + 1 } }, 'SDD_ERR_PROOF_SIGNATURE'],
      ['the id asked about', out.proof, 'SDD_ERR_PROOF_EVENT'],
    ];
    for (const [what, proof, code] of tampered) {
      writeFileSync(file, JSON.stringify(proof));
      const r = await runCli(['verify', '--proof', file, '--public-key', svc.publicKey, '--event', what === 'the id asked about' ? `${'0'.repeat(32)}-9` : event.id]);
      expect(r.code, what).toBe(1);
      expect(r.stderr, what).toContain(code);
    }
    const unknown = await runCli(['verify', '--data', d.dir, '--event', `${'0'.repeat(32)}-0`]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SDD_ERR_EVENT_NOT_FOUND');
  });

  it("gives the proof only to a token of the event's zone", async () => {
    const tokens = new TokenStore(join(d.dir, 'scoped'));
    const audit = await openAuditLog(d.dir);
    const bucket = await openBucket({ dir: join(d.dir, 'events') });
    const handler = createEventProofHandler({ bucket, log: audit.log, tokens, onError: () => {} });
    const server = createServer((req, res) => void handler(req, res).then((mine) => mine || res.writeHead(418).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4/zones/${zone}/security/events/${event.id}/proof`;
      const mine = await tokens.create({ name: 'mine', zones: [zone], permission: 'read' });
      const other = await tokens.create({ name: 'other', zones: ['f'.repeat(32)], permission: 'edit' });
      const ok = await fetch(base, { headers: { authorization: `Bearer ${mine.token}` } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { result: { proof: InclusionProof } }).result.proof).toEqual(apiProof);
      const refused = await fetch(base, { headers: { authorization: `Bearer ${other.token}` } });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(10000);
      expect((await fetch(base.replace('/proof', '/other'))).status).toBe(418);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await tokens.close();
      await bucket.close();
      await audit.close();
    }
  });
});
