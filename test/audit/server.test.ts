/**
 * The audit log over real HTTPS with real certificates made by the project's own code: routes, mutual
 * TLS, publish rules 1–5 with their documented statuses and bodies, bad input refused before any state
 * change, plexi's parsing rules, timestamps and concurrency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kAuditErrors, verifyRecord, type AuditServer, type EpochRecord, type NamespaceInfo, type RawResponse } from '../../src/audit/index.js';
import { clientsFor, digestOf, post, startIn, tempDir, type Clients } from './helpers.js';

const data = tempDir('leakscan-audit-');
const other = tempDir('leakscan-audit-other-');
let server: AuditServer;
let c: Clients;

beforeAll(async () => {
  server = await startIn(data.dir);
  c = await clientsFor(server, other.dir);
});
afterAll(async () => {
  await server?.close();
  data.remove();
  other.remove();
});

function expectRefused(r: RawResponse, status: number, code: string): void {
  expect({ status: r.status, code: r.headers['audit-error'] }, r.body).toEqual({ status, code });
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(r.body).toBe(kAuditErrors[code as keyof typeof kAuditErrors].body);
}

let nsCounter = 0;
async function newNamespace(extra: Record<string, unknown> = {}): Promise<string> {
  const name = `ns${++nsCounter}.example.com`;
  const r = await post(c.owner, '/namespaces', { name, ...extra });
  expect(r.status, r.body).toBe(201);
  return name;
}

const publish = (ns: string, epoch: unknown, digest: unknown) => post(c.owner, `/namespaces/${ns}/audits`, { epoch, digest });

/** What a refused request must not change: the namespace and every record of it. */
async function snapshot(ns: string): Promise<unknown> {
  const info = await c.anon.raw('GET', `/namespaces/${ns}`);
  const records: string[] = [];
  for (let e = 1; e <= 12; e++) records.push((await c.anon.raw('GET', `/namespaces/${ns}/audits/${e}`)).body);
  return { info: info.body, records };
}

describe('GET /info and namespaces', () => {
  it('publishes the signing key with not_before, in plexi shape', async () => {
    const info = await c.anon.info();
    expect(Object.keys(info)).toEqual(['keys', 'logs']);
    expect(info.keys).toHaveLength(1);
    expect(info.keys[0]!.public_key).toMatch(/^[0-9a-f]{64}$/);
    expect(info.keys[0]!.public_key).toBe(server.material.signing.signer.public.hex);
    expect(Number.isSafeInteger(info.keys[0]!.not_before)).toBe(true);
    expect(info.logs).toEqual([]);
  });

  it('creates a namespace (owner only) that plexi can parse, lists it, and refuses duplicates and bad fields', async () => {
    const name = 'create.example.com';
    expectRefused(await post(c.anon, '/namespaces', { name }), 401, 'AUDIT_ERR_CLIENT_CERT_REQUIRED');
    expectRefused(await post(c.stranger, '/namespaces', { name }), 403, 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED');
    expectRefused(await c.anon.raw('GET', `/namespaces/${name}`), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');

    const r = await post(c.owner, '/namespaces', { name });
    expect(r.status).toBe(201);
    const info = JSON.parse(r.body) as NamespaceInfo;
    expect(info).toEqual({
      name,
      log_directory: null,
      root: null,
      status: 'Initialization',
      reports_uri: `/namespaces/${name}/reports`,
      audits_uri: `/namespaces/${name}/audits`,
      signature_version: 1,
      ciphersuite: 1,
    });
    expect(await c.anon.namespace(name)).toEqual(info);
    expect((await c.anon.namespaces()).namespaces.map((n) => n.name)).toContain(name);

    expectRefused(await post(c.owner, '/namespaces', { name }), 409, 'AUDIT_ERR_NAMESPACE_EXISTS');
    expectRefused(await post(c.owner, '/namespaces', { name: 'bad/name' }), 400, 'AUDIT_ERR_INVALID_NAMESPACE_NAME');
    expectRefused(await post(c.owner, '/namespaces', { name: '' }), 400, 'AUDIT_ERR_INVALID_NAMESPACE_NAME');
    expectRefused(await post(c.owner, '/namespaces', { name: 'r.example', root: '0/' + '11'.repeat(32) }), 400, 'AUDIT_ERR_INVALID_ROOT');
    expectRefused(await post(c.owner, '/namespaces', { name: 'r.example', root: '1/' + '11'.repeat(31) }), 400, 'AUDIT_ERR_INVALID_ROOT');
    expectRefused(await post(c.owner, '/namespaces', { name: 'r.example', ciphersuite: 3 }), 400, 'AUDIT_ERR_INVALID_FIELD');
    expectRefused(await post(c.owner, '/namespaces', '[1]'), 400, 'AUDIT_ERR_INVALID_JSON');
    expectRefused(await c.anon.raw('GET', '/namespaces/r.example'), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');
  });

  it('takes plexi\'s older `signature_version` and the bincode suite', async () => {
    const r = await post(c.owner, '/namespaces', { name: 'bincode.example.com', signature_version: 2 });
    expect(JSON.parse(r.body)).toMatchObject({ signature_version: 2, ciphersuite: 2 });
  });

  it('answers 404 for unknown paths and 405 for wrong methods', async () => {
    expectRefused(await c.anon.raw('GET', '/nope'), 404, 'AUDIT_ERR_NOT_FOUND');
    expectRefused(await c.anon.raw('GET', '/namespaces/x/other'), 404, 'AUDIT_ERR_NOT_FOUND');
    const r = await c.anon.raw('DELETE', '/info');
    expectRefused(r, 405, 'AUDIT_ERR_METHOD_NOT_ALLOWED');
    expect(r.headers.allow).toBe('GET');
  });
});

describe('publish (B2) and read (B1)', () => {
  it('signs a record plexi parses, in its field order, with key_id = last key byte; B1 returns it without key_id', async () => {
    const ns = await newNamespace();
    const before = Date.now();
    const r = await publish(ns, 1, digestOf('a'));
    const after = Date.now();
    expect(r.status, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const rec = JSON.parse(r.body) as EpochRecord;
    expect(Object.keys(rec)).toEqual(['version', 'ciphersuite', 'namespace', 'timestamp', 'epoch', 'digest', 'signature', 'key_id']);
    const key = (await c.anon.info()).keys[0]!;
    expect(rec).toMatchObject({ version: 1, ciphersuite: 1, namespace: ns, epoch: 1, digest: digestOf('a') });
    expect(rec.key_id).toBe(Buffer.from(key.public_key, 'hex')[31]);
    expect(rec.timestamp).toBeGreaterThanOrEqual(before);
    expect(rec.timestamp).toBeLessThanOrEqual(after);
    expect(rec.signature).toMatch(/^[0-9a-f]{128}$/);

    const got = await c.anon.record(ns, 1);
    expect(Object.keys(got)).toEqual(['version', 'ciphersuite', 'namespace', 'timestamp', 'epoch', 'digest', 'signature']);
    const { key_id: _k, ...withoutKeyId } = rec;
    expect(got).toEqual(withoutKeyId);
    expect(verifyRecord(got, [key], { namespace: ns, epoch: 1 })).toMatchObject({ valid: true });
    expect(await c.anon.record(ns, 'latest')).toEqual(got);
    expect(await c.anon.namespace(ns)).toMatchObject({ status: 'Online', latest_epoch: 1 });
  });

  it('signs the bincode layout for a 0x0002 namespace', async () => {
    const ns = await newNamespace({ ciphersuite: 2 });
    const rec = JSON.parse((await publish(ns, 1, digestOf('bincode'))).body) as EpochRecord;
    expect(rec).toMatchObject({ version: 2, ciphersuite: 2 });
    expect(verifyRecord(rec, await c.anon.info())).toMatchObject({ valid: true });
    expect(verifyRecord({ ...rec, ciphersuite: 1, version: 1 }, await c.anon.info())).toMatchObject({ valid: false });
  });

  it('rule 2: epochs increase by one, starting at 1 without a root', async () => {
    const ns = await newNamespace();
    expectRefused(await publish(ns, 2, digestOf('x')), 409, 'AUDIT_ERR_EPOCH_NOT_NEXT');
    expect((await publish(ns, 1, digestOf('1'))).status).toBe(200);
    const snap = await snapshot(ns);
    expectRefused(await publish(ns, 3, digestOf('3')), 409, 'AUDIT_ERR_EPOCH_NOT_NEXT');
    expect(await snapshot(ns)).toEqual(snap);
    expect((await publish(ns, 2, digestOf('2'))).status).toBe(200);
    expect((await publish(ns, 3, digestOf('3'))).status).toBe(200);
    expect((await c.anon.record(ns, 3)).digest).toBe(digestOf('3'));
  });

  it('rule 4: a published epoch cannot be republished, with the same digest or another', async () => {
    const ns = await newNamespace();
    expect((await publish(ns, 1, digestOf('1'))).status).toBe(200);
    expect((await publish(ns, 2, digestOf('2'))).status).toBe(200);
    const snap = await snapshot(ns);
    expectRefused(await publish(ns, 1, digestOf('1')), 409, 'AUDIT_ERR_EPOCH_EXISTS');
    expectRefused(await publish(ns, 2, digestOf('2')), 409, 'AUDIT_ERR_EPOCH_EXISTS');
    expectRefused(await publish(ns, 1, digestOf('other')), 409, 'AUDIT_ERR_EPOCH_EXISTS');
    expect(await snapshot(ns)).toEqual(snap);
  });

  it('rule 3: a digest is used once; upper-case hex is stored lower-case and counts as the same digest', async () => {
    const ns = await newNamespace();
    const upper = digestOf('dup').toUpperCase();
    const r = await publish(ns, 1, upper);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).digest).toBe(upper.toLowerCase());
    expect((await c.anon.record(ns, 1)).digest).toBe(upper.toLowerCase());
    expect((await publish(ns, 2, digestOf('two'))).status).toBe(200);
    const snap = await snapshot(ns);
    expectRefused(await publish(ns, 3, upper.toLowerCase()), 409, 'AUDIT_ERR_DIGEST_REUSED');
    expectRefused(await publish(ns, 3, digestOf('two').toUpperCase()), 409, 'AUDIT_ERR_DIGEST_REUSED');
    expect(await snapshot(ns)).toEqual(snap);
    // Another namespace may hold the same digest.
    const ns2 = await newNamespace();
    expect((await publish(ns2, 1, upper)).status).toBe(200);
  });

  it('rule 1: with a root, the first epoch must equal it in number and digest, and may be above 1', async () => {
    const root = digestOf('root');
    const ns = await newNamespace({ root: `5/${root.toUpperCase()}` });
    expect((await c.anon.namespace(ns)).root).toBe(`5/${root}`);
    const snap = await snapshot(ns);
    expectRefused(await publish(ns, 1, root), 409, 'AUDIT_ERR_ROOT_MISMATCH');
    expectRefused(await publish(ns, 5, digestOf('not root')), 409, 'AUDIT_ERR_ROOT_MISMATCH');
    expectRefused(await publish(ns, 6, root), 409, 'AUDIT_ERR_ROOT_MISMATCH');
    expect(await snapshot(ns)).toEqual(snap);
    expect(await c.anon.namespace(ns)).toMatchObject({ status: 'Initialization' });
    expect((await publish(ns, 5, root)).status).toBe(200);
    expect(await c.anon.namespace(ns)).toMatchObject({ status: 'Online', latest_epoch: 5 });
    expectRefused(await publish(ns, 4, digestOf('four')), 409, 'AUDIT_ERR_EPOCH_NOT_NEXT');
    expectRefused(await publish(ns, 5, root), 409, 'AUDIT_ERR_EPOCH_EXISTS');
    expect((await publish(ns, 6, digestOf('six'))).status).toBe(200);
    expectRefused(await c.anon.raw('GET', `/namespaces/${ns}/audits/1`), 404, 'AUDIT_ERR_EPOCH_NOT_FOUND');
  });

  it('rule 5 and bad input: each refused with its status before any state change', async () => {
    const ns = await newNamespace();
    expect((await publish(ns, 1, digestOf('1'))).status).toBe(200);
    const snap = await snapshot(ns);
    const d = digestOf('next');
    for (const digest of [d.slice(0, 62), `${d}00`, `${d.slice(0, 63)}g`, '', 42, null, undefined, `0x${d.slice(2)}`, ` ${d.slice(1)}`]) {
      expectRefused(await publish(ns, 2, digest), 400, 'AUDIT_ERR_INVALID_DIGEST');
    }
    for (const epoch of [0, -1, 1.5, '2', null, undefined, 2 ** 53, 9007199254740993, 1e300, true, [2]]) {
      expectRefused(await publish(ns, epoch, d), 400, 'AUDIT_ERR_INVALID_EPOCH');
    }
    const path = `/namespaces/${ns}/audits`;
    for (const body of ['not json', '[2]', '"text"', '{"epoch":2,', '']) expectRefused(await post(c.owner, path, body), 400, 'AUDIT_ERR_INVALID_JSON');
    expectRefused(await post(c.owner, path, { epoch: 2, digest: d }, { 'content-type': 'text/plain' }), 415, 'AUDIT_ERR_UNSUPPORTED_MEDIA_TYPE');
    expectRefused(await post(c.owner, path, JSON.stringify({ epoch: 2, digest: d, pad: 'x'.repeat(100_000) })), 413, 'AUDIT_ERR_BODY_TOO_LARGE');
    expectRefused(await post(c.owner, `/namespaces/unknown.example.com/audits`, { epoch: 1, digest: d }), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');
    expectRefused(await post(c.anon, path, { epoch: 2, digest: d }), 401, 'AUDIT_ERR_CLIENT_CERT_REQUIRED');
    expectRefused(await post(c.stranger, path, { epoch: 2, digest: d }), 403, 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED');
    expectRefused(await post(c.impostor, path, { epoch: 2, digest: d }), 403, 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED');
    expect(await snapshot(ns)).toEqual(snap);
    // The same request, well-formed and from the owner, then succeeds: nothing above left a trace.
    expect((await publish(ns, 2, d)).status).toBe(200);
  });

  it('B1: 404 only for absent namespaces and epochs; malformed epochs are 400; no client certificate needed', async () => {
    const ns = await newNamespace();
    expectRefused(await c.anon.raw('GET', `/namespaces/${ns}/audits/1`), 404, 'AUDIT_ERR_EPOCH_NOT_FOUND');
    expectRefused(await c.anon.raw('GET', `/namespaces/${ns}/audits/latest`), 404, 'AUDIT_ERR_EPOCH_NOT_FOUND');
    expectRefused(await c.anon.raw('GET', `/namespaces/missing.example/audits/1`), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');
    expectRefused(await c.anon.raw('GET', `/namespaces/missing.example/audits/abc`), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');
    for (const e of ['0', '-1', '1.5', 'abc', '9007199254740992', '99999999999999999999']) {
      expectRefused(await c.anon.raw('GET', `/namespaces/${ns}/audits/${e}`), 400, 'AUDIT_ERR_INVALID_EPOCH');
    }
    expect((await publish(ns, 1, digestOf('b1'))).status).toBe(200);
    expect((await c.stranger.raw('GET', `/namespaces/${ns}/audits/1`)).status).toBe(200);
    expect((await c.anon.raw('GET', `/namespaces/${ns}/audits/1`)).status).toBe(200);
  });
});

describe('disabled namespaces', () => {
  it('answer 400 "Namespace is disabled and read-only." to any publish, and stay readable', async () => {
    const ns = await newNamespace();
    expect((await publish(ns, 1, digestOf('d1'))).status).toBe(200);
    const patch = (client: Clients[keyof Clients], body: unknown) => client.raw('PATCH', `/namespaces/${ns}`, JSON.stringify(body));
    expectRefused(await patch(c.anon, { status: 'Disabled' }), 401, 'AUDIT_ERR_CLIENT_CERT_REQUIRED');
    expectRefused(await patch(c.stranger, { status: 'Disabled' }), 403, 'AUDIT_ERR_CLIENT_CERT_UNTRUSTED');
    expectRefused(await patch(c.owner, { status: 'Online' }), 400, 'AUDIT_ERR_INVALID_STATUS');
    expectRefused(await c.owner.raw('PATCH', '/namespaces/missing.example', JSON.stringify({ status: 'Disabled' })), 404, 'AUDIT_ERR_NAMESPACE_NOT_FOUND');
    expect((await c.anon.namespace(ns)).status).toBe('Online');

    const r = await patch(c.owner, { status: 'Disabled' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ status: 'Disabled', latest_epoch: 1 });
    const snap = await snapshot(ns);
    for (const body of [{ epoch: 2, digest: digestOf('d2') }, { epoch: 1, digest: digestOf('d1') }, { epoch: 'x' }, 'not json']) {
      const res = await post(c.owner, `/namespaces/${ns}/audits`, body);
      expect(res.status).toBe(400);
      expect(res.body).toBe('Namespace is disabled and read-only.');
    }
    expect(await snapshot(ns)).toEqual(snap);
    expect((await c.anon.record(ns, 1)).digest).toBe(digestOf('d1'));
    expect((await c.anon.namespace(ns)).status).toBe('Disabled');
    // Disabling again is harmless; there is no way back.
    expect((await patch(c.owner, { status: 'Disabled' })).status).toBe(200);
  });
});

describe('concurrency', () => {
  it('N concurrent publishes of the same next epoch: exactly one succeeds, and it is what B1 returns', async () => {
    const ns = await newNamespace();
    expect((await publish(ns, 1, digestOf('c1'))).status).toBe(200);
    const n = 16;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => publish(ns, 2, digestOf(`c2-${i}`))));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectRefused(r, 409, 'AUDIT_ERR_EPOCH_EXISTS');
    const winner = JSON.parse(ok[0]!.body) as EpochRecord;
    expect(await c.anon.record(ns, 2)).toMatchObject({ digest: winner.digest, signature: winner.signature });
    expect(await c.anon.namespace(ns)).toMatchObject({ latest_epoch: 2 });
  });

  it('concurrent publishes of one digest at successive epochs: the digest is used once', async () => {
    const ns = await newNamespace();
    const d = digestOf('same');
    const results = await Promise.all([1, 2, 3].map((e) => publish(ns, e, d)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await c.anon.namespace(ns)).toMatchObject({ latest_epoch: 1 });
  });
});

describe('timestamps', () => {
  it('never go backwards within a namespace, even when the clock does', async () => {
    const dir = tempDir('leakscan-audit-clock-');
    const base = Date.now();
    let calls = 0;
    // Each reading is a second earlier than the one before.
    const s = await startIn(dir.dir, { now: () => base - 1000 * calls++ });
    try {
      const cs = await clientsFor(s, other.dir);
      await post(cs.owner, '/namespaces', { name: 'clock.example' });
      const stamps: number[] = [];
      for (let e = 1; e <= 5; e++) {
        const r = await post(cs.owner, '/namespaces/clock.example/audits', { epoch: e, digest: digestOf(`t${e}`) });
        expect(r.status).toBe(200);
        stamps.push((JSON.parse(r.body) as EpochRecord).timestamp);
      }
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]!).toBeGreaterThanOrEqual(stamps[i - 1]!);
      const info = await cs.anon.info();
      expect(stamps[0]!).toBeGreaterThanOrEqual(info.keys[0]!.not_before);
      for (let e = 1; e <= 5; e++) expect(verifyRecord(await cs.anon.record('clock.example', e), info)).toMatchObject({ valid: true });
    } finally {
      await s.close();
      dir.remove();
    }
  });
});
