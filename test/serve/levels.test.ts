/**
 * The service's scanner at the confidence its zones need: `high` until a zone asks for less, then one
 * pool at `low` built once however many ask, the `high` one closed, and a failed build tried again.
 */
import { describe, expect, it } from 'vitest';
import { LevelledScanner } from '../../src/serve/levels.js';
import type { Confidence, ScanReport, Scanner } from '../../src/types.js';

function fake(name: string): Scanner & { closed: boolean; scans: number } {
  const report = { findings: [], notices: [], contentKind: 'text', bytesScanned: 0, bytesSeen: 0, bytesReceived: 0, truncated: false, name } as unknown as ScanReport;
  return {
    closed: false,
    scans: 0,
    async analyze() {
      this.scans++;
      return report;
    },
    async analyzeStream() {
      this.scans++;
      return report;
    },
    async scan() {
      this.scans++;
      return [];
    },
    async scanStream() {
      this.scans++;
      return [];
    },
    async close() {
      this.closed = true;
    },
  };
}

describe('LevelledScanner', () => {
  it('stays at high until a lower level is asked for, then moves to one low pool, once', async () => {
    const high = fake('high');
    const built: Confidence[] = [];
    const low = fake('low');
    const s = new LevelledScanner(high, 'high', async (level) => {
      built.push(level);
      await new Promise((r) => setTimeout(r, 10));
      return low;
    });
    await s.reach('high');
    expect(built).toEqual([]);
    await s.analyze('x');
    expect(high.scans).toBe(1);
    // Many callers, one build; medium goes straight to low.
    await Promise.all([s.reach('medium'), s.reach('low'), s.reach('medium')]);
    expect(built).toEqual(['low']);
    expect(s.level).toBe('low');
    expect(high.closed).toBe(true);
    await s.scan('x');
    expect(low.scans).toBe(1);
    await s.reach('medium');
    await s.reach('high');
    expect(built).toEqual(['low']);
    await s.close();
    expect(low.closed).toBe(true);
  });

  it('stays where it was when the build fails, and tries again on the next call', async () => {
    const high = fake('high');
    let fail = true;
    const s = new LevelledScanner(high, 'high', async () => {
      if (fail) throw new Error('no threads');
      return fake('low');
    });
    await expect(s.reach('low')).rejects.toThrow('no threads');
    expect(s.level).toBe('high');
    expect(high.closed).toBe(false);
    fail = false;
    await s.reach('low');
    expect(s.level).toBe('low');
    expect(high.closed).toBe(true);
    await s.close();
  });
});
