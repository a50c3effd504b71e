import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBucket, type LocalBucket } from '../../src/storage/index.js';
import { runBucketConformance } from './conformance.case.js';

const root = mkdtempSync(join(tmpdir(), 'leakscan-store-conf-'));
const open: LocalBucket[] = [];
let n = 0;

runBucketConformance({
  name: 'leakscan/store (LMDB + files)',
  Headers,
  async bucket() {
    const b = await openBucket({ dir: join(root, String(n++)), minPartSize: 50 });
    open.push(b);
    return b;
  },
  async teardown() {
    for (const b of open) await b.close();
    rmSync(root, { recursive: true, force: true });
  },
  deltas: {
    partEtag: 'md5',
    storageClass: 'Standard',
    headRange: false,
    unincludedMetadata: 'absent',
    rejectsUnknownStorageClass: true,
  },
});
