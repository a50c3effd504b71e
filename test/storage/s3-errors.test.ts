/**
 * `openS3Bucket` when the store cannot be reached: an InternalError (10001) naming the network failure
 * (docs/storage.md: `[S3 <code> <status>]`), so a role's log says the store is away. No server needed.
 */
import { describe, expect, it } from 'vitest';
import { openS3Bucket } from '../../src/storage/index.js';
import { freePort } from '../support/ports.js';

describe('openS3Bucket: store unreachable', () => {
  it('a refused connection is InternalError with [S3 ECONNREFUSED] in its message', async () => {
    // Nothing listens on a port just freed.
    const port = await freePort();
    const bucket = await openS3Bucket({ endpoint: `http://127.0.0.1:${port}`, bucket: 'away', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } });
    try {
      for (const op of [() => bucket.head('k'), () => bucket.put('k', 'v', { onlyIf: { etagDoesNotMatch: '*' } })]) {
        const err = await op().then(
          () => null,
          (e: unknown) => e as Error & { code?: number },
        );
        expect(err).not.toBeNull();
        expect(err!.code).toBe(10001);
        expect(err!.message).toMatch(/\[S3 ECONNREFUSED\]/);
      }
    } finally {
      await bucket.close();
    }
  });
});
