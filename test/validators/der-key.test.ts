import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derPrivateKeyBase64Valid, derPrivateKeyKind } from '../../src/validators/der-key.js';

// Keys written by OpenSSL through node:crypto for this run only (never stored): an independent
// writer of the structures the validator reads.
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed = generateKeyPairSync('ed25519');
const der = (k: { export(o: object): Buffer | string }, o: object): Buffer => k.export({ format: 'der', ...o }) as Buffer;

const keys: Array<[string, Buffer, string]> = [
  ['PKCS#1 RSA', der(rsa.privateKey, { type: 'pkcs1' }), 'pkcs1-rsa'],
  ['PKCS#8 RSA', der(rsa.privateKey, { type: 'pkcs8' }), 'pkcs8'],
  ['SEC 1 P-256', der(ec.privateKey, { type: 'sec1' }), 'sec1-ec'],
  ['SEC 1 P-384', der(ec384.privateKey, { type: 'sec1' }), 'sec1-ec'],
  ['PKCS#8 P-256', der(ec.privateKey, { type: 'pkcs8' }), 'pkcs8'],
  ['PKCS#8 Ed25519', der(ed.privateKey, { type: 'pkcs8' }), 'pkcs8'],
];

describe('derPrivateKeyKind', () => {
  it.each(keys)('%s', (_name, bytes, kind) => {
    expect(derPrivateKeyKind(bytes)).toBe(kind);
    expect(derPrivateKeyBase64Valid(bytes.toString('base64'))).toBe(true);
    // Wrapped at 64 characters, with real or escaped line breaks.
    const lines = bytes.toString('base64').match(/.{1,64}/g)!;
    expect(derPrivateKeyBase64Valid(lines.join('\n'))).toBe(true);
    expect(derPrivateKeyBase64Valid(lines.join('\\n'))).toBe(true);
  });

  it('refuses public keys, encrypted keys and certificates', async () => {
    expect(derPrivateKeyKind(der(rsa.publicKey, { type: 'spki' }))).toBeNull();
    expect(derPrivateKeyKind(der(rsa.publicKey, { type: 'pkcs1' }))).toBeNull();
    expect(derPrivateKeyKind(der(ec.publicKey, { type: 'spki' }))).toBeNull();
    expect(derPrivateKeyKind(der(rsa.privateKey, { type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'x' }))).toBeNull();
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    const pair = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({ serialNumber: '01', name: 'CN=leakscan test', keys: pair, signingAlgorithm: alg, notBefore: new Date(0), notAfter: new Date(86_400_000) });
    expect(derPrivateKeyKind(new Uint8Array(cert.rawData))).toBeNull();
  });

  it('refuses any truncation and any extra byte (the outer length must be the whole input)', () => {
    for (const [, bytes] of keys) {
      for (let cut = 1; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 40))) {
        expect(derPrivateKeyKind(bytes.subarray(0, bytes.length - cut))).toBeNull();
      }
      expect(derPrivateKeyKind(Buffer.concat([bytes, Buffer.from([0])]))).toBeNull();
    }
  });

  it('refuses base64 that is not a key: random bytes, text, bad padding', () => {
    expect(derPrivateKeyBase64Valid(Buffer.from('x'.repeat(300)).toString('base64'))).toBe(false);
    const b64 = keys[0]![1].toString('base64');
    expect(derPrivateKeyBase64Valid(b64.slice(0, -1))).toBe(false);
    expect(derPrivateKeyBase64Valid(`${b64.slice(0, 40)}*${b64.slice(41)}`)).toBe(false);
  });
});
