import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSmallFile } from '../../src/cli/commands/scan.js';
import { tempDir } from './helpers.js';

describe('readSmallFile (the command line reading a small file in one go)', () => {
  it('returns every byte of a file up to the limit, and null past it', () => {
    const root = tempDir();
    const body = Buffer.from('héllo\u0000wörld'.repeat(100));
    writeFileSync(join(root, 'a'), body);
    expect(Buffer.from(readSmallFile(join(root, 'a'), body.length)!.bytes).equals(body)).toBe(true);
    expect(readSmallFile(join(root, 'a'), body.length - 1)).toBeNull();
    writeFileSync(join(root, 'empty'), '');
    const empty = readSmallFile(join(root, 'empty'), 10);
    expect([empty?.bytes.length, empty?.readError]).toEqual([0, undefined]);
  });

  it('throws when the file cannot be opened', () => {
    expect(() => readSmallFile(join(tempDir(), 'missing'), 10)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.runIf(process.platform === 'linux')('reads a file whose size says 0 but has content (/proc), as far as the limit', () => {
    const status = readSmallFile('/proc/self/status', 1 << 20);
    expect(status?.readError).toBeUndefined();
    expect(Buffer.from(status!.bytes).toString('latin1')).toMatch(/^Name:/);
    // Longer than the limit once read, though stat said 0: streamed by the caller instead.
    expect(readSmallFile('/proc/self/status', 8)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('returns null at once for a FIFO (no writer: a blocking open would wait for ever)', () => {
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readSmallFile(fifo, 1 << 20)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('returns what was read with the error when a read fails', () => {
    // /proc/self/mem opens as a regular file and fails on the first read (EIO).
    const got = readSmallFile('/proc/self/mem', 1 << 20);
    expect(got?.bytes.length).toBe(0);
    expect(got?.readError).toEqual(expect.objectContaining({ code: 'EIO' }));
  });
});
