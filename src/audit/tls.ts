/**
 * The mutual-TLS material of the audit log, made by our own code (no `openssl` binary): a CA owned by
 * the log owner, a server certificate for 127.0.0.1/::1/localhost and a log-owner client certificate,
 * all ECDSA P-256 with SHA-256, written to DIR/tls (private keys 0600, PKCS#8 PEM).
 *
 * Reuse rules: everything present and unexpired is kept. A missing CA (either file) means a new CA and
 * therefore new leaves; a missing or expiring leaf is reissued by the existing CA.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, webcrypto } from 'node:crypto';
import { writeFileAtomic } from './files.js';

export interface TlsPaths {
  ca: string;
  caKey: string;
  server: string;
  serverKey: string;
  client: string;
  clientKey: string;
}

export interface TlsMaterial {
  paths: TlsPaths;
  /** Paths created by this call. */
  created: string[];
}

const kDay = 24 * 3600 * 1000;
/** Leaves closer than this to expiry are reissued at start. */
const kRenewBefore = 30 * kDay;
const kCaLifetime = 10 * 365 * kDay;
/** 825 days: the longest server-certificate lifetime TLS clients have commonly accepted. */
const kLeafLifetime = 825 * kDay;
const kAlg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export function tlsPaths(dataDir: string): TlsPaths {
  const dir = join(dataDir, 'tls');
  return {
    ca: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca-key.pem'),
    server: join(dir, 'server.pem'),
    serverKey: join(dir, 'server-key.pem'),
    client: join(dir, 'client.pem'),
    clientKey: join(dir, 'client-key.pem'),
  };
}

type X509 = typeof import('@peculiar/x509');

let kX509: Promise<X509> | undefined;

/**
 * @peculiar/x509 needs a Reflect metadata polyfill (its README): loaded lazily, so importing leakscan
 * does not touch the global `Reflect` unless certificates are made.
 */
function loadX509(): Promise<X509> {
  kX509 ??= (async () => {
    await import('reflect-metadata');
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as Crypto);
    return x509;
  })();
  return kX509;
}

function serial(): string {
  const b = randomBytes(16);
  b[0]! &= 0x7f; // a positive INTEGER
  return b.toString('hex');
}

async function keyPem(x509: X509, key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

type Certificate = InstanceType<X509['X509Certificate']>;

/** The certificate at `path` if it exists, parses and is not near expiry; undefined otherwise. */
function usable(x509: X509, path: string, now: number): Certificate | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const cert = new x509.X509Certificate(readFileSync(path, 'utf8'));
    return cert.notAfter.getTime() - now > kRenewBefore && cert.notBefore.getTime() <= now + kDay ? cert : undefined;
  } catch {
    return undefined;
  }
}

interface Issuer {
  cert: Certificate;
  key: CryptoKey;
}

async function issueLeaf(x509: X509, ca: Issuer, kind: 'server' | 'client', now: number): Promise<{ cert: string; key: string }> {
  const keys = (await webcrypto.subtle.generateKey(kAlg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const extensions: InstanceType<X509['Extension']>[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([kind === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
  ];
  if (kind === 'server') {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: kind === 'server' ? 'CN=localhost, O=leakscan' : 'CN=leakscan log owner, O=leakscan',
    issuer: ca.cert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + kLeafLifetime),
    signingAlgorithm: kAlg,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions,
  });
  return { cert: cert.toString('pem'), key: await keyPem(x509, keys.privateKey) };
}

/**
 * Creates DIR/tls/{ca,ca-key,server,server-key,client,client-key}.pem when missing and reuses them after.
 * @example
 * const { paths, created } = await ensureTlsMaterial('.leakscan');
 * // curl --cacert paths.ca --cert paths.client --key paths.clientKey https://127.0.0.1:8788/info
 */
export async function ensureTlsMaterial(dataDir: string, now: number = Date.now()): Promise<TlsMaterial> {
  const paths = tlsPaths(dataDir);
  const created: string[] = [];
  const x509 = await loadX509();
  const leaves = [
    { kind: 'server' as const, cert: paths.server, key: paths.serverKey },
    { kind: 'client' as const, cert: paths.client, key: paths.clientKey },
  ];
  const caCert = existsSync(paths.caKey) ? usable(x509, paths.ca, now) : undefined;
  const stale = leaves.filter((l) => !caCert || !existsSync(l.key) || !usable(x509, l.cert, now));
  if (stale.length === 0) return { paths, created };
  mkdirSync(join(dataDir, 'tls'), { recursive: true, mode: 0o700 });

  let ca: Issuer;
  if (caCert) {
    const der = x509.PemConverter.decodeFirst(readFileSync(paths.caKey, 'utf8'));
    ca = { cert: caCert, key: await webcrypto.subtle.importKey('pkcs8', der, kAlg, false, ['sign']) };
  } else {
    const keys = (await webcrypto.subtle.generateKey(kAlg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: serial(),
      name: 'CN=leakscan audit log owner CA, O=leakscan',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + kCaLifetime),
      signingAlgorithm: kAlg,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    // Key first: a crash between the two writes leaves a key without a certificate, which is redone.
    writeFileAtomic(paths.caKey, await keyPem(x509, keys.privateKey), 0o600);
    writeFileAtomic(paths.ca, cert.toString('pem'), 0o644);
    created.push(paths.ca, paths.caKey);
    ca = { cert, key: keys.privateKey };
  }
  for (const leaf of stale) {
    const made = await issueLeaf(x509, ca, leaf.kind, now);
    writeFileAtomic(leaf.key, made.key, 0o600);
    writeFileAtomic(leaf.cert, made.cert, 0o644);
    created.push(leaf.cert, leaf.key);
  }
  return { paths, created };
}
