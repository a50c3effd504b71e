import { afterAll, describe, expect, it } from 'vitest';
import { BareThreads } from '../../bench/bare.js';
import { makeSizedBody } from '../../bench/bodies.js';
import { createScanner } from '../../src/index.js';

// The pool phase's references (bench/bare.ts), run for real: plain worker threads sharing one counter.
describe('bench bare threads', () => {
  const bodies = ['text', 'json', 'html', 'xml'].map((k, i) => makeSizedBody(k as 'text', 'dense', 8192 + 1024 * i, `bare/${k}`));
  const started: BareThreads[] = [];
  afterAll(async () => {
    await Promise.all(started.map((t) => t.close()));
  });

  it('scan every body once per pass with the in-thread engine, one thread or two', async () => {
    const scanner = await createScanner({ workers: 0 });
    let expected = 0;
    for (const b of bodies) expected += (await scanner.analyze(b.bytes, { contentType: b.contentType })).findings.length;
    expect(expected).toBeGreaterThan(0);
    for (const n of [1, 2]) {
      const t = await BareThreads.start(n, 'auto', bodies);
      started.push(t);
      expect(await t.pass()).toBe(expected);
      expect(await t.pass()).toBe(expected); // the counter starts again at every pass
    }
  }, 60_000);

  it('run the compute loop over the same bodies instead: every body taken, nothing reported', async () => {
    for (const n of [1, 2]) {
      const t = await BareThreads.start(n, 'auto', bodies, 'compute');
      started.push(t);
      expect(await t.pass()).toBe(0);
      expect(await t.pass()).toBe(0);
    }
  }, 60_000);
});
