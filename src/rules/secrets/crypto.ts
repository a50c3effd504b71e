import type { RuleDef } from '../types.js';
import { jwtAlg, jwtClaims, jwtValid } from '../../validators/jwt.js';
import { pemPrivateKeyValid } from '../../validators/pem.js';
import { isPlaceholder } from '../placeholders.js';
import { kBase64Boundary, kTokenBoundary } from './fragments.js';
import { b64url, jwtSample, kBase64, kBase64Url, kHexLower, pemSample, synth } from './samples.js';

/**
 * Tokens that are JWTs but published on purpose: Supabase's `anon` key is meant to ship in every
 * browser bundle (row-level security, not the key, protects the data), so it is not a leak.
 */
function publicByDesign(token: string): boolean {
  const claims = jwtClaims(token);
  return claims !== null && claims.iss === 'supabase' && claims.role === 'anon';
}

/** Signed, well-formed JWT: JSON header with a real `alg`, JSON claims, not a public-by-design key. */
function signedJwt(token: string): boolean {
  if (!jwtValid(token)) return false;
  const alg = jwtAlg(token);
  return alg !== null && alg.toLowerCase() !== 'none' && !publicByDesign(token);
}

/**
 * A signed JWT wrapped in base64 once more (a token stored or passed as base64: `ZXlK…` is the base64
 * of `eyJ`): decodes the value and checks the token it holds. A trailing newline (`echo … | base64`)
 * is allowed.
 */
function base64WrappedJwt(value: string): boolean {
  const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  const text = bytes.toString('latin1').replace(/\r?\n$/, '');
  return /^eyJ[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}$/.test(text) && signedJwt(text) && !isPlaceholder(text);
}

/** Unsigned JWT (`alg: none`, empty signature). */
function unsignedJwt(token: string): boolean {
  return jwtValid(token) && jwtAlg(token)?.toLowerCase() === 'none';
}

/** Placeholder bodies: long runs of one character, `xxxxxxxx`, or placeholder words. */
function placeholderPem(block: string): boolean {
  const start = block.indexOf('-----', 5) + 5;
  const endAt = block.indexOf('-----END', start);
  const body = block.slice(start, endAt < 0 ? undefined : endAt);
  return /([^\s])\1{19}/u.test(body) || /x{8}/i.test(body) || /example|sample|dummy|redacted|placeholder/i.test(body);
}

/** The private-key pattern, assembled from named parts (see the rule's comment). */
function pemPattern(): string {
  const label = String.raw`[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----`;
  const sep = String.raw`(?:[ \t\r\n]|\\[rn])`;
  const header = String.raw`${sep}{1,24}[A-Za-z][A-Za-z0-9-]{0,40}: ?[^\r\n\\]{1,100}`;
  const chunk = '[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=]*';
  const end = String.raw`(?:${sep}{1,24}[A-Za-z0-9+/=]{1,15}){0,2}${sep}{0,24}-----END${label}`;
  return `-----BEGIN${label}(?:${header}){0,6}${sep}{0,24}${chunk}(?:${sep}{1,24}${chunk})*(?:${end})?`;
}

const jwtHs = jwtSample({ alg: 'HS256', typ: 'JWT' }, { sub: 'user-4821', iat: 1767225600, exp: 1767229200 }, 'jwt-1');
const jwtRs = jwtSample({ alg: 'RS256', kid: synth('jwt-kid', 16, kHexLower), typ: 'JWT' }, { iss: 'https://id.example.test', aud: 'api', sub: '42', scope: 'read write' }, 'jwt-2', 342);
const jwtNone = jwtSample({ alg: 'none', typ: 'JWT' }, { sub: 'admin', role: 'owner' }, 'jwt-3', 0);
const jwtNone2 = jwtSample({ alg: 'none' }, { user: 'guest-19' }, 'jwt-4', 0);
const jwtWrapped = Buffer.from(jwtHs).toString('base64');
const jwtWrapped2 = Buffer.from(`${jwtRs}\n`).toString('base64url');
const supabaseAnon = jwtSample({ alg: 'HS256', typ: 'JWT' }, { iss: 'supabase', ref: 'abcdefghijklmnopqrst', role: 'anon', iat: 1700000000, exp: 2000000000 }, 'jwt-5');

const rsaKey = pemSample('RSA PRIVATE KEY', 'pem-1', 1588, 'MIIEowIBAAKCAQEA');
const pkcs8Env = pemSample('PRIVATE KEY', 'pem-2', 1620, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '\\n');
const pkcs8Json = pemSample('PRIVATE KEY', 'pem-2j', 1620, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
const opensshKey = pemSample('OPENSSH PRIVATE KEY', 'pem-3', 400, 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB');
// A 4096-bit RSA key is about 3.2 KB of base64; here with the two-character `\r\n` of a pasted value.
const rsa4096 = pemSample('RSA PRIVATE KEY', 'pem-4', 3240, 'MIIJKQIBAAKCAgEA', '\\r\\n');
const encryptedLegacy = pemSample('RSA PRIVATE KEY', 'pem-5', 1600, '', '\n', [
  'Proc-Type: 4,ENCRYPTED',
  `DEK-Info: AES-256-CBC,${synth('pem-5iv', 32, kHexLower).toUpperCase()}`,
]);
const ecKey = pemSample('EC PRIVATE KEY', 'pem-6', 164, 'MHcCAQEEI');
const truncated = rsaKey.slice(0, rsaKey.indexOf('\n-----END'));
const oneLine = pemSample('RSA PRIVATE KEY', 'pem-13', 1200, 'MIIEowIBAAKCAQEA', ' ');
const yamlIndented = pemSample('EC PRIVATE KEY', 'pem-14', 164, 'MHcCAQEEI', '\n    ');
const pgpBody = synth('pem-7', 640, kBase64).match(/.{1,64}/g)!.join('\n');
const pgpKey = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: Synthetic 1\n\nlQ${pgpBody}\n=${synth('pem-7c', 4, kBase64)}\n-----END PGP PRIVATE KEY BLOCK-----`;

export const cryptoRules: readonly RuleDef[] = [
  {
    id: 'jwt',
    description: 'Signed JSON Web Token (three base64url segments with a JSON header naming its alg).',
    family: 'secrets',
    tags: ['jwt'],
    enabledByDefault: true,
    trigger: { keywords: ['eyJ'], next: 'A-Za-z0-9_-' },
    // Header `{"…` always encodes as `eyJ`, a claims object `{…` as `ey`. The payload is left
    // unbounded (JWTs with many claims reach several KB); the engine's window bounds it.
    pattern: String.raw`eyJ[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}`,
    maxLength: 8192,
    // Every JWT starts with its header's `eyJ`, the trigger.
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    validate: signedJwt,
    note: "Supabase `anon` keys (iss supabase, role anon) are skipped: they are published in browser code by design. jwt.io's sample token is a known sample.",
    examples: {
      positive: [
        { text: `Authorization: Bearer ${jwtHs}`, match: jwtHs },
        { text: `{"access_token":"x","id_token":"${jwtRs}","token_type":"Bearer"}`, match: jwtRs },
        { text: `Set-Cookie: session=${jwtHs}; Path=/; HttpOnly`, match: jwtHs },
        { text: `토큰=${jwtRs}。`, match: jwtRs },
      ],
      negative: [
        {
          text: 'Authorization: Bearer ' + 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
        },
        { text: `data=eyJ${synth('jwt-6', 30, kBase64Url)}.ey${synth('jwt-7', 40, kBase64Url)}.${synth('jwt-8', 43, kBase64Url)}` },
        { text: `t=${b64url('{"typ":"JWT"}')}.${b64url('{"sub":"1"}')}.${synth('jwt-9', 43, kBase64Url)}` },
        { text: `t=${jwtNone}${synth('jwt-10', 43, kBase64Url)}` },
        { text: `const SUPABASE_ANON_KEY = "${supabaseAnon}";` },
        { text: `t=x${jwtHs}` },
      ],
    },
  },
  {
    id: 'jwt-base64',
    description: 'Signed JSON Web Token wrapped in base64 (ZXlK…), checked by decoding it.',
    family: 'secrets',
    tags: ['jwt'],
    enabledByDefault: true,
    // `ZXlK` is the base64 of `eyJ`, which every JWT starts with, at a multiple of three bytes.
    trigger: { keywords: ['ZXlK'], next: 'A-Za-z0-9+/_-' },
    pattern: '(?:ZXlK[A-Za-z0-9+/]{40,}|ZXlK[A-Za-z0-9_-]{40,})={0,2}',
    // A JWT's 8 KB in base64.
    maxLength: 11000,
    lead: 0,
    boundary: { left: kBase64Boundary + '_-', right: kBase64Boundary + '_-' },
    validate: base64WrappedJwt,
    examples: {
      positive: [
        { text: `{"session":"${jwtWrapped}"}`, match: jwtWrapped },
        { text: `X-Forwarded-Token: ${jwtWrapped2}\r\n`, match: jwtWrapped2 },
      ],
      negative: [
        // Base64 of a JWT-shaped text that is not a JWT, of an unsigned token, of jwt.io's sample.
        { text: `v=${Buffer.from(`eyJ${synth('jwt-11', 30, kBase64Url)}.ey${synth('jwt-12', 40, kBase64Url)}.${synth('jwt-13', 43, kBase64Url)}`).toString('base64')}` },
        { text: `v=${Buffer.from(jwtNone).toString('base64')}` },
        { text: `v=${Buffer.from('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c').toString('base64')}` },
        { text: `v=${jwtWrapped.slice(0, 60)}` },
      ],
    },
  },
  {
    id: 'jwt-unsigned',
    description: 'Unsigned JSON Web Token (alg "none", empty signature).',
    family: 'secrets',
    tags: ['jwt'],
    enabledByDefault: false,
    note: 'Off by default: an unsigned token grants nothing by itself (anyone can mint one); worth enabling to find services that accept them.',
    trigger: { keywords: ['eyJ'], next: 'A-Za-z0-9_-' },
    pattern: String.raw`eyJ[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]+\.`,
    maxLength: 8192,
    // Every JWT starts with its header's `eyJ`, the trigger.
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    validate: unsignedJwt,
    examples: {
      positive: [
        { text: `Authorization: Bearer ${jwtNone}`, match: jwtNone },
        { text: `{"token":"${jwtNone2}"}`, match: jwtNone2 },
      ],
      negative: [
        { text: `Authorization: Bearer ${jwtHs}` },
        { text: `t=${jwtHs.slice(0, jwtHs.lastIndexOf('.') + 1)}` },
        { text: `t=${b64url('{"typ":"JWT"}')}.${b64url('{"sub":"1"}')}.` },
      ],
    },
  },
  {
    id: 'private-key',
    description: 'PEM private key block (RSA, EC, DSA, PKCS#8, encrypted, OpenSSH or PGP).',
    family: 'secrets',
    tags: ['private-key'],
    enabledByDefault: true,
    trigger: { keywords: ['PRIVATE KEY-----', 'PRIVATE KEY BLOCK-----'] },
    // Header, optional RFC 1421 / OpenPGP armour headers, then the base64 body and the END line when
    // present (a truncated block is still reported). Body lines are separated by real line breaks
    // (also after the engine decoded JSON `\n`), by the two-character escapes `\n` / `\r` of a pasted
    // `.env` value, by indentation (YAML) or by spaces (a one-line variable). Every body chunk but the
    // last one or two before END is at least 16 characters long, so prose after a truncated block is
    // not swallowed. Chunks are unbounded in the pattern (RE2 caps counted repeats at 1000) and bounded
    // by the engine's window; separator and chunk alphabets are disjoint, so matching stays linear.
    pattern: pemPattern(),
    maxLength: 8192,
    // `-----BEGIN` and at most 30 characters of key type come before `PRIVATE KEY-----`.
    lead: 40,
    boundary: { left: '', right: '' },
    // The body is random base64, where short placeholder words occur by chance; checked below instead.
    suppressPlaceholders: false,
    validate: (v) => pemPrivateKeyValid(v) && !placeholderPem(v),
    examples: {
      positive: [
        { text: `${rsaKey}\n`, match: rsaKey },
        { text: `PRIVATE_KEY="${pkcs8Env}"\nOTHER=1`, match: pkcs8Env },
        { text: `<pre>${opensshKey}</pre>`, match: opensshKey },
        { text: `SSL_KEY=${rsa4096}`, match: rsa4096 },
        { text: encryptedLegacy, match: encryptedLegacy },
        { text: `key: |\n${ecKey}`, match: ecKey },
        { text: pgpKey, match: pgpKey },
        { text: `${truncated}\nThen restart the service and check the logs.`, match: truncated },
        { text: `HEROKU_KEY="${oneLine}"`, match: oneLine },
        { text: `stringData:\n  tls.key: |\n    ${yamlIndented}\n  tls.crt: x`, match: yamlIndented },
        {
          text: JSON.stringify({ type: 'service_account', private_key: `${pkcs8Json}\n` }),
          contentType: 'application/json',
          match: pkcs8Json,
        },
      ],
      negative: [
        { text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA...\n-----END RSA PRIVATE KEY-----' },
        { text: pemSample('PUBLIC KEY', 'pem-8', 400, 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA') },
        { text: pemSample('CERTIFICATE', 'pem-9', 1200, 'MIIDdzCCAl+gAwIBAgIE') },
        { text: `-----BEGIN PRIVATE KEY-----\nMIIE${'A'.repeat(200)}\n-----END PRIVATE KEY-----` },
        { text: `-----BEGIN PRIVATE KEY-----\nMIIE${'x'.repeat(8)}${synth('pem-10', 120, kBase64)}\n-----END PRIVATE KEY-----` },
        { text: pemSample('OPENSSH PRIVATE KEY', 'pem-11', 400, 'AAAAB3NzaC1yc2EAAAADAQABAAABAQ') },
        { text: pemSample('RSA PRIVATE KEY', 'pem-12', 400, 'QUJD') },
        { text: 'Generate one with `openssl genrsa` and paste the -----BEGIN RSA PRIVATE KEY----- block here.' },
      ],
    },
  },
];
