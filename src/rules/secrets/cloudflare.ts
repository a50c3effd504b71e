import type { RuleDef } from '../types.js';
import { kAssign, kTokenBoundary } from './fragments.js';
import { kAlnum, kBase64Url, kHexLower, synth, tok } from './samples.js';

const cfut = tok('cfut_', `${synth('cf-ut-1', 40, kAlnum)}${synth('cf-ut-2', 8, kHexLower)}`);
const cfat = tok('cfat_', `${synth('cf-at-1', 40, kAlnum)}${synth('cf-at-2', 8, kHexLower)}`);
const cfk = tok('cfk_', `${synth('cf-k-1', 40, kAlnum)}${synth('cf-k-2', 8, kHexLower)}`);
const legacyToken = synth('cf-legacy-1', 40, kBase64Url);
const legacyToken2 = synth('cf-legacy-2', 40, kBase64Url);
const globalKey = synth('cf-global-1', 37, kHexLower);
const originCa = tok('v1.0-', `${synth('cf-ca-1', 24, kHexLower)}-${synth('cf-ca-2', 146, kHexLower)}`);

export const cloudflareRules: readonly RuleDef[] = [
  {
    id: 'cloudflare-api-token',
    description: 'Cloudflare scannable API credential (cfut_ user token, cfat_ account token, cfk_ global key).',
    family: 'secrets',
    tags: ['cloudflare'],
    enabledByDefault: true,
    trigger: { keywords: ['cfut_', 'cfat_', 'cfk_'], next: 'A-Za-z0-9' },
    // Prefix, 40 characters and an 8-hex-digit checksum (developers.cloudflare.com, "Token formats").
    // The checksum's construction is not published, so only the shape and randomness are checked.
    pattern: 'cf(?:ut|at|k)_[A-Za-z0-9]{40}[0-9a-f]{8}',
    maxLength: 53,
    boundary: { left: 'A-Za-z0-9_', right: 'A-Za-z0-9_' },
    minEntropy: 4,
    examples: {
      positive: [
        { text: `CLOUDFLARE_API_TOKEN=${cfut}`, match: cfut },
        { text: `{"token":"${cfat}","status":"active"}`, match: cfat },
        { text: `X-Auth-Key: ${cfk}`, match: cfk },
      ],
      negative: [
        { text: `CLOUDFLARE_API_TOKEN=${cfut.slice(0, 52)}` },
        { text: `CLOUDFLARE_API_TOKEN=${cfut}0` },
        { text: `CLOUDFLARE_API_TOKEN=cfut_${'x'.repeat(40)}${'0'.repeat(8)}` },
        { text: `f_cfut_dato ${synth('cf-ut-3', 10)}` },
      ],
    },
  },
  {
    id: 'cloudflare-api-key',
    description: 'Cloudflare API token of the earlier 40-character format, assigned to a Cloudflare-named variable.',
    family: 'secrets',
    tags: ['cloudflare'],
    enabledByDefault: true,
    trigger: { keywords: ['cloudflare', 'cf_api', 'cf-api', 'cfapi', 'cf_token', 'cf-token'] },
    // The older tokens carry no prefix: gitleaks' semi-generic anchor (`cloudflare` / `CF_API_TOKEN`
    // in the name, an assignment, 40 base64url characters) keeps this precise.
    pattern: String.raw`(?:cloudflare|cf)[A-Za-z0-9_.-]{0,24}?(?:token|key)${kAssign}([A-Za-z0-9_-]{40})`,
    ignoreCase: true,
    group: 1,
    maxLength: 90,
    boundary: { right: kTokenBoundary },
    minEntropy: 3.5,
    // Random tokens mix digits and letters; this keeps 40-character slugs out.
    validate: (v) => /[0-9]/.test(v) && /[A-Za-z]/.test(v),
    examples: {
      positive: [
        { text: `export CLOUDFLARE_API_TOKEN=${legacyToken}`, match: legacyToken },
        { text: `{"cfApiToken": "${legacyToken2}"}`, match: legacyToken2 },
        { text: `cf_token: '${legacyToken}'`, match: legacyToken },
      ],
      negative: [
        { text: `API_TOKEN=${legacyToken}` },
        { text: `CLOUDFLARE_API_TOKEN=${legacyToken.slice(0, 39)}` },
        { text: `CLOUDFLARE_API_TOKEN=${legacyToken}abc` },
        { text: 'cloudflare_zone_key = "cloudflare-pages-preview-deployments-xyz"' },
      ],
    },
  },
  {
    id: 'cloudflare-global-api-key',
    description: 'Cloudflare Global API Key (37 hex digits) in an X-Auth-Key header or a Cloudflare-named variable.',
    family: 'secrets',
    tags: ['cloudflare'],
    enabledByDefault: true,
    trigger: { keywords: ['x-auth-key', 'cloudflare', 'cf_api', 'cf-api', 'cfapi', 'cf_key', 'cf-key', 'cf_global'] },
    // The header, a Cloudflare key or token name, or the vendor's name alone as the key
    // (`cloudflare: "…"`): 37 hex digits are the Global API Key's shape and no other Cloudflare secret's.
    pattern: String.raw`(?:x-auth-key|(?:cloudflare|cf)[A-Za-z0-9_.-]{0,24}?(?:key|token)|cloudflare)["'\]]?[ \t]{0,4}(?:=>|:=|=|:|,)[ \t]{0,4}["']?([0-9a-f]{37})`,
    ignoreCase: true,
    group: 1,
    maxLength: 80,
    boundary: { right: 'A-Za-z0-9' },
    minEntropy: 3,
    examples: {
      positive: [
        { text: `curl -H "X-Auth-Email: ops@example.org" -H "X-Auth-Key: ${globalKey}"`, match: globalKey },
        { text: `CLOUDFLARE_GLOBAL_API_KEY=${globalKey}`, match: globalKey },
        { text: `headers = {"X-Auth-Key": "${globalKey}"}`, match: globalKey },
        { text: `dns:\n  cloudflare: "${globalKey}"\n`, match: globalKey },
        { text: `CLOUDFLARE_AUTH_TOKEN=${globalKey}`, match: globalKey },
      ],
      negative: [
        { text: `X-Auth-Key: ${globalKey.slice(0, 36)}` },
        { text: `X-Auth-Key: ${globalKey}f` },
        { text: `X-Request-Key: ${globalKey}` },
        { text: `X-Auth-Key: ${'0'.repeat(37)}` },
        { text: `cloudflare: "${globalKey}0"` },
        { text: `cfg: "${globalKey}"` },
      ],
    },
  },
  {
    id: 'cloudflare-origin-ca-key',
    description: 'Cloudflare Origin CA key (v1.0-<24 hex>-<146 hex>).',
    family: 'secrets',
    tags: ['cloudflare'],
    enabledByDefault: true,
    trigger: { keywords: ['v1.0-'], next: '0-9a-f' },
    pattern: 'v1\\.0-[0-9a-f]{24}-[0-9a-f]{146}',
    maxLength: 176,
    // The key starts with its prefix, the trigger.
    lead: 0,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `X-Auth-User-Service-Key: ${originCa}`, match: originCa },
        { text: `{"origin_ca_key":"${originCa}"}`, match: originCa },
      ],
      negative: [
        { text: `key=${originCa.slice(0, 175)}` },
        { text: `key=${originCa}a` },
        { text: 'release v1.0-beta-2 notes' },
      ],
    },
  },
];
