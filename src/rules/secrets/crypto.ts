import type { RuleDef } from '../types.js';
import { decodeJwt, type DecodedJwt } from '../../validators/jwt.js';
import { pemPrivateKeyValid } from '../../validators/pem.js';
import { derPrivateKeyBase64Valid } from '../../validators/der-key.js';
import { ppkValid } from '../../validators/ppk.js';
import { isPlaceholder, repeatsCharacter } from '../placeholders.js';
import { matchFromHit } from '../run-match.js';
import { kBase64Boundary, kTokenBoundary } from './fragments.js';
import { b64url, derKeySample, jwtSample, kBase64, kBase64Url, kHexLower, pemSample, ppkSample, synth } from './samples.js';

/**
 * Tokens that are JWTs but published on purpose: Supabase's `anon` key is meant to ship in every
 * browser bundle (row-level security, not the key, protects the data), so it is not a leak.
 */
function publicByDesign(jwt: DecodedJwt): boolean {
  const claims = jwt.claims;
  return claims !== null && claims.iss === 'supabase' && claims.role === 'anon';
}

/** Signed, well-formed JWT: JSON header with a real `alg`, JSON claims, not a public-by-design key. */
function signedJwt(token: string): boolean {
  const jwt = decodeJwt(token);
  return jwt !== null && jwt.header.alg.toLowerCase() !== 'none' && !publicByDesign(jwt);
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
  return decodeJwt(token)?.header.alg.toLowerCase() === 'none';
}

/** Placeholder bodies: long runs of one character, `xxxxxxxx`, or placeholder words. */
function placeholderPem(block: string): boolean {
  const start = block.indexOf('-----', 5) + 5;
  const endAt = block.indexOf('-----END', start);
  const body = block.slice(start, endAt < 0 ? undefined : endAt);
  return repeatsCharacter(body, 20) || /x{8}/i.test(body) || /example|sample|dummy|redacted|placeholder/i.test(body);
}

/** The private-key pattern, assembled from named parts (see the rule's comment). */
function pemPattern(): string {
  const label = String.raw`[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----`;
  // A line break, real or escaped, or where a key is written as string literals joined in code
  // (`"…\n" +` then `"…"` on the next line, Python's adjacent literals): a closing quote, an optional
  // `+` and an opening quote.
  const sep = String.raw`(?:[ \t\r\n]|\\[rn]|["'][ \t]*\+?[ \t\r\n]*["'])`;
  // A header's value runs to the end of its line, unbounded: six headers of a counted 100 characters
  // were 600 automaton positions, and building RE2's DFA states over them cost a cold process about
  // 60 ms on the bench's dense bodies (warm the same).
  const header = String.raw`${sep}{1,24}[A-Za-z][A-Za-z0-9-]{0,40}: ?[^\r\n\\]+`;
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

const derPkcs8 = derKeySample('pkcs8', 'der-1');
const derPkcs1 = derKeySample('pkcs1', 'der-2');
const derSec1 = derKeySample('sec1', 'der-3');
const ppkEd25519 = ppkSample('ppk-1');
const ppkRsaEscaped = ppkSample('ppk-2', 'ssh-rsa', 2, '\\n');
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
// The same block as string literals joined in Java (`"…\n" +`) and as Python's adjacent literals.
const javaLiterals = rsaKey.split('\n').map((l) => `"${l}\\n"`).join(' +\n        ');
const javaKey = javaLiterals.slice(1, javaLiterals.lastIndexOf('-----') + 5);
const pyLiterals = ecKey.split('\n').map((l) => `    '${l}\\n'`).join('\n');
const pyKey = pyLiterals.slice(5, pyLiterals.lastIndexOf('-----') + 5);
const oneLine = pemSample('RSA PRIVATE KEY', 'pem-13', 1200, 'MIIEowIBAAKCAQEA', ' ');
const yamlIndented = pemSample('EC PRIVATE KEY', 'pem-14', 164, 'MHcCAQEEI', '\n    ');
const pgpBody = synth('pem-7', 640, kBase64).match(/.{1,64}/g)!.join('\n');
const pgpKey = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: Synthetic 1\n\nlQ${pgpBody}\n=${synth('pem-7c', 4, kBase64)}\n-----END PGP PRIVATE KEY BLOCK-----`;
// An armour header line of any length (OpenPGP's Comment often runs past 100 characters).
const pgpLongComment = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: ${'exported for the synthetic test keyring of the build farm, '.repeat(3)}do not use\n\nlQ${pgpBody}\n-----END PGP PRIVATE KEY BLOCK-----`;

const kJwt = String.raw`eyJ[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}`;

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
    pattern: kJwt,
    maxLength: 8192,
    // Every JWT starts with its header's `eyJ`, the trigger.
    lead: 0,
    runMatch: matchFromHit(kJwt),
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
        { text: pgpLongComment, match: pgpLongComment },
        { text: `${truncated}\nThen restart the service and check the logs.`, match: truncated },
        { text: `HEROKU_KEY="${oneLine}"`, match: oneLine },
        { text: `String key = ${javaLiterals};`, match: javaKey },
        { text: `KEY = (\n${pyLiterals}\n)`, match: pyKey },
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
  {
    id: 'private-key-der',
    description: 'Private key as base64 DER without PEM armour (PKCS#1 RSA, PKCS#8, SEC 1 EC), checked by its ASN.1 structure.',
    family: 'secrets',
    tags: ['private-key'],
    enabledByDefault: true,
    note: 'One base64 line holding the whole key: a PEM body is wrapped at 64 characters, so its lines never pass; a PEM block written on one unwrapped line is also reported by private-key.',
    // The base64 of each structure's fixed start, at the alignment a key beginning the value has:
    // PKCS#1 RSA (2-byte lengths), PKCS#8 RSA, PKCS#8 EC (P-256, P-384), PKCS#8 Ed25519, SEC 1 EC.
    trigger: { keywords: ['IBAAKC', 'IBADANBgkqhkiG9w0BAQEF', 'AgEAMBMGByqGSM49AgEG', 'AgEAMBAGByqGSM49AgEG', 'MC4CAQAwBQYDK2Vw', 'MHcCAQEEI', 'MIGkAgEBBD'], next: 'A-Za-z0-9+/' },
    // Every DER SEQUENCE starts `0x30`, base64 `M`; each keyword sits where its structure puts it.
    pattern: '(?:M[A-Za-z0-9+/]{5}(?:IBAAKC|IBADANBgkqhkiG9w0BAQEF)|M[A-Za-z0-9+/]{3}AgEAMB[AM]GByqGSM49AgEG|MC4CAQAwBQYDK2Vw|MHcCAQEEI|MIGkAgEBBD)[A-Za-z0-9+/]{40,}={0,2}',
    maxLength: 8192,
    // The keywords start at most six characters into the value (`MIIEvQ` + `IBADAN…`).
    lead: 6,
    // `=` may come before (`KEY=MIIE…`), not after (padding is part of the value).
    boundary: { left: 'A-Za-z0-9+/_-', right: kBase64Boundary + '_-' },
    validate: derPrivateKeyBase64Valid,
    suppressPlaceholders: false,
    examples: {
      positive: [
        { text: `{"privateKey":"${derPkcs8}"}`, match: derPkcs8 },
        { text: `RSA_KEY=${derPkcs1}\nNEXT=1`, match: derPkcs1 },
        { text: `signing_key: ${derSec1}`, match: derSec1 },
      ],
      negative: [
        // A public key (SPKI) and a certificate's start, the key cut short, and a PEM body's lines.
        { text: `{"publicKey":"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${synth('der-pub', 300, kBase64)}"}` },
        { text: `cert=MIIDdzCCAl+gAwIBAgIEAgEAMBMGByqGSM49AgEG${synth('der-cert', 200, kBase64)}` },
        { text: `{"privateKey":"${derPkcs8.slice(0, 400)}"}` },
        { text: `${pemSample('PRIVATE KEY', 'der-pem', 1620, derPkcs8.slice(0, 40))}\n` },
      ],
    },
  },
  {
    id: 'putty-private-key',
    description: 'PuTTY private key file (.ppk, formats 2 and 3), checked by its layout and public key blob.',
    family: 'secrets',
    tags: ['private-key'],
    enabledByDefault: true,
    trigger: { keywords: ['PuTTY-User-Key-File-'], next: '23' },
    // Header, encryption and comment, the public lines, optional key-derivation headers, the private
    // lines and the MAC; lines end with real or escaped breaks.
    pattern: String.raw`PuTTY-User-Key-File-[23]: [A-Za-z0-9@.-]{1,64}(?:\\r\\n|\\n|\r?\n)Encryption: [a-z0-9-]{1,20}(?:\\r\\n|\\n|\r?\n)Comment: [^\r\n\\]{0,200}(?:\\r\\n|\\n|\r?\n)Public-Lines: [0-9]{1,3}(?:(?:\\r\\n|\\n|\r?\n)[A-Za-z0-9+/=]{1,64})+(?:(?:\\r\\n|\\n|\r?\n)[A-Za-z0-9-]{1,30}: [^\r\n\\]{1,100})*(?:\\r\\n|\\n|\r?\n)Private-Lines: [0-9]{1,3}(?:(?:\\r\\n|\\n|\r?\n)[A-Za-z0-9+/=]{1,64})+(?:\\r\\n|\\n|\r?\n)Private-MAC: [0-9a-f]{40,64}`,
    maxLength: 8192,
    lead: 0,
    boundary: { left: 'A-Za-z0-9', right: '0-9a-f' },
    validate: ppkValid,
    suppressPlaceholders: false,
    examples: {
      positive: [
        { text: `${ppkEd25519}\n`, match: ppkEd25519 },
        { text: `{"file":"key.ppk","content":"${ppkRsaEscaped}"}`, match: ppkRsaEscaped },
      ],
      negative: [
        // Without its MAC line, with a public blob of another key type, and a page that names the format.
        { text: ppkEd25519.slice(0, ppkEd25519.lastIndexOf('\nPrivate-MAC')) },
        { text: ppkEd25519.replace('PuTTY-User-Key-File-3: ssh-ed25519', 'PuTTY-User-Key-File-3: ssh-rsa') },
        { text: 'Save it as a .ppk file: the first line reads PuTTY-User-Key-File-3: ssh-ed25519.' },
      ],
    },
  },
];
