/**
 * Shared by the fleet suites: a nats-server started once per file (or the reason it could not be),
 * the serve-shaped data directory batchers write to (DIR/events, DIR/audit/log, so `verifyDataDir`
 * reads it as it reads a stopped `serve`), and synthetic events.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AuditLog, openAuditLog } from '../../src/audit/index.js';
import type { PendingEvent } from '../../src/eventlog/index.js';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';
import { startNats, type Nats, type NatsOptions } from '../support/nats.js';

/** nats-server, or why it is not here (the suites skip with the reason printed). */
export async function natsOrReason(options: NatsOptions = {}): Promise<Nats | string> {
  try {
    const nats = await startNats(options);
    console.log(`[fleet] nats-server up in ${nats.startMs} ms at ${nats.url}`);
    return nats;
  } catch (e) {
    const why = `nats-server could not start here: ${(e as Error).message}`;
    console.log(`[fleet] suite skipped: ${why}`);
    return why;
  }
}

export interface DataDir {
  events: LocalBucket;
  audit: Awaited<ReturnType<typeof openAuditLog>>;
  /** Another AuditLog on the same store, as a second batcher process would hold. */
  secondLog(): AuditLog;
  close(): Promise<void>;
}

export async function openDataDir(dir: string): Promise<DataDir> {
  const audit = await openAuditLog(dir);
  const events = await openBucket({ dir: join(dir, 'events') });
  const s = audit.material.signing;
  return {
    events,
    audit,
    secondLog: () => new AuditLog({ bucket: audit.bucket, signer: s.signer, keys: s.keys, notBefore: s.notBefore }),
    close: async () => {
      await events.close();
      await audit.close();
    },
  };
}

export const randomZone = (): string => randomBytes(16).toString('hex');

/** `n` events of one exchange with a fresh request id, as the proxy makes them (already redacted). */
export function exchangeEvents(zone: string, n: number, requestId = randomBytes(16).toString('hex')): PendingEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${requestId}-${i}`,
    timestamp: new Date().toISOString(),
    zone,
    action: 'log' as const,
    rulesetId: 'e22d83c647c64a3eae91b71b499d988e',
    ruleId: 'card-visa',
    description: 'Visa payment card number',
    tags: ['financial-information'],
    host: 'shop.example',
    method: 'GET',
    path: '/account',
    status: 200,
    contentType: 'application/json',
    requestId,
    start: 10 * i,
    end: 10 * i + 16,
    redacted: '************1111',
    confidence: 'high' as const,
  }));
}
