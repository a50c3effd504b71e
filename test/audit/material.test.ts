/**
 * The TLS material and signing key made by our own code: checked with node's X509Certificate (not the
 * library that made them), created once with private keys 0600, reused after, reissued when missing.
 */
import { X509Certificate, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { ensureAuditMaterial } from '../../src/audit/index.js';
import { startIn, tempDir } from './helpers.js';

const kServerAuth = '1.3.6.1.5.5.7.3.1';
const kClientAuth = '1.3.6.1.5.5.7.3.2';

const cert = (p: string) => new X509Certificate(readFileSync(p));
const mode = (p: string) => statSync(p).mode & 0o777;

describe('ensureAuditMaterial', () => {
  it('creates a CA, a server certificate for 127.0.0.1/localhost and an owner client certificate', async () => {
    const d = tempDir('leakscan-material-');
    try {
      const m = await ensureAuditMaterial(d.dir);
      const t = m.tls;
      expect(new Set(m.created)).toEqual(new Set([...Object.values(t), m.signing.paths.signingKey, m.signing.paths.keys]));
      for (const k of [t.caKey, t.serverKey, t.clientKey, m.signing.paths.signingKey]) expect(mode(k), k).toBe(0o600);

      const ca = cert(t.ca);
      const server = cert(t.server);
      const client = cert(t.client);
      expect(ca.ca).toBe(true);
      expect(ca.verify(ca.publicKey)).toBe(true);
      for (const leaf of [server, client]) {
        expect(leaf.ca).toBe(false);
        expect(leaf.checkIssued(ca)).toBe(true);
        expect(leaf.verify(ca.publicKey)).toBe(true);
      }
      expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(server.checkHost('localhost')).toBe('localhost');
      expect(server.keyUsage).toEqual([kServerAuth]);
      expect(client.keyUsage).toEqual([kClientAuth]);
      expect(server.checkPrivateKey(createPrivateKey(readFileSync(t.serverKey)))).toBe(true);
      expect(client.checkPrivateKey(createPrivateKey(readFileSync(t.clientKey)))).toBe(true);
      expect(ca.checkPrivateKey(createPrivateKey(readFileSync(t.caKey)))).toBe(true);
      expect(readFileSync(t.clientKey, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);

      const signing = createPrivateKey(readFileSync(m.signing.paths.signingKey));
      expect(signing.asymmetricKeyType).toBe('ed25519');
      const keys = JSON.parse(readFileSync(m.signing.paths.keys, 'utf8'));
      expect(keys.keys).toEqual([{ public_key: m.signing.signer.public.hex, not_before: m.signing.notBefore }]);
    } finally {
      d.remove();
    }
  });

  it('reuses everything on later starts, reissues a missing leaf with the same CA, and a new CA when its key is gone', async () => {
    const d = tempDir('leakscan-material-');
    try {
      const first = await ensureAuditMaterial(d.dir);
      const t = first.tls;
      const snapshot = () => Object.values(t).map((p) => readFileSync(p, 'utf8'));
      const before = snapshot();
      const again = await ensureAuditMaterial(d.dir);
      expect(again.created).toEqual([]);
      expect(snapshot()).toEqual(before);
      expect(again.signing.signer.public.hex).toBe(first.signing.signer.public.hex);

      rmSync(t.client);
      const reissued = await ensureAuditMaterial(d.dir);
      expect(new Set(reissued.created)).toEqual(new Set([t.client, t.clientKey]));
      expect(readFileSync(t.ca, 'utf8')).toBe(before[0]);
      expect(readFileSync(t.server, 'utf8')).toBe(before[2]);
      expect(cert(t.client).verify(cert(t.ca).publicKey)).toBe(true);

      rmSync(t.caKey);
      const fresh = await ensureAuditMaterial(d.dir);
      expect(new Set(fresh.created)).toEqual(new Set(Object.values(t)));
      expect(readFileSync(t.ca, 'utf8')).not.toBe(before[0]);
      expect(cert(t.server).verify(cert(t.ca).publicKey)).toBe(true);
      // The signing key is independent of the TLS material.
      expect(fresh.signing.signer.public.hex).toBe(first.signing.signer.public.hex);
    } finally {
      d.remove();
    }
  });

  it('rotates the signing key: a replaced key is appended to the published keys, the old one stays', async () => {
    const d = tempDir('leakscan-material-');
    try {
      const first = await ensureAuditMaterial(d.dir, () => 1_000);
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(first.signing.paths.signingKey, privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, { mode: 0o600 });
      const second = await ensureAuditMaterial(d.dir, () => 2_000);
      expect(second.signing.signer.public.hex).not.toBe(first.signing.signer.public.hex);
      expect(second.signing.keys).toEqual([
        { public_key: first.signing.signer.public.hex, not_before: 1_000 },
        { public_key: second.signing.signer.public.hex, not_before: 2_000 },
      ]);
      expect(second.signing.notBefore).toBe(2_000);
    } finally {
      d.remove();
    }
  });
});

describe('the server certificate on the wire', () => {
  const get = (url: string, ca?: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent: false, ...(ca ? { ca } : {}) }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  it('is trusted through DIR/tls/ca.pem at 127.0.0.1 and localhost, and not without it', async () => {
    const d = tempDir('leakscan-material-');
    const s = await startIn(d.dir);
    try {
      const ca = readFileSync(s.material.tls.ca);
      expect(await get(`https://127.0.0.1:${s.port}/info`, ca)).toBe(200);
      expect(await get(`https://localhost:${s.port}/info`, ca)).toBe(200);
      await expect(get(`https://127.0.0.1:${s.port}/info`)).rejects.toThrow();
    } finally {
      await s.close();
      d.remove();
    }
  });
});
