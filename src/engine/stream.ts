import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { BodySource, BodyStream, ScanMeta, ScanReport } from '../types.js';
import { notice } from '../errors.js';
import { parseContentEncoding } from '../content/index.js';
import { BodyScanner, type BodyOptions } from './body.js';
import type { Program } from './program.js';

export type ScanLimits = Pick<BodyOptions, 'maxBytes' | 'maxFindings' | 'coalesceBytes' | 'sliceBytes'>;

function decompressor(coding: 'gzip' | 'deflate' | 'br'): Transform {
  // `finishFlush: Z_SYNC_FLUSH` would hide truncation; the default reports it as an error, which we
  // turn into a notice after scanning what was decoded.
  if (coding === 'gzip') return createGunzip();
  if (coding === 'deflate') return createInflate();
  return createBrotliDecompress();
}

/** The chunks of a Web ReadableStream or an (async) iterable; strings are taken as UTF-8. */
export async function* iterateBody(body: BodyStream | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in body || Symbol.iterator in body) {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      // Strings from an object-mode stream are taken as UTF-8 rather than rejected.
      yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    }
    return;
  }
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A whole body as one chunk. */
export function bodyBytes(body: BodySource): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * Scans a body that arrives as a stream of (possibly Content-Encoded) chunks. Bytes past the scan cap
 * are counted but neither decompressed nor scanned; a failing source or a corrupt encoding ends the
 * scan with the findings so far and a notice. Never rejects because of the body.
 */
export async function scanStream(program: Program, body: BodyStream | Iterable<Uint8Array>, meta: ScanMeta = {}, limits: ScanLimits = {}): Promise<ScanReport> {
  const scanner = new BodyScanner(program, { contentType: meta.contentType, ...limits });
  const enc = parseContentEncoding(meta.contentEncoding);
  let received = 0;
  if (enc.error !== undefined) {
    scanner.notices.push(notice('SDD_SKIP_ENCODING', enc.error));
    try {
      for await (const chunk of iterateBody(body)) received += chunk.length;
    } catch (err) {
      scanner.notices.push(notice('SDD_STREAM_ERROR', errorText(err)));
    }
    const r = scanner.end();
    return { ...r, findings: [], bytesScanned: 0, bytesSeen: received, truncated: false, bytesReceived: received };
  }
  // Content-Encoding lists codings in the order they were applied: undo them last to first.
  const chain = [...enc.codings].reverse().map(decompressor);
  let failed = false;
  let done: Promise<void> = Promise.resolve();
  if (chain.length > 0) {
    for (let i = 0; i + 1 < chain.length; i++) chain[i]!.pipe(chain[i + 1]!);
    const last = chain[chain.length - 1]!;
    last.on('data', (d: Buffer) => {
      scanner.push(d);
      if (!scanner.wantsMore) {
        scanner.markCutShort();
        stopChain();
      }
    });
    done = new Promise<void>((resolve) => {
      last.once('end', resolve);
      last.once('close', resolve);
      for (const z of chain) {
        z.once('error', (err: Error) => {
          if (!failed) scanner.notices.push(notice('SDD_DECODE_ERROR', errorText(err)));
          failed = true;
          stopChain();
          resolve();
        });
      }
    });
  }
  function stopChain(): void {
    failed = true;
    for (const z of chain) z.destroy();
  }
  try {
    for await (const chunk of iterateBody(body)) {
      received += chunk.length;
      if (chain.length === 0) {
        scanner.push(chunk);
      } else if (!failed) {
        const head = chain[0]!;
        if (!head.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              head.off('drain', done);
              head.off('close', done);
              resolve();
            };
            head.on('drain', done);
            head.on('close', done);
          });
        }
      }
    }
  } catch (err) {
    scanner.notices.push(notice('SDD_STREAM_ERROR', errorText(err)));
  }
  if (chain.length > 0) {
    if (!failed) chain[0]!.end();
    await done;
  }
  const report = scanner.end();
  return { ...report, bytesReceived: received };
}
