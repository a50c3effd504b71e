/**
 * The roles log in to a NATS server that requires it: a user and password (the password from
 * LEAKSCAN_NATS_PASSWORD), a token (LEAKSCAN_NATS_TOKEN), TLS with a private CA and a client
 * certificate (made by the audit log's own certificate code, src/audit/tls.ts). A refused login is
 * SDD_ERR_BUS_AUTH and a non-zero exit, never a hang, and no output carries the password or token.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTlsMaterial } from '../../src/audit/tls.js';
import { busLogin, connectBus, ensureEventsStream, parseNatsUrl } from '../../src/fleet/index.js';
import { runCli } from '../cli/helpers.js';
import { sh, spawnLeakscan, tempDir } from '../serve/helpers.js';
import { natsOrReason } from './helpers.js';

const kMain = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const certs = tempDir('leakscan-nats-tls-');
const tls = (await ensureTlsMaterial(certs.dir)).paths;
const password = `pw-${randomBytes(12).toString('hex')}`;
const token = `tok-${randomBytes(12).toString('hex')}`;
const secured = await natsOrReason({ login: { user: 'fleet', password }, tls: { cert: tls.server, key: tls.serverKey, ca: tls.ca } });
const tokened = await natsOrReason({ login: { token } });

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
  return undefined;
};

afterAll(() => certs.remove());

describe('NATS login options', () => {
  const cwd = certs.dir;
  it('refuses conflicting or incomplete logins, unreadable files and credentials in the URL', () => {
    expect(code(() => busLogin({ natsUser: 'u' }, {}, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => busLogin({}, { LEAKSCAN_NATS_PASSWORD: 'p' }, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => busLogin({ natsUser: 'u' }, { LEAKSCAN_NATS_PASSWORD: 'p', LEAKSCAN_NATS_TOKEN: 't' }, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => busLogin({ natsTlsCert: tls.client }, {}, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => busLogin({ natsTlsCa: 'missing.pem' }, {}, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(code(() => busLogin({ natsCreds: tls.ca }, {}, cwd))).toBe('SDD_ERR_FLEET_OPTION');
    expect(busLogin({ natsUser: 'u' }, { LEAKSCAN_NATS_PASSWORD: 'p' }, cwd).options).toEqual({ user: 'u', pass: 'p' });
    expect(busLogin({}, { LEAKSCAN_NATS_TOKEN: 't' }, cwd).options).toEqual({ token: 't' });
    expect(parseNatsUrl('tls://10.0.0.5:4222')).toBe('tls://10.0.0.5:4222');
    let message = '';
    try {
      parseNatsUrl('nats://fleet:s3cr3t@10.0.0.5:4222');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('not in the URL');
    expect(message).not.toContain('s3cr3t');
  });

  it('reads a credentials file (user JWT and NKey seed) into the client\'s authenticator', () => {
    const file = join(certs.dir, 'user.creds');
    // The shape `nsc generate creds` writes; the values are not checked until a server reads them.
    writeFileSync(file, '-----BEGIN NATS USER JWT-----\neyJ0eXAiOiJKV1QifQ.e30.x\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\nSUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n------END USER NKEY SEED------\n');
    expect(typeof busLogin({ natsCreds: 'user.creds' }, {}, cwd).options.authenticator).toBe('function');
  });
});

if (typeof secured === 'string' || typeof tokened === 'string') {
  describe.skip(`NATS login against nats-server (${String(typeof secured === 'string' ? secured : tokened)})`, () => {
    it('skipped', () => {});
  });
} else {
  afterAll(async () => {
    await secured.stop();
    await tokened.stop();
  });
  const mtls = { natsTlsCa: tls.ca, natsTlsCert: tls.client, natsTlsKey: tls.clientKey };
  const tlsArgs = ['--nats-tls-ca', tls.ca, '--nats-tls-cert', tls.client, '--nats-tls-key', tls.clientKey];

  describe('NATS login against nats-server', () => {
    it('connects with the user, password, CA and client certificate, and uses JetStream', async () => {
      const nc = await connectBus(secured.url, 'test', busLogin({ natsUser: 'fleet', ...mtls }, { LEAKSCAN_NATS_PASSWORD: password }, '/'));
      try {
        expect((await ensureEventsStream(nc)).config.name).toBe('LEAKSCAN_EVENTS');
      } finally {
        await nc.close();
      }
      const nt = await connectBus(tokened.url, 'test', busLogin({}, { LEAKSCAN_NATS_TOKEN: token }, '/'));
      await nt.close();
    });

    it('a wrong password, a missing login or an untrusted server certificate is SDD_ERR_BUS_AUTH, without the secret', async () => {
      const wrong = `${password}-x`;
      const refused = connectBus(secured.url, 'test', busLogin({ natsUser: 'fleet', ...mtls }, { LEAKSCAN_NATS_PASSWORD: wrong }, '/'));
      await expect(refused).rejects.toMatchObject({ code: 'SDD_ERR_BUS_AUTH' });
      await expect(refused.catch((e: Error) => e.message)).resolves.not.toContain(wrong);
      await expect(connectBus(tokened.url, 'test')).rejects.toMatchObject({ code: 'SDD_ERR_BUS_AUTH' });
      await expect(connectBus(tokened.url, 'test', busLogin({}, { LEAKSCAN_NATS_TOKEN: `${token}x` }, '/'))).rejects.toMatchObject({ code: 'SDD_ERR_BUS_AUTH' });
      // Node's own CAs do not include the test CA.
      await expect(connectBus(secured.url, 'test', busLogin({ natsUser: 'fleet', natsTlsCert: tls.client, natsTlsKey: tls.clientKey }, { LEAKSCAN_NATS_PASSWORD: password }, '/'))).rejects.toMatchObject({ code: 'SDD_ERR_BUS_AUTH' });
    });

    it('scan-worker and batcher exit 4 with SDD_ERR_BUS_AUTH on a refused login, and run with the right one', async () => {
      const data = tempDir('leakscan-login-');
      const wrong = `${password}-x`;
      const env = (pw: string): NodeJS.ProcessEnv => ({ ...process.env, LEAKSCAN_NATS_PASSWORD: pw });
      try {
        for (const role of ['scan-worker --workers 1', `batcher --data "${data.dir}"`]) {
          const r = await sh(`"${process.execPath}" --import tsx "${kMain}" ${role} --nats ${secured.url} --nats-user fleet ${tlsArgs.join(' ')}`, { timeoutMs: 60_000, env: env(wrong) });
          expect(r.code, r.stderr).toBe(4);
          expect(r.stderr).toContain('SDD_ERR_BUS_AUTH');
          expect(r.stdout.toString() + r.stderr).not.toContain(wrong);
        }
        const worker = await spawnLeakscan(['scan-worker', '--nats', secured.url, '--workers', '1', '--nats-user', 'fleet', ...tlsArgs], env(password));
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
      } finally {
        data.remove();
      }
    }, 120_000);

    it('serve --nats: a refused login is a usage error naming SDD_ERR_BUS_AUTH', async () => {
      const data = tempDir('leakscan-login-serve-');
      try {
        const without = await runCli(['serve', '--data', data.dir, '--port', '0', '--audit-port', '0', '--nats-tls-ca', tls.ca]);
        expect(without.code).toBe(2);
        expect(without.stderr).toContain('--nats-tls-ca needs --nats');
        const r = await runCli(['serve', '--data', data.dir, '--port', '0', '--audit-port', '0', '--nats', tokened.url]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('SDD_ERR_BUS_AUTH');
      } finally {
        data.remove();
      }
    }, 60_000);
  });
}
