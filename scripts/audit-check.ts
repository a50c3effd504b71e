/**
 * Shows that a record fetched over B1 verifies with only the published key (`npx tsx scripts/audit-check.ts`).
 *
 * Without arguments it is self-contained: a temporary data directory, the real HTTPS server with TLS
 * material made by our own code, one namespace and one epoch published with the owner's client
 * certificate. Then, as an outside reader with no client certificate and nothing from the data
 * directory but the CA that names the server: GET /info, GET /namespaces/{ns}/audits/{epoch}, verify the
 * signature with the published key alone, and check a tampered copy fails.
 *
 * Against a running log: `--url https://127.0.0.1:8788 --ca .leakscan/tls/ca.pem --namespace NS
 * [--epoch N] [--public-key HEX]` (a key given out of band replaces /info's).
 *
 * Prints one line per check and a final JSON summary; exits 0 when every check passes, 1 otherwise.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AuditClient, startAuditServer, verifyRecord, verifyRecordWithKey, type EpochRecord, type VerifyResult } from '../src/audit/index.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function readerChecks(reader: AuditClient, ns: string, epoch: number | 'latest', outOfBandKey: string | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  const record = await reader.record(ns, epoch);
  checks.push({ name: 'B1 record fetched without a client certificate', ok: true, detail: `${record.namespace} epoch ${record.epoch} digest ${record.digest}` });
  const hasSuite = typeof record.ciphersuite === 'number' && typeof record.version === 'number';
  checks.push({ name: 'record carries ciphersuite and version (plexi parses it)', ok: hasSuite, detail: `ciphersuite ${record.ciphersuite}` });

  let result: VerifyResult;
  if (outOfBandKey !== undefined) {
    result = verifyRecordWithKey(record, outOfBandKey);
  } else {
    const info = await reader.info();
    checks.push({ name: 'GET /info lists the signing keys', ok: info.keys.length > 0, detail: info.keys.map((k) => `${k.public_key} (not_before ${k.not_before})`).join(', ') });
    result = verifyRecord(record, info.keys, { namespace: ns, ...(epoch === 'latest' ? {} : { epoch }) });
  }
  checks.push({ name: 'signature verifies with only the published key', ok: result.valid, detail: result.valid ? `key ${result.key.public_key}` : result.reason });

  // A negative control: the same check must fail on a record altered by one digit.
  if (result.valid) {
    const tampered: EpochRecord = { ...record, digest: `${record.digest[0] === '0' ? '1' : '0'}${record.digest.slice(1)}` };
    const bad = verifyRecordWithKey(tampered, result.key.public_key);
    checks.push({ name: 'a tampered copy does not verify', ok: !bad.valid, detail: bad.valid ? 'verified!' : bad.reason });
  }
  return checks;
}

async function selfContained(): Promise<Check[]> {
  const dir = mkdtempSync(join(tmpdir(), 'leakscan-audit-check-'));
  const server = await startAuditServer({ dataDir: dir, port: 0 });
  try {
    const tls = server.material.tls;
    const owner = new AuditClient({ url: server.url, ca: readFileSync(tls.ca), cert: readFileSync(tls.client), key: readFileSync(tls.clientKey) });
    const ns = 'check.example';
    await owner.createNamespace({ name: ns });
    const digest = createHash('sha256').update('leakscan audit check').digest('hex');
    const published = await owner.publish(ns, 1, digest);
    const checks: Check[] = [{ name: 'epoch published over mutual TLS', ok: published.epoch === 1 && published.digest === digest, detail: `key_id ${published.key_id}` }];
    // The reader knows the server's URL and the CA naming it: nothing else from the data directory.
    const reader = new AuditClient({ url: server.url, ca: readFileSync(tls.ca) });
    checks.push(...(await readerChecks(reader, ns, 1, undefined)));
    return checks;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      ca: { type: 'string' },
      namespace: { type: 'string' },
      epoch: { type: 'string' },
      'public-key': { type: 'string' },
    },
  });
  let checks: Check[];
  if (values.url === undefined) {
    checks = await selfContained();
  } else {
    if (values.namespace === undefined) throw new Error('--namespace is required with --url');
    const epoch = values.epoch === undefined || values.epoch === 'latest' ? 'latest' : Number(values.epoch);
    const reader = new AuditClient({ url: values.url, ...(values.ca === undefined ? {} : { ca: readFileSync(values.ca) }) });
    checks = await readerChecks(reader, values.namespace, epoch, values['public-key']);
  }
  for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}\n`);
  const ok = checks.every((c) => c.ok);
  process.stdout.write(`${JSON.stringify({ ok, checks: checks.length, failed: checks.filter((c) => !c.ok).map((c) => c.name) })}\n`);
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`audit-check: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
