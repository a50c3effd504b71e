import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventIndex, type EventIndex } from '../../src/events/index.js';

export const kRuleset = 'e22d83c647c64a3eae91b71b499d988e';

export interface SyntheticEvent {
  at: string;
  ruleId: string;
  host?: string;
  path?: string;
  method?: string;
  status?: number;
}

/** The bytes of a format 1 batch holding `events` (as the service writes them: one JSON line each). */
export function batchOf(zone: string, n: number, events: readonly SyntheticEvent[]): Buffer {
  const lines = events.map((e, seq) =>
    JSON.stringify({
      batch: n, seq, id: `${n.toString(16).padStart(32, '0')}-${seq}`, timestamp: new Date(e.at).toISOString(), zone,
      action: 'log', rulesetId: kRuleset, ruleId: e.ruleId, description: `rule ${e.ruleId}`, tags: [],
      host: e.host ?? 'shop.example', method: e.method ?? 'GET', path: e.path ?? '/api/user.json', status: e.status ?? 200,
      contentType: 'application/json', requestId: `${n.toString(16).padStart(16, '0')}${seq.toString(16).padStart(16, '0')}`,
      start: 0, end: 16, redacted: '************1111', confidence: 'high',
    }),
  );
  return Buffer.from(lines.map((l) => `${l}\n`).join(''));
}

export function tempIndex(): { index: EventIndex; dir: string; remove(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-events-'));
  const index = openEventIndex(join(dir, 'events-index.mdb'));
  return { index, dir, remove: async () => { await index.close().catch(() => {}); rmSync(dir, { recursive: true, force: true }); } };
}
