/**
 * The index of exchanges: an event id (`<requestId>-<n>`) names the batches that hold its exchange's
 * events, so a proof reads those batches and not every batch of the zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventIndex } from '../../src/events/index.js';
import { batchHint } from '../../src/eventlog/index.js';
import { batchOf, tempIndex } from './helpers.js';

const Z = 'e5'.repeat(16);
const OTHER = 'f6'.repeat(16);

let t: ReturnType<typeof tempIndex>;
let index: EventIndex;

/** Batch n's events as batchOf writes them: request id `<n as 16 hex><seq as 16 hex>`. */
const requestOf = (n: number, seq: number): string => `${n.toString(16).padStart(16, '0')}${seq.toString(16).padStart(16, '0')}`;

beforeAll(async () => {
  t = tempIndex();
  index = t.index;
  for (let n = 1; n <= 40; n++) {
    await index.addBatch(Z, n, batchOf(Z, n, Array.from({ length: 5 }, (_, i) => ({ at: new Date(Date.UTC(2026, 4, 1) + n * 60_000 + i).toISOString(), ruleId: 'card-visa' }))));
  }
  await index.addBatch(OTHER, 7, batchOf(OTHER, 7, [{ at: '2026-05-01T10:00:00Z', ruleId: 'card-visa' }]));
});
afterAll(async () => t.remove());

describe('requestBatches', () => {
  it("names the batch of an old event's exchange", () => {
    expect(index.requestBatches(Z, requestOf(3, 2))).toEqual([3]);
    expect(index.requestBatches(Z, requestOf(40, 0))).toEqual([40]);
  });

  it('names every batch of an exchange, newest first, and only the zone asked about', async () => {
    // An exchange whose events were cut across two batches.
    await index.addBatch(Z, 41, Buffer.from(batchOf(Z, 41, [{ at: '2026-05-01T12:00:00Z', ruleId: 'us-ssn' }]).toString().replace(requestOf(41, 0), requestOf(12, 1)), 'utf8'));
    expect(index.requestBatches(Z, requestOf(12, 1))).toEqual([41, 12]);
    expect(index.requestBatches(OTHER, requestOf(7, 0))).toEqual([7]);
    expect(index.requestBatches(OTHER, requestOf(3, 2))).toEqual([]);
  });

  it('names none for an exchange it never saw or an id that is not one', () => {
    expect(index.requestBatches(Z, requestOf(42, 0))).toEqual([]);
    expect(index.requestBatches(Z, requestOf(3, 7))).toEqual([]);
    expect(index.requestBatches(Z, 'not-a-request')).toEqual([]);
  });
});

describe('batchHint', () => {
  it("gives proveEvent the newest batch of the event's exchange, or nothing to go on", () => {
    expect(batchHint(index, Z, `${requestOf(5, 4)}-0`)).toEqual({ batch: 5 });
    expect(batchHint(index, Z, `${requestOf(43, 0)}-0`)).toEqual({});
    expect(batchHint(undefined, Z, `${requestOf(5, 4)}-0`)).toEqual({});
  });
});
