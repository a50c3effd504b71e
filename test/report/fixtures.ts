import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Finding, ScanReport } from '../../src/types.js';
import type { ScanResult } from '../../src/report/index.js';

/** A writable that keeps what was written. */
export class Sink extends Writable {
  chunks: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.chunks.push(chunk.toString('utf8'));
    cb();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

export function finding(ruleId: string, start: number, end: number, redacted: string, tags: string[] = ['secrets']): Finding {
  return { ruleId, description: `Description of ${ruleId}`, tags, start, end, redacted, confidence: 'high' };
}

export function report(findings: Finding[], extra: Partial<ScanReport> = {}): ScanReport {
  return { findings, contentKind: 'json', bytesScanned: 100, bytesSeen: 100, bytesReceived: 100, truncated: false, notices: [], ...extra };
}

/**
 * A raw value as an engine bug might leak it: an extra field on the finding object. No format may
 * write anything but the public fields.
 */
export const kRawValue = syntheticStripeKey();

/**
 * `sk_live_` + 24 random letters and digits, made fresh per run (split so that no secret scanner
 * flags this source file): the shape of Stripe's documented secret keys, never a real one.
 */
export function syntheticStripeKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  return `${'sk_'}${'live_'}${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

export function results(): ScanResult[] {
  const leaky = { ...finding('stripe-secret-key', 30, 62, 'sk_live_********************Hf6'), value: kRawValue } as Finding;
  return [
    { path: 'api/users.json', report: report([finding('aws-access-key-id', 10, 30, 'AKIA****************'), leaky]) },
    { path: 'img/logo.png', report: report([], { contentKind: 'binary', bytesScanned: 0, notices: [{ code: 'SDD_SKIP_BINARY', message: 'binary content is not scanned: image/png' }] }) },
    { path: '-', report: report([finding('credit-card', 5, 24, '************1111', ['financial-information', 'card'])], { truncated: true, notices: [{ code: 'SDD_BODY_TRUNCATED', message: 'scanned 1048576 of 2000000 bytes' }] }) },
  ];
}
