import { describe, expect, it } from 'vitest';
import { createReporter, kFingerprintKey, kSarifSchema, SarifBuilder, artifactLocation, type SarifLog } from '../../src/report/index.js';
import type { ScanResult } from '../../src/report/index.js';
import { finding, report, results, Sink } from './fixtures.js';

async function sarif(input: ScanResult[], opts: Parameters<typeof createReporter>[2] = {}): Promise<SarifLog> {
  const out = new Sink();
  const reporter = createReporter('sarif', out, opts);
  for (const r of input) await reporter.add(r);
  await reporter.end();
  return JSON.parse(out.text) as SarifLog;
}

function fingerprints(log: SarifLog): string[] {
  return log.runs[0]!.results.map((r) => r.partialFingerprints[kFingerprintKey]!);
}

describe('sarif', () => {
  it('is a SARIF 2.1.0 log whose results point at the rules that fired', async () => {
    const log = await sarif(results(), { toolVersion: '1.2.3' });
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe(kSarifSchema);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('leakscan');
    expect(run.tool.driver.version).toBe('1.2.3');
    const ids = run.tool.driver.rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(['aws-access-key-id', 'credit-card', 'stripe-secret-key']);
    for (const r of run.results) {
      expect(run.tool.driver.rules[r.ruleIndex]!.id).toBe(r.ruleId);
      expect(r.level).toBe('error');
      expect(r.rank).toBe(85);
      expect(r.properties).toEqual({ confidence: 'high' });
      expect(r.message.text).toContain(r.ruleId === 'credit-card' ? '************1111' : '*');
      expect(r.locations).toHaveLength(1);
    }
    const card = run.tool.driver.rules.find((r) => r.id === 'credit-card')!;
    expect(card.shortDescription.text).toBe('Description of credit-card');
    expect(card.properties.tags).toEqual(['financial-information', 'card']);
  });

  it('maps each confidence to a level and a rank, and keeps the fingerprint of the value', async () => {
    const at = (confidence: 'high' | 'medium' | 'low') => ({ ...finding('uk-nhs', 0, 10, '*******789', ['pii', 'gb']), confidence });
    const levels = ['high', 'medium', 'low'] as const;
    const run = (await sarif(levels.map((c, i) => ({ path: `f${i}.txt`, report: report([at(c)]) })))).runs[0]!;
    expect(run.results.map((r) => [r.level, r.rank, r.properties.confidence])).toEqual([
      ['error', 85, 'high'],
      ['warning', 50, 'medium'],
      ['note', 15, 'low'],
    ]);
    for (const r of run.results) {
      expect(r.rank).toBeGreaterThanOrEqual(0);
      expect(r.rank).toBeLessThanOrEqual(100);
    }
    // The same value in the same file is one alert whatever level it was found at.
    const again = (await sarif([{ path: 'f0.txt', report: report([at('medium')]) }])).runs[0]!;
    expect(again.results[0]!.partialFingerprints).toEqual(run.results[0]!.partialFingerprints);
    // A rule's default level is that of its best finding.
    const rules = (await sarif([], { rules: [{ id: 'a', description: 'A', tags: [] }, { id: 'b', description: 'B', tags: [], confidence: 'medium' }] })).runs[0]!.tool.driver.rules;
    expect(rules.map((r) => r.defaultConfiguration.level)).toEqual(['error', 'warning']);
  });

  it('gives byte regions and relative URIs, stdin as "stdin"', async () => {
    const run = (await sarif(results())).runs[0]!;
    const loc = (i: number) => run.results[i]!.locations[0]!.physicalLocation;
    expect(loc(0).artifactLocation).toEqual({ uri: 'api/users.json', uriBaseId: '%SRCROOT%' });
    expect(loc(0).region).toEqual({ byteOffset: 10, byteLength: 20 });
    expect(loc(2).artifactLocation.uri).toBe('stdin');
  });

  it('lists every selected rule when given, fired or not', async () => {
    const rules = [
      { id: 'us-ssn', description: 'US SSN', tags: ['pii', 'us'] },
      { id: 'aws-access-key-id', description: 'AWS', tags: ['secrets', 'aws'] },
    ];
    const run = (await sarif([results()[0]!], { rules })).runs[0]!;
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['us-ssn', 'aws-access-key-id', 'stripe-secret-key']);
    expect(run.results[0]!.ruleIndex).toBe(1);
  });

  it('records notices and unreadable inputs as tool notifications', async () => {
    const b = new SarifBuilder();
    for (const r of results()) b.add(r);
    expect(b.log().runs[0]!.invocations[0]!.executionSuccessful).toBe(true);
    b.error({ path: 'x.txt', code: 'SDD_ERR_INPUT', message: 'permission denied' });
    const inv = b.log().runs[0]!.invocations[0]!;
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications.map((n) => [n.level, n.descriptor.id])).toEqual([
      ['note', 'SDD_SKIP_BINARY'],
      ['note', 'SDD_BODY_TRUNCATED'],
      ['error', 'SDD_ERR_INPUT'],
    ]);
  });

  it('fingerprints are stable across runs and independent of offsets', async () => {
    const a = fingerprints(await sarif(results()));
    const b = fingerprints(await sarif(results()));
    expect(a).toEqual(b);
    for (const f of a) expect(f).toMatch(/^[0-9a-f]{64}$/);
    // The same finding moved further down the file (lines added above) keeps its fingerprint.
    const moved = results().map((r) => ({ ...r, report: { ...r.report, findings: r.report.findings.map((f) => ({ ...f, start: f.start + 500, end: f.end + 500 })) } }));
    expect(fingerprints(await sarif(moved))).toEqual(a);
  });

  it('fingerprints differ for different findings: rule, value, path, or a second identical occurrence', async () => {
    const base = finding('credit-card', 0, 16, '************1111');
    const variants: ScanResult[] = [
      { path: 'a.json', report: report([base]) },
      { path: 'b.json', report: report([base]) },
      { path: 'c.json', report: report([{ ...base, redacted: '************2222' }]) },
      { path: 'd.json', report: report([{ ...base, ruleId: 'other-card' }]) },
      { path: 'e.json', report: report([base, { ...base, start: 40, end: 56 }]) },
    ];
    const fps = fingerprints(await sarif(variants));
    expect(fps).toHaveLength(6);
    expect(new Set(fps).size).toBe(6);
    // Only the position changed: same fingerprint as a.json's card above.
    const again = fingerprints(await sarif([{ path: 'a.json', report: report([{ ...base, start: 99, end: 115 }]) }]));
    expect(again[0]).toBe(fps[0]);
  });

  it('turns paths into URIs', () => {
    expect(artifactLocation('-')).toEqual({ uri: 'stdin' });
    expect(artifactLocation('./dir/my file#1.json')).toEqual({ uri: 'dir/my%20file%231.json', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('/work/repo/src/a.json', '/work/repo')).toEqual({ uri: 'src/a.json', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('/etc/app/a.json', '/work/repo').uri).toBe('file:///etc/app/a.json');
  });

  it('writes results as they come, and the whole log is the one SarifBuilder describes', async () => {
    const error = { path: 'x.txt', code: 'SDD_ERR_INPUT', message: 'permission denied' };
    const rules = [{ id: 'us-ssn', description: 'US SSN', tags: ['pii'] }];
    for (const input of [results(), [], [results()[1]!]]) {
      for (const opts of [{}, { baseDir: '/work/repo', rules, toolVersion: '1.0.0' }]) {
        const out = new Sink();
        const reporter = createReporter('sarif', out, opts);
        const builder = new SarifBuilder(opts);
        for (const r of input) {
          const before = out.text.length;
          await reporter.add(r);
          builder.add(r);
          // A result with findings is written at once; one without only adds to the notifications.
          if (r.report.findings.length > 0) expect(out.text.length).toBeGreaterThan(before);
        }
        await reporter.error(error);
        builder.error(error);
        await reporter.end();
        const log = JSON.parse(out.text) as SarifLog;
        expect(log).toEqual(builder.log());
        expect(Object.keys(log.runs[0]!)).toContain('results');
      }
    }
  });

  it('records the base directory as %SRCROOT%', async () => {
    const run = (await sarif([], { baseDir: '/work/repo' })).runs[0]!;
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///work/repo/' } });
  });
});
