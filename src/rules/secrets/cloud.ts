import type { RuleDef } from '../types.js';
import { kAssign, kBase64Boundary, kLabelToValue, kTokenBoundary } from './fragments.js';
import { matchFromHit } from '../run-match.js';
import { kBase32Upper, kBase64, kBase64Url, kHexLower, synth, tok } from './samples.js';

// Synthetic values for the examples (see samples.ts).
const akid = tok('AKIA', synth('aws-akid-1', 16, kBase32Upper));
const asid = tok('ASIA', synth('aws-asid-1', 16, kBase32Upper));
const awsSecret = synth('aws-secret-1', 40, kBase64);
const awsSecret2 = synth('aws-secret-2', 40, kBase64);
const awsSecret3 = synth('aws-secret-3', 40, kBase64);
const gcpKey = tok('AIza', synth('gcp-key-1', 35, kBase64Url));
const gcpKey2 = tok('AIza', synth('gcp-key-2', 35, kBase64Url));
const gcpKeyId = synth('gcp-sa-1', 40, kHexLower);
const gcpKeyId2 = synth('gcp-sa-2', 40, kHexLower);
const gocspx = tok('GOCSPX-', synth('gcp-oauth-1', 28, kBase64Url));
const gocspx2 = tok('GOCSPX-', synth('gcp-oauth-2', 28, kBase64Url));
/** A storage account key: 64 random bytes, so the base64 character before `==` carries 2 bits (A, Q, g or w). */
const azureKey = (seed: string): string => `${synth(seed, 85, kBase64)}${'AQgw'.charAt(synth(`${seed}-last`, 1, '0123').charCodeAt(0) - 48)}==`;
const azKey = azureKey('az-key-1');
const azKey2 = azureKey('az-key-2');
const azKey3 = azureKey('az-key-3');

/** 86 base64 characters and `==` hold exactly 64 bytes when the last character's 4 low bits are zero. */
const azureKeyCanonical = (v: string): boolean => 'AQgw'.includes(v.charAt(85));
const azAd = `${synth('az-ad-1', 3)}8${tok('Q~', synth('az-ad-1b', 34, `${kBase64Url}~.`))}`;
const azAd2 = `${synth('az-ad-2', 3)}3${tok('Q~', synth('az-ad-2b', 31, kBase64Url))}`;
const sasSig = `${synth('az-sas-1', 43, kBase64)}=`;
const sasSigEnc = `${synth('az-sas-2', 43, kBase64).replaceAll('+', '%2B').replaceAll('/', '%2F')}%3D`;
const doTok = tok('dop_v1_', synth('do-1', 64, kHexLower));
const doTok2 = tok('doo_v1_', synth('do-2', 64, kHexLower));

/** An AWS access key ID (as `aws-access-key-id` matches it). */
const kAwsKeyId = '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}';
const kGcpApiKey = 'AIza[0-9A-Za-z_-]{35}';
/** A key ID that no letter or digit comes right before (the character before it is part of the match). */
const kAwsKeyIdAlone = `(?:^|[^A-Za-z0-9])${kAwsKeyId}`;

const kAwsSecretMaxLength = 400;
/**
 * Every match of aws-secret-access-key's pattern names `secret` (AWS's labels, or `secret…key` after
 * a key ID) or is a key ID, a separator and 40 base64 characters (a CSV row). Case-insensitive as the
 * rule is, with Unicode folding as RE2's (`ſ` is an `s`, the Kelvin sign a `k`).
 */
const kAwsSecretNamed = new RegExp(String.raw`secret|${kAwsKeyId}["']?[ \t]{0,3}[,;|:\t][ \t]{0,3}["']?[A-Za-z0-9/+]{40}`, 'giu');
/** The first alternative alone: every named keyword of the rule holds it. */
const kSecretWord = /secret/iu;

/**
 * aws-secret-access-key's hit gate (`RuleDef.hitGate`): some match of `kAwsSecretNamed` starts within
 * the rule's length of the group. A key ID alone (a log line, a table of users' key IDs, an STS
 * response's `AccessKeyId` with no secret in reach) has neither, and in a dump of credentials each one
 * cost a search that read the window to its end for a `secret…key` after it.
 */
function awsSecretNamed(text: string, start: number, end: number): boolean {
  // A group of the rule's named keywords holds `secret` itself: no need to read the window.
  if (kSecretWord.test(text.slice(start, end))) return true;
  const re = kAwsSecretNamed;
  re.lastIndex = Math.max(0, start - kAwsSecretMaxLength);
  const m = re.exec(text);
  return m !== null && m.index < end + kAwsSecretMaxLength;
}

export const cloudRules: readonly RuleDef[] = [
  {
    id: 'aws-access-key-id',
    description: 'AWS access key ID (long-term AKIA or temporary ASIA credential identifier).',
    family: 'secrets',
    tags: ['aws'],
    enabledByDefault: true,
    trigger: { keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'], next: 'A-Z0-9' },
    // Key IDs are 20 characters: a 4-character type prefix and 16 characters of RFC 4648 base32.
    pattern: kAwsKeyId,
    maxLength: 20,
    // The ID starts with its type prefix, the trigger.
    lead: 0,
    runMatch: matchFromHit(kAwsKeyId),
    minEntropy: 3,
    examples: {
      positive: [
        { text: `[default]\naws_access_key_id = ${akid}\nregion = eu-west-1`, match: akid },
        { text: `{"Credentials":{"AccessKeyId":"${asid}","Expiration":"2030-01-01T00:00:00Z"}}`, match: asid },
        { text: `접근 키:${akid}입니다`, match: akid },
      ],
      negative: [
        { text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE' },
        { text: `id=${akid.toLowerCase()}` },
        { text: `id=${akid.slice(0, 19)} (one character short)` },
        { text: `token=X${akid}` },
        { text: `AKIA${'0189'.repeat(4)} has digits outside base32` },
        { text: 'AKIAXXXXXXXXXXXXXXXX' },
      ],
    },
  },
  {
    id: 'aws-secret-access-key',
    description: 'AWS secret access key assigned to an AWS-specific name or paired with an access key ID.',
    family: 'secrets',
    tags: ['aws'],
    enabledByDefault: true,
    trigger: {
      keywords: [
        'secret_access_key', 'secretaccesskey', 'secret-access-key', 'secret.access.key', 'secret access key',
        'aws_secret', 'awssecret', 'aws-secret', 'aws.secret', 'aws secret', 'AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T',
      ],
    },
    // A `secret_key` counts only after `aws` (the anchor names the second) or after a key ID, whose
    // own trigger's window reaches it: a bare `secret_key` is no trigger, which spares a window
    // search wherever Django's or Rails' settings name one.
    // Four anchors, so a bare `secret_key` (Django, Rails…) is never enough: AWS's own names
    // (`aws_secret_access_key`, `SecretAccessKey` in STS JSON/XML, `AWS_SECRET_KEY`, the console's and
    // the IAM credentials CSV's "Secret access key"), any `secret_key` that follows an access key ID
    // within 160 characters (Terraform's aws provider, s3cmd's .s3cfg), or the key ID itself followed by
    // a separator and the secret (a CSV row `AKIA…,<secret>`, `s3://AKIA…:<secret>@bucket`;
    // trufflehog pairs IDs and secrets the same way). Between a name and the value, any of the
    // `kLabelToValue` syntaxes (markup, CDATA, attribute and name/value pairs). The value is 40
    // characters of base64 (Macie's and Nosey Parker's anchor). An identifier may run into the name
    // (`s3SecretAccessKey`, `minioAwsSecretKey`): a name's match starts at the name, with no left
    // boundary, and a key ID's at the character before it, which may not be a letter or digit (or at
    // the start of the text). Every match thus starts at its trigger or one character before it, so
    // the window reaches one character back, not the rule's length: a search from a name no longer
    // reads the 400 characters before it (and back again for a key ID that could start a match).
    pattern: String.raw`(?:(?:(?:aws[ _.-]?)?secret[ _.-]?access[ _.-]?key|aws[ _.-]?secret[ _.-]?key|${kAwsKeyIdAlone}[\s\S]*?secret[ _.-]?(?:access[ _.-]?)?key)${kLabelToValue}|${kAwsKeyIdAlone}["']?[ \t]{0,3}[,;|:\t][ \t]{0,3}["']?)([A-Za-z0-9/+]{40})`,
    ignoreCase: true,
    group: 1,
    maxLength: kAwsSecretMaxLength,
    lead: 1,
    hitGate: awsSecretNamed,
    boundary: { left: '', right: kBase64Boundary },
    minEntropy: 4,
    examples: {
      positive: [
        { text: `export AWS_SECRET_ACCESS_KEY=${awsSecret}\n`, match: awsSecret },
        {
          text: `{"Credentials":{"AccessKeyId":"${asid}","SecretAccessKey":"${awsSecret2}","SessionToken":"x"}}`,
          match: awsSecret2,
        },
        { text: `provider "aws" {\n  access_key = "${akid}"\n  secret_key = "${awsSecret3}"\n}`, match: awsSecret3 },
        { text: `<Credentials><SecretAccessKey>${awsSecret}</SecretAccessKey></Credentials>`, match: awsSecret },
        { text: `awsSecretKey: '${awsSecret2}'`, match: awsSecret2 },
        // Label and value split across markup, CDATA and name/value pairs.
        { text: `<Settings><aws_secret_access_key><![CDATA[${awsSecret3}]]></aws_secret_access_key></Settings>`, match: awsSecret3 },
        { text: `<tr><th scope="row">Secret access key</th><td><code>${awsSecret}</code></td></tr>`, match: awsSecret },
        {
          text: `<label for="aws_secret_access_key">AWS secret access key</label> <input type="text" id="aws_secret_access_key" name="aws_secret_access_key" value="${awsSecret2}" readonly>`,
          match: awsSecret2,
        },
        { text: `"environment":[{"name":"AWS_SECRET_ACCESS_KEY","value":"${awsSecret3}"}]`, match: awsSecret3 },
        { text: `{"s3SecretAccessKey":"${awsSecret}"}`, match: awsSecret },
        // The IAM console's credentials CSV: the key ID, then the secret.
        { text: `Access key ID,Secret access key\n${akid},${awsSecret2}\n`, match: awsSecret2 },
      ],
      negative: [
        { text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
        { text: `SECRET_KEY = '${awsSecret}'  # Django, no AWS anchor` },
        { text: `aws_secret_access_key = ${awsSecret}Q (41 characters)` },
        { text: `aws_secret_access_key = ${'ab'.repeat(20)}` },
        { text: `aws_secret_access_key = ${awsSecret.slice(0, 39)}` },
        { text: `<tr><th>SECRET_KEY</th><td><code>${awsSecret}</code></td></tr>` },
        { text: `<tr><th>Secret access key</th><td>rotated 2024-01-01</td><td>${awsSecret}</td></tr>` },
        { text: `${akid},da39a3ee5e6b4b0d3255bfef95601890afd80709 (a SHA-1 next to the key ID)` },
        { text: `${akid} ${awsSecret3}` },
        { text: `X${akid},${awsSecret3}` },
        { text: 'AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      ],
    },
  },
  {
    id: 'gcp-api-key',
    description: 'Google Cloud / Google Maps / Firebase API key (AIza…).',
    family: 'secrets',
    tags: ['gcp', 'google'],
    enabledByDefault: true,
    trigger: { keywords: ['AIza'], next: '0-9A-Za-z_-' },
    pattern: kGcpApiKey,
    maxLength: 39,
    // The key starts with `AIza`, the trigger.
    lead: 0,
    runMatch: matchFromHit(kGcpApiKey),
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    note: 'Browser keys (Maps JavaScript API, Firebase web config) are public by design and restricted by referrer; they are still reported because the format cannot tell them from server keys.',
    examples: {
      positive: [
        { text: `<script src="https://maps.googleapis.com/maps/api/js?key=${gcpKey}&callback=initMap"></script>`, match: gcpKey },
        { text: `const firebaseConfig = {"apiKey":"${gcpKey2}","projectId":"demo-123"};`, match: gcpKey2 },
      ],
      negative: [
        { text: `key=${gcpKey.slice(0, 38)}"` },
        { text: `key=${gcpKey}a` },
        { text: `key=${gcpKey.replace('AIza', 'aiza')}` },
        { text: `key=AIza${'X'.repeat(35)}` },
        // The Firebase JS SDK's documented example apiKey, lengthened to a key's 39 characters.
        { text: 'const firebaseConfig = { apiKey: "AIzaSyDOCAbC123dEf456GhI789jKl012MnO345" };' },
      ],
    },
  },
  {
    id: 'gcp-service-account',
    description: 'Google Cloud service-account key file (reports the private_key_id of the JSON key).',
    family: 'secrets',
    tags: ['gcp', 'google'],
    enabledByDefault: true,
    trigger: { keywords: ['private_key_id'] },
    // The key file's `private_key` is reported by `private-key`; this rule names the key file itself
    // by its 40-hex key id, which is what a responder revokes. The engine has already decoded JSON
    // escapes, so a key file embedded as a JSON string looks the same as a bare one.
    pattern: String.raw`["']?private_key_id["']?[ \t]{0,3}[:=][ \t]{0,3}["']?([0-9a-f]{40})`,
    group: 1,
    maxLength: 64,
    minEntropy: 3,
    // `"type": "service_account"` precedes the id in every key file Google emits; `client_email`
    // (…iam.gserviceaccount.com) follows the ~1.7 KB private key.
    context: { words: ['service_account', 'gserviceaccount.com'], before: 300, after: 2600 },
    examples: {
      positive: [
        {
          text: `{"type": "service_account", "project_id": "demo-proj-20", "private_key_id": "${gcpKeyId}", "private_key": "-----BEGIN PRIVATE KEY-----\\n…"}`,
          match: gcpKeyId,
        },
        {
          text: `{"credentials":{"private_key_id":"${gcpKeyId2}","client_email":"ci@demo-proj-20.iam.gserviceaccount.com"}}`,
          match: gcpKeyId2,
        },
      ],
      negative: [
        { text: `{"private_key_id": "${gcpKeyId}", "kind": "unrelated"}` },
        { text: `{"type": "service_account", "private_key_id": "${gcpKeyId.slice(0, 39)}"}` },
        { text: `{"type": "service_account", "private_key_id": "${gcpKeyId.toUpperCase()}"}` },
        { text: `{"type": "service_account", "private_key_id": "${'0'.repeat(40)}"}` },
      ],
    },
  },
  {
    id: 'gcp-oauth-client-secret',
    description: 'Google OAuth client secret (GOCSPX-…).',
    family: 'secrets',
    tags: ['gcp', 'google'],
    enabledByDefault: true,
    trigger: { keywords: ['GOCSPX-'], next: 'A-Za-z0-9_-' },
    pattern: 'GOCSPX-[A-Za-z0-9_-]{28}',
    maxLength: 35,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3,
    examples: {
      positive: [
        { text: `{"web":{"client_id":"1234-abc.apps.googleusercontent.com","client_secret":"${gocspx}"}}`, match: gocspx },
        { text: `GOOGLE_CLIENT_SECRET=${gocspx2}`, match: gocspx2 },
      ],
      negative: [
        { text: `client_secret=${gocspx.slice(0, 34)}` },
        { text: `client_secret=${gocspx}Z` },
        { text: 'client_secret=GOCSPX-xxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      ],
    },
  },
  {
    id: 'azure-storage-account-key',
    description: 'Azure Storage account key (88-character base64 AccountKey), assigned or after the word Azure.',
    family: 'secrets',
    tags: ['azure'],
    enabledByDefault: true,
    trigger: {
      keywords: [
        'accountkey', 'account_key', 'account-key', 'storagekey', 'storage_key', 'storage-key',
        'storageaccesskey', 'storage_access_key', 'storage-access-key', 'azure', 'with identity',
      ],
    },
    // A storage key is 64 random bytes: 86 base64 characters and `==`. Assigned to a key name, or
    // after the word Azure or SQL's `CREATE CREDENTIAL … WITH IDENTITY = '…', SECRET = '…'`, on the
    // same line or one of the next two (a connection snippet, a credential statement). A bare value
    // of this shape is not reported at any level: SSH public keys, SHA-512 digests and HMAC keys
    // have it too (detect-secrets' negatives say the same).
    pattern: String.raw`(?:(?:AccountKey|(?:storage|account)[_.-]?(?:account[_.-]?)?(?:access[_.-]?)?key)${kAssign}|(?:azure|with[ \t]+identity)(?:[^\r\n]*\r?\n){0,2}[^\r\n]*?[^A-Za-z0-9+/=-])([A-Za-z0-9+/]{86}==)`,
    ignoreCase: true,
    group: 1,
    maxLength: 400,
    // At most `storage_` (8 characters) comes before a trigger (`account_key`, `accountkey`…).
    lead: 8,
    boundary: { right: kBase64Boundary },
    minEntropy: 4.5,
    validate: azureKeyCanonical,
    examples: {
      positive: [
        {
          text: `DefaultEndpointsProtocol=https;AccountName=demostore;AccountKey=${azKey};EndpointSuffix=core.windows.net`,
          match: azKey,
        },
        { text: `{"storageAccountKey": "${azKey2}"}`, match: azKey2 },
        { text: `# Azure blob backup\nbackup:\n  key: ${azKey3}\n`, match: azKey3 },
        { text: `CREATE DATABASE SCOPED CREDENTIAL BlobCred\nWITH IDENTITY = 'backups01',\n  SECRET = '${azKey}';`, match: azKey },
      ],
      negative: [
        {
          // Azurite's published emulator key (split so that code-host scanners do not flag this file).
          text: 'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=' + 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;',
        },
        { text: `AccountKey=${azKey.slice(1)}` },
        { text: `SomethingElse=${azKey}` },
        { text: `AccountKey=${'A'.repeat(86)}==` },
        // Not 64 bytes: the character before the padding has bits set past the 64th byte.
        { text: `AccountKey=${azKey.slice(0, 85)}B==` },
        // A SHA-512 integrity hash is 64 bytes too; after `sha512-` it is not a key.
        { text: `Azure pipeline cache: "integrity": "sha512-${azKey2}"` },
        // Three lines after the word: out of reach.
        { text: `# Azure
line 1
line 2
key: ${azKey3}` },
      ],
    },
  },
  {
    id: 'azure-ad-client-secret',
    description: 'Microsoft Entra ID (Azure AD) application client secret (…Q~…).',
    family: 'secrets',
    tags: ['azure'],
    enabledByDefault: true,
    trigger: { keywords: ['Q~'], next: 'A-Za-z0-9_~.-' },
    // Current client secrets are 40 characters with `Q~` after a 3-character id and a digit.
    pattern: '[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}',
    maxLength: 40,
    boundary: { left: 'A-Za-z0-9_~.-', right: 'A-Za-z0-9_~.-' },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `AZURE_CLIENT_SECRET=${azAd}`, match: azAd },
        { text: `{"clientSecret":"${azAd2}","tenantId":"t"}`, match: azAd2 },
      ],
      negative: [
        { text: `sig=${synth('cf-sig', 20, kBase64Url)}${azAd}${synth('cf-sig2', 30, kBase64Url)}` },
        { text: `secret=${azAd.slice(0, 4)}Q~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~` },
        { text: `secret=${azAd.slice(0, 4)}Q~${'x'.repeat(34)}` },
        { text: `secret=abcdeQ~${synth('az-ad-3', 33, kBase64Url)}` },
      ],
    },
  },
  {
    id: 'azure-sas-signature',
    description: 'Azure shared access signature (the sig= of a SAS URL or token).',
    family: 'secrets',
    tags: ['azure'],
    enabledByDefault: false,
    note: 'Off by default: SAS URLs are routinely handed out on purpose as time-limited download links.',
    trigger: { keywords: ['sig='] },
    // The signature is base64 of an HMAC-SHA256 (43 characters and `=`), usually percent-encoded.
    pattern: '(?:sig)=((?:[A-Za-z0-9+/]|%2[BbFf]){43}(?:=|%3[Dd]))',
    group: 1,
    maxLength: 140,
    boundary: { right: 'A-Za-z0-9%+/=' },
    minEntropy: 4,
    context: { words: ['sv=', '.core.windows.net', 'skoid='], before: 600 },
    examples: {
      positive: [
        {
          text: `https://demo.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig=${sasSigEnc}`,
          match: sasSigEnc,
        },
        { text: `SharedAccessSignature=sv=2021-06-08&ss=bfqt&srt=sco&sp=rwdlacup&sig=${sasSig}`, match: sasSig },
      ],
      negative: [
        { text: `https://example.org/download?sig=${sasSig}` },
        { text: `?sv=2022-11-02&sig=${sasSig.slice(2)}` },
        { text: `?sv=2022-11-02&sig=${'A'.repeat(43)}=` },
      ],
    },
  },
  {
    id: 'digitalocean-token',
    description: 'DigitalOcean personal access, OAuth or refresh token (dop_v1_/doo_v1_/dor_v1_).',
    family: 'secrets',
    tags: ['digitalocean'],
    enabledByDefault: true,
    trigger: { keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'], next: 'a-f0-9' },
    pattern: 'do[opr]_v1_[a-f0-9]{64}',
    maxLength: 71,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `DIGITALOCEAN_TOKEN=${doTok}`, match: doTok },
        { text: `{"access_token":"${doTok2}","token_type":"bearer"}`, match: doTok2 },
      ],
      negative: [
        { text: `DIGITALOCEAN_TOKEN=${doTok.slice(0, 70)}` },
        { text: `DIGITALOCEAN_TOKEN=${doTok}0` },
        { text: `DIGITALOCEAN_TOKEN=dop_v1_${'0'.repeat(64)}` },
      ],
    },
  },
];
