/**
 * Per-zone thresholds in `leakscan serve`: the pool moves to the lowest level once a zone needs it, each zone keeps the
 * findings at or above its rules' thresholds (`sensitivity_level`), for the body's events and for the
 * masking of the request fields alike, and every stored event carries its confidence and still verifies.
 * A stand-in scanner makes findings of known levels, so the test does not depend on which rules
 * report what at `medium` today.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managedRuleset } from '../../src/index.js';
import { startServe } from '../../src/service/index.js';
import { verifyDataDir } from '../../src/verify/index.js';
import type { PoolScannerOptions } from '../../src/pool/index.js';
import type { BodySource, BodyStream, Confidence, Finding, ScanMeta, ScanReport, Scanner } from '../../src/types.js';
import { allRuleDefs, kConfidenceRank } from '../../src/rules/index.js';
import { get, plant, readBatches, startOrigin, tempDir, type Origin } from './helpers.js';

/**
 * `LABEL-n` is a high finding, `BARE-n` a medium one, `SHAPE-n` a low one, all of rule `uk-nhs`;
 * reported from its `minConfidence` up (default high), as the engine does.
 */
class FakeLevels implements Scanner {
  closed = false;
  constructor(readonly minConfidence: Confidence = 'high') {}
  async analyze(body: BodySource, _meta?: ScanMeta): Promise<ScanReport> {
    const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    const text = bytes.toString('latin1');
    const findings: Finding[] = [];
    const levels: Record<string, Confidence> = { LABEL: 'high', BARE: 'medium', SHAPE: 'low' };
    for (const m of text.matchAll(/(LABEL|BARE|SHAPE)-[0-9]+/g)) {
      if (kConfidenceRank[levels[m[1]!]!] < kConfidenceRank[this.minConfidence]) continue;
      findings.push({ ruleId: 'uk-nhs', description: 'NHS number', tags: ['pii', 'gb'], start: m.index, end: m.index + m[0].length, redacted: `${m[1]}-**`, confidence: levels[m[1]!]! });
    }
    return { findings, contentKind: 'text', bytesScanned: bytes.length, bytesSeen: bytes.length, bytesReceived: bytes.length, truncated: false, notices: [] };
  }
  async analyzeStream(body: BodyStream, meta?: ScanMeta): Promise<ScanReport> {
    const chunks: Uint8Array[] = [];
    for await (const c of body as AsyncIterable<Uint8Array>) chunks.push(c);
    return this.analyze(Buffer.concat(chunks), meta);
  }
  async scan(body: BodySource, meta?: ScanMeta) {
    return (await this.analyze(body, meta)).findings;
  }
  async scanStream(body: BodyStream, meta?: ScanMeta) {
    return (await this.analyzeStream(body, meta)).findings;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const ZA = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaa0001';
const ZB = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbb0002';
const ZC = 'cccccccccccccccccccccccccccc0003';
const body = Buffer.from(JSON.stringify({ a: 'LABEL-1', b: 'BARE-2', c: 'SHAPE-3' }));
const path = '/p/BARE-77.json';
/** A mod-11-valid NHS number without its label (medium, for a rule with context.without), and a labelled one. */
const nhsBody = Buffer.from(JSON.stringify({ ref: '6871775781', patient: { nhsNumber: '6671150664' } }));
let origin: Origin;

beforeAll(async () => {
  origin = await startOrigin({
    [path]: { headers: { 'content-type': 'application/json' }, body, decoded: body },
    '/patient.json': { headers: { 'content-type': 'application/json' }, body: nhsBody, decoded: nhsBody },
  }, plant());
});
afterAll(async () => {
  await origin?.close();
});

async function deploy(apiUrl: string, token: string, zone: string, overrides?: object): Promise<void> {
  const res = await fetch(`${apiUrl}/zones/${zone}/rulesets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'default', kind: 'zone', phase: 'http_response_firewall_managed',
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: managedRuleset.id, ...(overrides === undefined ? {} : { overrides }) } }],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('confidence in leakscan serve', () => {
  it('scans at low, keeps per zone what its sensitivity_level asks for, in events and in masked paths', async () => {
    const d = tempDir('leakscan-confidence-');
    const made: PoolScannerOptions[] = [];
    const scanners: FakeLevels[] = [];
    const svc = await startServe({
      dataDir: d.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url,
      zones: { hosts: { 'a.example': ZA, 'b.example': ZB, 'c.example': ZC } },
      createScanner: async (o) => {
        made.push(o);
        scanners.push(new FakeLevels(o.minConfidence));
        return scanners.at(-1)!;
      },
      batch: { intervalMs: 20 },
      onError: () => {},
    });
    try {
      // At the default level while no zone asks for less.
      expect(made).toEqual([{ allRules: true }]);
      await deploy(svc.api.url, svc.admin.token, ZA);
      await deploy(svc.api.url, svc.admin.token, ZB, { rules: [{ id: 'uk-nhs', sensitivity_level: 'medium' }] });
      await deploy(svc.api.url, svc.admin.token, ZC, { sensitivity_level: 'low' });
      const r = await get(`${svc.proxy!.url}${path}`, 'a.example');
      expect(r.body.equals(body)).toBe(true);
      await svc.flush();
      expect(made).toHaveLength(1);
      // The first zone that keeps medium findings moves the pool to low, once; the high one is closed.
      for (const host of ['b.example', 'c.example']) await get(`${svc.proxy!.url}${path}`, host);
      await svc.flush();
      expect(made).toEqual([{ allRules: true }, { allRules: true, minConfidence: 'low' }]);
      expect(scanners.map((s) => s.closed)).toEqual([true, false]);
    } finally {
      await svc.close();
    }
    const events = [...(await readBatches(d.dir)).values()].flatMap((b) => b.events);
    const of = (zone: string) => events.filter((e) => e.zone === zone);
    expect(of(ZA).map((e) => [e.redacted, e.confidence])).toEqual([['LABEL-**', 'high']]);
    expect(of(ZB).map((e) => [e.redacted, e.confidence])).toEqual([['LABEL-**', 'high'], ['BARE-**', 'medium']]);
    expect(of(ZC).map((e) => [e.redacted, e.confidence])).toEqual([['LABEL-**', 'high'], ['BARE-**', 'medium'], ['SHAPE-**', 'low']]);
    // The path's medium value is masked where the zone keeps medium findings, as the body's are.
    expect(of(ZA)[0]!.path).toBe(path);
    for (const e of [...of(ZB), ...of(ZC)]) {
      expect(e.path).not.toContain('BARE-77');
      expect(e.path).toMatch(/^\/p\/\*{4,}[0-9]{0,2}\.json$/);
    }
    // The confidence is the last field of a line; the batches and their epochs still verify.
    for (const e of events) expect(Object.keys(e).at(-1)).toBe('confidence');
    const report = await verifyDataDir(d.dir);
    expect(report.ok, JSON.stringify(report.zones)).toBe(true);
    expect(report.zones.map((z) => z.zone).sort()).toEqual([ZA, ZB, ZC]);
    d.remove();
  });

  it.skipIf(allRuleDefs.find((r) => r.id === 'uk-nhs')?.context?.without === undefined)('with the engine: a zone with sensitivity_level low on uk-nhs stores a bare number the default zone does not', { timeout: 120_000 }, async () => {
    const d = tempDir('leakscan-confidence-engine-');
    const svc = await startServe({
      dataDir: d.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, workers: 0,
      zones: { hosts: { 'a.example': ZA, 'b.example': ZB } },
      batch: { intervalMs: 20 },
      onError: () => {},
    });
    try {
      await deploy(svc.api.url, svc.admin.token, ZA);
      await deploy(svc.api.url, svc.admin.token, ZB, { rules: [{ id: 'uk-nhs', sensitivity_level: 'low' }] });
      for (const host of ['a.example', 'b.example']) await get(`${svc.proxy!.url}/patient.json`, host);
      await svc.flush();
    } finally {
      await svc.close();
    }
    const events = [...(await readBatches(d.dir)).values()].flatMap((b) => b.events).filter((e) => e.ruleId === 'uk-nhs');
    const at = (offset: number) => nhsBody.indexOf(offset === 0 ? '6871775781' : '6671150664');
    expect(events.filter((e) => e.zone === ZA).map((e) => [e.start, e.confidence])).toEqual([[at(1), 'high']]);
    expect(events.filter((e) => e.zone === ZB).map((e) => [e.start, e.confidence])).toEqual([[at(0), 'medium'], [at(1), 'high']]);
    for (const e of events) expect(JSON.stringify(e)).not.toMatch(/6871775781|6671150664/);
    expect((await verifyDataDir(d.dir)).ok).toBe(true);
    d.remove();
  });
});
