import type { Writable } from 'node:stream';

/**
 * Writes and waits only when the stream asks to (backpressure), so a slow pipe (`leakscan … | less`)
 * holds the scan back instead of buffering every result in memory.
 */
export function write(out: Writable, chunk: string): Promise<void> {
  if (chunk === '') return Promise.resolve();
  if (out.write(chunk)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', fail);
      resolve();
    };
    const fail = (err: Error): void => {
      out.off('drain', done);
      out.off('close', done);
      reject(err);
    };
    out.once('drain', done);
    out.once('close', done);
    out.once('error', fail);
  });
}
