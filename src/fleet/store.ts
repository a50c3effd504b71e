/**
 * Where a fleet role keeps batches and epochs:
 *
 *   --s3 URL --data DIR   one S3 bucket (`http(s)://HOST[:PORT]/BUCKET[?region=R&if-match=unquoted]`,
 *                         credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN,
 *                         never in the URL, so they stay out of `ps` and logs) holding both the batches
 *                         (`events/…`) and the audit log (`namespaces/`, `epochs/`, `digests/`, `heads/`:
 *                         the key sets do not overlap); the log's signing key from DIR/audit/ (copied
 *                         from the `serve` that made it: every batcher must sign with the key the
 *                         log publishes)
 *   --data DIR            the embedded stores of a data directory, as `serve` lays them out
 *                         (DIR/events, DIR/audit/log); one process at a time holds them
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AuditLog, auditDir, ensureSigningKey, openAuditLog, type KeyInfo } from '../audit/index.js';
import { LeakscanError } from '../errors.js';
import { openBucket, openS3Bucket, type S3Bucket, type StoreBucket } from '../storage/index.js';

export interface FleetStore {
  /** Batches (`events/{zone}/…`). */
  events: StoreBucket;
  /** The audit log, and the bucket it is kept on (the same as `events` on S3). */
  audit: { log: AuditLog; bucket: StoreBucket };
  /** The log's published keys (what `verify` checks signatures with). */
  keys: KeyInfo[];
  /** Where it is, for the lines a role prints (no credentials). */
  where: string;
  close(): Promise<void>;
}

export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  ifMatch: 'quoted' | 'unquoted';
}

/** `--s3 URL` checked; SDD_ERR_FLEET_OPTION when it is not `http(s)://HOST[:PORT]/BUCKET[?…]`. */
export function parseS3Url(url: string): S3Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--s3 ${JSON.stringify(url)} is not a URL`);
  }
  const bucket = u.pathname.replace(/^\/+|\/+$/g, '');
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || bucket === '' || bucket.includes('/')) {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--s3 ${JSON.stringify(url)}: give http(s)://HOST[:PORT]/BUCKET`);
  }
  if (u.username !== '' || u.password !== '') {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', '--s3: credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL');
  }
  for (const k of u.searchParams.keys()) {
    if (k !== 'region' && k !== 'if-match') throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--s3: unknown parameter ${JSON.stringify(k)} (region, if-match)`);
  }
  const ifMatch = u.searchParams.get('if-match') ?? 'quoted';
  if (ifMatch !== 'quoted' && ifMatch !== 'unquoted') throw new LeakscanError('SDD_ERR_FLEET_OPTION', '--s3: if-match is quoted or unquoted (Ceph RGW)');
  return { endpoint: `${u.protocol}//${u.host}`, bucket, region: u.searchParams.get('region') ?? 'us-east-1', ifMatch };
}

function credentials(env: NodeJS.ProcessEnv): { accessKeyId: string; secretAccessKey: string; sessionToken?: string } {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new LeakscanError('SDD_ERR_FLEET_OPTION', '--s3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment');
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

/**
 * Opens the S3 bucket an `--s3 URL` names, with the credentials of `env` (AWS_* variables).
 * SDD_ERR_FLEET_OPTION when the URL or the credentials are not there.
 * @example
 * const bucket = await openS3Url('http://127.0.0.1:7480/leakscan?if-match=unquoted');
 */
export async function openS3Url(url: string, env: NodeJS.ProcessEnv = process.env): Promise<S3Bucket> {
  const loc = parseS3Url(url);
  return openS3Bucket({ endpoint: loc.endpoint, bucket: loc.bucket, region: loc.region, ifMatch: loc.ifMatch, credentials: credentials(env) });
}

/**
 * Opens the store of a fleet role: the S3 bucket of `s3` with the signing key of `dataDir`, or, without
 * `s3`, the embedded stores of `dataDir`.
 * @example
 * const store = await openFleetStore({ s3: 'http://127.0.0.1:7480/leakscan?if-match=unquoted', dataDir: '.leakscan' });
 */
export async function openFleetStore(options: { s3?: string; dataDir: string; env?: NodeJS.ProcessEnv }): Promise<FleetStore> {
  if (options.s3 === undefined) {
    const audit = await openAuditLog(options.dataDir);
    let events: Awaited<ReturnType<typeof openBucket>>;
    try {
      events = await openBucket({ dir: join(options.dataDir, 'events') });
    } catch (e) {
      await audit.close();
      throw e;
    }
    return {
      events,
      audit,
      keys: audit.log.info().keys,
      where: options.dataDir,
      close: async () => {
        await events.close();
        await audit.close();
      },
    };
  }
  const loc = parseS3Url(options.s3);
  if (!existsSync(join(auditDir(options.dataDir), 'signing-key.pem'))) {
    throw new LeakscanError('SDD_ERR_FLEET_OPTION', `--data ${options.dataDir} has no audit/signing-key.pem: copy DIR/audit/ of the serve whose log this is`);
  }
  const signing = ensureSigningKey(options.dataDir);
  const bucket = await openS3Url(options.s3, options.env);
  const log = new AuditLog({ bucket, signer: signing.signer, keys: signing.keys, notBefore: signing.notBefore });
  return {
    events: bucket,
    audit: { log, bucket },
    keys: signing.keys,
    where: `${loc.endpoint}/${loc.bucket}`,
    close: async () => {
      await log.idle();
      await bucket.close();
    },
  };
}
