import { describe, expect, it } from 'vitest';
import { buildJsonReport, createReporter, kReportFormats, ndjsonLines, summaryLine, textLines, type JsonReport } from '../../src/report/index.js';
import { finding, kRawValue, report, results, Sink } from './fixtures.js';

async function render(format: (typeof kReportFormats)[number]) {
  const out = new Sink();
  const reporter = createReporter(format, out, { toolVersion: '9.9.9' });
  for (const r of results()) await reporter.add(r);
  await reporter.error({ path: 'secret/unreadable.txt', code: 'SDD_ERR_INPUT', message: 'permission denied (EACCES)' });
  const summary = await reporter.end({ durationMs: 1234 });
  return { text: out.text, summary, out };
}

describe('every format', () => {
  it.each(kReportFormats)('%s never writes a field other than the public finding fields', async (format) => {
    const { text } = await render(format);
    expect(text).not.toContain(kRawValue);
    expect(text).toContain('sk_live_********************Hf6');
  });

  it.each(kReportFormats)('%s counts the same summary', async (format) => {
    const { summary } = await render(format);
    expect(summary).toEqual({ files: 3, filesWithFindings: 2, findings: 3, bytesScanned: 200, bytesReceived: 300, skipped: 1, truncated: 1, errors: 1, durationMs: 1234 });
  });

  it.each(kReportFormats)('%s does not end the stream it was given', async (format) => {
    const { out } = await render(format);
    expect(out.writableEnded).toBe(false);
  });
});

describe('ndjson', () => {
  it('writes one line per finding with exactly the interface keys, in order', async () => {
    const { text } = await render('ndjson');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(Object.keys(JSON.parse(line))).toEqual(['path', 'ruleId', 'description', 'tags', 'start', 'end', 'redacted', 'confidence']);
    }
    expect(JSON.parse(lines[2]!)).toEqual({
      path: '-', ruleId: 'credit-card', description: 'Description of credit-card', tags: ['financial-information', 'card'], start: 5, end: 24, redacted: '************1111', confidence: 'high',
    });
  });

  it('writes each line as JSON.stringify of the path and public finding, even when one rule id comes with other text', () => {
    const odd = (s: string): string => `${s} "quoted" \\ tab\t nl\n ctl\u0001 é 漢 \u2028 😀`;
    const findings = [
      finding('credit-card', 0, 16, '************1111', ['financial-information', 'card']),
      { ...finding('credit-card', 20, 36, odd('****'), ['financial-information', 'card']), description: odd('another description') },
      finding('credit-card', 40, 56, '************4242', ['financial-information', 'card', 'extra']),
      { ...finding('credit-card', 60, 76, '************0005', ['financial-information', 'card']), confidence: 'medium' as const },
      { ...finding(odd('rule'), 80, 90, '****', [odd('tag')]), confidence: 'low' as const },
    ];
    const path = odd('dir/file.json');
    const expected = findings.map((f) => `${JSON.stringify({ path, ruleId: f.ruleId, description: f.description, tags: f.tags, start: f.start, end: f.end, redacted: f.redacted, confidence: f.confidence })}\n`).join('');
    // Twice: the second time from the rules' cached parts.
    expect(ndjsonLines({ path, report: report(findings) })).toBe(expected);
    expect(ndjsonLines({ path, report: report(findings) })).toBe(expected);
    // Fields past the public ones (an engine bug) are never written.
    const leaky = findings.map((f) => ({ ...f, raw: kRawValue }));
    expect(ndjsonLines({ path, report: report(leaky) })).toBe(expected);
    // A confidence outside the three levels (an engine bug) is still encoded as JSON.
    const odder = [{ ...findings[0]!, confidence: 'toString' as 'high' }];
    expect(JSON.parse(ndjsonLines({ path, report: report(odder) })).confidence).toBe('toString');
  });

  it('writes nothing for a result without findings', () => {
    expect(ndjsonLines({ path: 'a', report: report([]) })).toBe('');
  });

  it('streams: a result is written when added, before end', async () => {
    const out = new Sink();
    const reporter = createReporter('ndjson', out);
    await reporter.add(results()[0]!);
    expect(out.text.split('\n').filter(Boolean)).toHaveLength(2);
  });
});

describe('json', () => {
  it('writes one document with results, per-file notices, errors and the summary', async () => {
    const { text } = await render('json');
    const doc = JSON.parse(text) as JsonReport;
    expect(doc.tool).toEqual({ name: 'leakscan', version: '9.9.9' });
    expect(doc.results.map((r) => r.path)).toEqual(['api/users.json', 'img/logo.png', '-']);
    expect(doc.results[0]!.findings[1]).toEqual({ ruleId: 'stripe-secret-key', description: 'Description of stripe-secret-key', tags: ['secrets'], start: 30, end: 62, redacted: 'sk_live_********************Hf6', confidence: 'high' });
    expect(doc.results[1]!.notices).toEqual([{ code: 'SDD_SKIP_BINARY', message: 'binary content is not scanned: image/png' }]);
    expect(doc.results[2]!.truncated).toBe(true);
    expect(doc.errors).toEqual([{ path: 'secret/unreadable.txt', code: 'SDD_ERR_INPUT', message: 'permission denied (EACCES)' }]);
    expect(doc.summary.findings).toBe(3);
  });

  it('writes each result when it is added, and at the end the same bytes JSON.stringify prints for the whole document', async () => {
    const opts = { toolVersion: '9.9.9' };
    const error = { path: 'secret/unreadable.txt', code: 'SDD_ERR_INPUT', message: 'permission denied (EACCES)' };
    for (const input of [results(), [], [results()[1]!]]) {
      for (const withError of [false, true]) {
        const out = new Sink();
        const reporter = createReporter('json', out, opts);
        for (const r of input) {
          const before = out.text.length;
          await reporter.add(r);
          expect(out.text.length).toBeGreaterThan(before);
        }
        if (withError) await reporter.error(error);
        const summary = await reporter.end({ durationMs: 5 });
        const whole = buildJsonReport(input, withError ? [error] : [], summary, opts);
        expect(out.text).toBe(`${JSON.stringify(whole, null, 2)}\n`);
      }
    }
  });
});

describe('text', () => {
  it('writes path:start-end, rule id, confidence, redacted value and description per finding', () => {
    const lines = textLines(results()[0]!).trimEnd().split('\n');
    expect(lines[0]).toBe('api/users.json:10-30  aws-access-key-id  high  AKIA****************  Description of aws-access-key-id');
    const medium = { ...finding('uk-nhs', 0, 10, '*******789', ['pii', 'gb']), confidence: 'medium' as const };
    expect(textLines({ path: 'a.txt', report: report([medium]) })).toBe('a.txt:0-10  uk-nhs  medium  *******789  Description of uk-nhs\n');
  });

  it('shows notices, except per-file binary skips (counted in the summary)', async () => {
    const { text } = await render('text');
    expect(text).toContain('<stdin>: note SDD_BODY_TRUNCATED: scanned 1048576 of 2000000 bytes');
    expect(text).not.toContain('SDD_SKIP_BINARY');
    expect(text.trimEnd().split('\n').at(-1)).toBe('3 findings in 2 files; 3 files scanned (200 B), 1 binary skipped, 1 truncated, 1 unreadable, 1.2 s');
  });

  it('says so when there is nothing', () => {
    expect(summaryLine({ files: 4, filesWithFindings: 0, findings: 0, bytesScanned: 2048, bytesReceived: 2048, skipped: 0, truncated: 0, errors: 0 })).toBe('no findings; 4 files scanned (2.0 KiB)');
  });

  it('escapes control characters from file names and values, so output cannot drive the terminal', () => {
    const line = textLines({ path: 'evil\n\x1b[2Jname', report: report([finding('x', 0, 3, 'a\x1bb')]) });
    expect(line).not.toMatch(/\x1b/);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toContain('evil\\n\\x1b[2Jname');
  });
});
