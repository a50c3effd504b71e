import fc from 'fast-check';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pemPrivateKeyValid } from '../../src/validators/pem.js';

// Keys generated for the test run only (never stored): they prove the DER starts the validator
// relies on hold for what OpenSSL actually writes.
const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const sec1 = ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string;
const ed8 = ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const encrypted8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }) as string;
const legacyEncrypted = rsa.privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'x' }) as string;

function armour(label: string, body: string, eol = '\n', headers: string[] = []): string {
  const lines = body.match(/.{1,64}/g) ?? [];
  const head = headers.length ? [...headers, ''] : [];
  return [`-----BEGIN ${label}-----`, ...head, ...lines, `-----END ${label}-----`].join(eol);
}
const opensshBody = Buffer.concat([Buffer.from('openssh-key-v1\0'), randomBytes(300)]).toString('base64');

describe('pemPrivateKeyValid', () => {
  it.each([
    ['PKCS#1 RSA', pkcs1],
    ['PKCS#8 RSA', pkcs8],
    ['SEC 1 EC', sec1],
    ['PKCS#8 Ed25519 (short body)', ed8],
    ['encrypted PKCS#8', encrypted8],
    ['RFC 1421 encrypted PKCS#1', legacyEncrypted],
    ['OpenSSH', armour('OPENSSH PRIVATE KEY', opensshBody)],
    ['PGP armour with headers and CRC line', armour('PGP PRIVATE KEY BLOCK', randomBytes(300).toString('base64'), '\n', ['Version: Test 1']).replace('\n-----END', '\n=AbCd\n-----END')],
    ['literal \\n escapes (.env)', pkcs8.trimEnd().replaceAll('\n', '\\n')],
    ['literal \\r\\n escapes', pkcs1.trimEnd().replaceAll('\n', '\\r\\n')],
    ['CRLF line breaks', pkcs8.replaceAll('\n', '\r\n')],
    ['truncated, no END line', pkcs8.slice(0, 200)],
    ['lines joined by spaces', pkcs1.trimEnd().replaceAll('\n', ' ')],
    ['YAML-indented lines', pkcs8.trimEnd().replaceAll('\n', '\n    ')],
  ])('accepts %s', (_n, block) => {
    expect(pemPrivateKeyValid(block)).toBe(true);
  });

  it.each([
    ['body under 64 base64 characters', armour('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC')],
    ['elided body', '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA...\n-----END RSA PRIVATE KEY-----'],
    ['DER label with a non-DER body', armour('RSA PRIVATE KEY', `QUJD${randomBytes(200).toString('base64')}`)],
    ['OpenSSH label without the magic', armour('OPENSSH PRIVATE KEY', `AAAAB3NzaC1yc2E${randomBytes(200).toString('base64')}`)],
    ['public key', (rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string)],
    ['foreign character in the body', pkcs8.replace(/\n(.)/, '\n*')],
    ['no BEGIN line', pkcs8.slice(pkcs8.indexOf('\n') + 1)],
    ['prose inside the body', pkcs8.replace(/\n(.{64})\n/, '\nsee the docs for details\n')],
    ['armour header after the body started', pkcs1.replace(/\n(.{64})\n/, '\n$1\nComment: late\n')],
  ])('rejects %s', (_n, block) => {
    expect(pemPrivateKeyValid(block)).toBe(false);
  });
});

describe('pemPrivateKeyValid on generated base64 bodies', () => {
  // The definition for bodies of base64, padding and real line breaks: every non-empty line is base64
  // with at most two `=` at its end (or, under a PGP label, a CRC line `=XXXX`), and the joined body
  // is long enough and starts as the label says.
  function reference(label: string, body: string): boolean {
    let joined = '';
    for (const line of body.split(/\r\n|\r|\n/)) {
      if (line === '') continue;
      if (label.startsWith('PGP') && /^=[A-Za-z0-9+/]{4}$/.test(line)) continue;
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(line)) return false;
      joined += line;
    }
    if (joined.length < 64) return false;
    if (label === 'OPENSSH PRIVATE KEY') return joined.startsWith('b3BlbnNzaC1rZXktdjE');
    return label.startsWith('PGP') || joined.startsWith('M');
  }
  it('answers as the line-by-line definition', () => {
    const chunk = fc.constantFrom('MIIEvQIBADANBgkq', 'MIIEvQIBADANBgkq', 'b3BlbnNzaC1rZXktdjE', 'QUJDRA', 'hkiG9w0B+/', 'A');
    const line = fc
      .tuple(fc.constantFrom('', '', '', '', '', '', '', '', '', '=', '=AbCd', '\r'), fc.array(chunk, { minLength: 1, maxLength: 6 }), fc.constantFrom('', '', '', '', '', '', '', '=', '==', '===', '=A'))
      .map(([lead, chunks, pad]) => lead + chunks.join('') + pad);
    const label = fc.constantFrom('RSA PRIVATE KEY', 'PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PGP PRIVATE KEY BLOCK');
    let accepted = 0;
    fc.assert(
      fc.property(label, fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r', '\n\n')), { maxLength: 12 }), (l, lines) => {
        const body = lines.map(([text, eol]) => text + eol).join('');
        const want = reference(l, body);
        if (want) accepted++;
        expect(pemPrivateKeyValid(`-----BEGIN ${l}-----\n${body}\n-----END ${l}-----`)).toBe(want);
      }),
      { numRuns: 4000, seed: 20261129 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
