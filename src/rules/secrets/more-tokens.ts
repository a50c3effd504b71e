import type { RuleDef } from '../types.js';
import { kLabelToValue, kTokenBoundary } from './fragments.js';
import { kAlnum, kBase64Url, kHexLower, synth, tok } from './samples.js';

const digits = '0123456789';
const vaultService = tok('hvs.', synth('vault-1', 24));
const vaultLong = tok('hvs.', `CAESI${synth('vault-2', 86, kBase64Url)}`);
const vaultBatch = tok('hvb.', `AAAAAQ${synth('vault-3', 132, kBase64Url)}`);
const vaultLegacy = tok('s.', synth('vault-4', 24));
const googleAccess = tok('ya29.', `a0Ael9${synth('ya29-1', 150, kBase64Url)}`);
const googleAccess2 = tok('ya29.', synth('ya29-2', 120, kBase64Url));
const herokuKey = tok('HRKU-', `AA${synth('heroku-1', 58, kBase64Url)}`);
const herokuUuid = `${synth('heroku-2', 8, kHexLower)}-${synth('heroku-3', 4, kHexLower)}-4${synth('heroku-4', 3, kHexLower)}-a${synth('heroku-5', 3, kHexLower)}-${synth('heroku-6', 12, kHexLower)}`;
const squareAccess = tok('sq0atp-', synth('square-1', 22, kBase64Url));
const squareSecret = tok('sq0csp-', synth('square-2', 43, kBase64Url));
const squareEaaa = tok('EAAA', synth('square-3', 60, kBase64Url));

/** A Discord bot token: base64 of the bot's snowflake id, a timestamp part and an HMAC part. */
function discordToken(seed: string, idDigits: number): string {
  const id = `1${synth(`${seed}-id`, idDigits - 1, digits)}`;
  return `${btoa(id).replace(/=+$/, '')}.${synth(`${seed}-ts`, 6, kBase64Url)}.${synth(`${seed}-mac`, 38, kBase64Url)}`;
}
const discord = discordToken('discord-1', 18);
const discord2 = discordToken('discord-2', 19);
// A token typed by hand: the right segment lengths, a first segment that is not a base64 number.
const discordShape = `M${synth('discord-6', 23)}.${synth('discord-7', 6, kBase64Url)}.${synth('discord-8', 27, kBase64Url)}`;
const artifactoryKey = tok('AKCp', `8${synth('jfrog-1', 68)}`);
const artifactoryRef = tok('cmVmdGtuOjAxOj', `E3${synth('jfrog-2', 48)}`);

/** Base64 (standard or URL alphabet, unpadded) to text; null when a character is outside the alphabet. */
function base64Text(s: string): string | null {
  if (!/^[A-Za-z0-9+/_-]+$/.test(s) || s.length % 4 === 1) return null;
  try {
    return atob(s.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(s.length / 4) * 4, '='));
  } catch {
    return null;
  }
}

/** Discord's first segment decodes to the bot's user id: a snowflake of 17 to 20 digits. */
function discordIdValid(token: string): boolean {
  const id = base64Text(token.slice(0, token.indexOf('.')));
  return id !== null && /^[1-9][0-9]{16,19}$/.test(id);
}

/**
 * vault-token-legacy's gate on the 24-character token that woke it: `s.` or `b.` right before it, the
 * only place its value can start.
 */
function vaultLegacyGate(text: string, start: number): boolean {
  const p = text.charCodeAt(start - 2);
  return text.charCodeAt(start - 1) === 46 && (p === 115 || p === 98);
}

/** discord-token's gate: the first segment starts with the base64 of a digit (M, N or O) and a dot follows it. */
function discordGate(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  return text.charCodeAt(end) === 46 && c >= 77 && c <= 79;
}

/** Base62 with every character class present: random 24-character bodies have all three. */
const mixedAlnum = (v: string): boolean => /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v);

export const moreTokenRules: readonly RuleDef[] = [
  {
    id: 'vault-token',
    description: 'HashiCorp Vault service, batch or recovery token (hvs., hvb., hvr.).',
    family: 'secrets',
    tags: ['vault', 'hashicorp'],
    enabledByDefault: true,
    trigger: { keywords: ['hvs.', 'hvb.', 'hvr.'], next: 'A-Za-z0-9_-' },
    // Vault 1.10+ prefixes: a 24-character base62 body, or a longer base64url one carrying the
    // token's encrypted metadata (batch tokens, namespaced service tokens).
    pattern: 'hv[sbr]\\.[A-Za-z0-9_-]{24,}',
    maxLength: 400,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `export VAULT_TOKEN=${vaultService}`, match: vaultService },
        { text: `{"auth":{"client_token":"${vaultLong}","accessor":"x"}}`, match: vaultLong },
        { text: `X-Vault-Token: ${vaultBatch}`, match: vaultBatch },
      ],
      negative: [
        { text: 'VAULT_TOKEN=hvs.xxxxxxxxxxxxxxxxxxxxxxxx' },
        { text: `token=hvs.${synth('vault-5', 20)}` },
        { text: `archivehvs.${synth('vault-6', 30)}` },
      ],
    },
  },
  {
    id: 'vault-token-legacy',
    description: 'HashiCorp Vault token in the pre-1.10 format (s. or b. and 24 base62 characters) near a Vault label.',
    family: 'secrets',
    tags: ['vault', 'hashicorp'],
    enabledByDefault: true,
    trigger: { token: { min: 24, max: 24, needsDigit: false, needsLetter: true } },
    runGate: vaultLegacyGate,
    pattern: '[sb]\\.[A-Za-z0-9]{24}',
    maxLength: 26,
    lead: 2,
    boundary: { left: 'A-Za-z0-9_.-', right: kTokenBoundary },
    // `s.` and 24 characters is a shape any dotted identifier can take: Vault's names are required,
    // before the token only, so the prefilter screens candidates by them.
    context: { words: ['vault', 'client_token'], before: 120 },
    minEntropy: 3.5,
    validate: (v) => mixedAlnum(v.slice(2)),
    examples: {
      positive: [
        { text: `VAULT_TOKEN=${vaultLegacy}`, match: vaultLegacy },
        { text: `curl -H "X-Vault-Token: ${vaultLegacy}" https://vault.internal:8200/v1/secret/app`, match: vaultLegacy },
      ],
      negative: [
        { text: `token=${vaultLegacy}` },
        { text: 'VAULT_TOKEN=s.XXXXXXXXXXXXXXXXXXXXXXXX' },
        { text: `vault: cls.${synth('vault-4', 24)}` },
      ],
    },
  },
  {
    id: 'google-oauth-access-token',
    description: 'Google OAuth 2.0 access token (ya29.).',
    family: 'secrets',
    tags: ['gcp', 'google', 'oauth'],
    enabledByDefault: true,
    trigger: { keywords: ['ya29.'], next: 'A-Za-z0-9_-' },
    pattern: 'ya29\\.[A-Za-z0-9_-]{30,}',
    maxLength: 2048,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `{"access_token":"${googleAccess}","expires_in":3599,"token_type":"Bearer"}`, match: googleAccess },
        { text: `Authorization: Bearer ${googleAccess2}`, match: googleAccess2 },
      ],
      negative: [
        { text: 'Authorization: Bearer ya29.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
        { text: `token=ya29.${synth('ya29-3', 12)}` },
        { text: `{"v":"mya29.${synth('ya29-4', 40)}"}` },
      ],
    },
  },
  {
    id: 'heroku-api-key',
    description: 'Heroku platform API key in the current format (HRKU-).',
    family: 'secrets',
    tags: ['heroku'],
    enabledByDefault: true,
    trigger: { keywords: ['HRKU-'], next: 'A-Za-z0-9_-' },
    pattern: 'HRKU-[A-Za-z0-9_-]{50,}',
    maxLength: 100,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `HEROKU_API_KEY=${herokuKey}`, match: herokuKey },
        { text: `machine api.heroku.com\n  login ci@example.com\n  password ${herokuKey}`, match: herokuKey },
      ],
      negative: [
        { text: `HEROKU_API_KEY=HRKU-${'x'.repeat(60)}` },
        { text: `HEROKU_API_KEY=HRKU-${synth('heroku-7', 20)}` },
      ],
    },
  },
  {
    id: 'heroku-api-key-legacy',
    description: 'Heroku API key in the legacy UUID format, assigned to a Heroku key/token name or in a .netrc entry for api.heroku.com.',
    family: 'secrets',
    tags: ['heroku'],
    enabledByDefault: true,
    trigger: { keywords: ['heroku'] },
    // A UUID alone is an identifier (Heroku's own app ids are UUIDs): only a credential name or the
    // .netrc password of the API host makes it a key.
    pattern:
      String.raw`(?:heroku[A-Za-z0-9_.-]{0,20}(?:api|key|token|secret|auth|password)[A-Za-z0-9_.-]{0,12}${kLabelToValue}` +
      String.raw`|api\.heroku\.com[ \t\r\n]+login[ \t]+[^ \t\r\n]{1,100}[ \t\r\n]+password[ \t]+)` +
      '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})',
    ignoreCase: true,
    group: 1,
    maxLength: 300,
    // The .netrc form's match opens with `api.` before the keyword.
    lead: 4,
    boundary: { left: '', right: kTokenBoundary },
    minEntropy: 3,
    examples: {
      positive: [
        { text: `HEROKU_API_KEY=${herokuUuid}`, match: herokuUuid },
        { text: `{"herokuApiToken":"${herokuUuid}"}`, match: herokuUuid },
        { text: `machine api.heroku.com\n  login ops@example.com\n  password ${herokuUuid}\n`, match: herokuUuid },
      ],
      negative: [
        { text: `{"heroku_app_id":"${herokuUuid}"}` },
        { text: `API_KEY=${herokuUuid}` },
        { text: 'HEROKU_API_KEY=00000000-0000-0000-0000-000000000000' },
      ],
    },
  },
  {
    id: 'square-token',
    description: 'Square access token or OAuth application secret (sq0atp-, sq0csp-).',
    family: 'secrets',
    tags: ['square'],
    enabledByDefault: true,
    trigger: { keywords: ['sq0atp-', 'sq0csp-'], next: 'A-Za-z0-9_-' },
    pattern: 'sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43}',
    maxLength: 50,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3,
    examples: {
      positive: [
        { text: `SQUARE_ACCESS_TOKEN=${squareAccess}`, match: squareAccess },
        { text: `{"application_secret":"${squareSecret}"}`, match: squareSecret },
      ],
      negative: [
        { text: `SQUARE_ACCESS_TOKEN=sq0atp-${synth('square-4', 10)}` },
        { text: `SQUARE_ACCESS_TOKEN=sq0atp-${'x'.repeat(22)}` },
      ],
    },
  },
  {
    id: 'square-access-token',
    description: 'Square access token in the current format (EAAA and 60 characters) near the word Square.',
    family: 'secrets',
    tags: ['square'],
    enabledByDefault: true,
    trigger: { keywords: ['EAAA'], next: 'A-Za-z0-9_-' },
    pattern: 'EAAA[A-Za-z0-9_-]{60}',
    maxLength: 64,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    // Other vendors' tokens start with EAA too (Facebook's EAAB…): the vendor name is required.
    context: { words: ['square'], before: 120, after: 40 },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `SQUARE_ACCESS_TOKEN=${squareEaaa}`, match: squareEaaa },
        { text: `const client = new SquareClient({ token: "${squareEaaa}" });`, match: squareEaaa },
      ],
      negative: [
        { text: `ACCESS_TOKEN=${squareEaaa}` },
        { text: `SQUARE_ACCESS_TOKEN=EAAA${synth('square-5', 40)}` },
      ],
    },
  },
  {
    id: 'discord-token',
    description: 'Discord bot or user token (base64 user id, timestamp and HMAC, dot-separated).',
    family: 'secrets',
    tags: ['discord'],
    enabledByDefault: true,
    // The first segment is the base64 of a 17-20 digit user id: 23 to 27 characters, no padding.
    trigger: { token: { min: 23, max: 27, needsDigit: false, needsLetter: true } },
    runGate: discordGate,
    pattern: '[MNO][A-Za-z0-9]{22,26}\\.[A-Za-z0-9_-]{6,7}\\.[A-Za-z0-9_-]{27,38}',
    maxLength: 73,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    validate: discordIdValid,
    examples: {
      positive: [
        { text: `DISCORD_BOT_TOKEN=${discord}`, match: discord },
        { text: `client.login("${discord2}");`, match: discord2 },
      ],
      negative: [
        // The first segment must decode to a numeric id.
        { text: `token=${btoa(synth('discord-3', 18)).replace(/=+$/, '')}.${synth('discord-4', 6)}.${synth('discord-5', 27)}` },
        { text: `token=${discord.slice(0, discord.lastIndexOf('.') + 10)}` },
      ],
    },
  },
  {
    id: 'discord-token-shape',
    description: 'Three dot-separated segments shaped like a Discord token whose first segment does not decode to a user id; low confidence.',
    family: 'secrets',
    tags: ['discord'],
    enabledByDefault: true,
    confidence: 'low',
    trigger: { token: { min: 23, max: 27, needsDigit: false, needsLetter: true } },
    runGate: discordGate,
    pattern: '[MNO][A-Za-z0-9]{22,26}\\.[A-Za-z0-9_-]{6,7}\\.[A-Za-z0-9_-]{27,38}',
    maxLength: 73,
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    // The tokens whose id decodes are discord-token's, at high: only the rest are reported here, so a
    // token is never reported twice.
    validate: (v) => !discordIdValid(v) && mixedAlnum(v.slice(0, v.indexOf('.'))),
    note: 'Low confidence: the segment lengths of a Discord token (as detect-secrets checks them) without its structure, a base64 user id; tokens typed by hand in tests and docs have this shape only.',
    examples: {
      positive: [
        { text: `DISCORD_TOKEN=${discordShape}`, match: discordShape },
      ],
      negative: [
        { text: `DISCORD_TOKEN=${discord}` },
        { text: `token=${discordShape.replace(/\.([A-Za-z0-9_-]{6})\./, (_m, s: string) => `.${s.slice(1)}.`)}` },
      ],
    },
  },
  {
    id: 'artifactory-token',
    description: 'JFrog Artifactory API key (AKCp) or reference token (base64 of reftkn:01:).',
    family: 'secrets',
    tags: ['jfrog', 'artifactory'],
    enabledByDefault: true,
    trigger: { keywords: ['AKCp', 'cmVmdGtuOjAxOj'], next: 'A-Za-z0-9' },
    // API keys are 73 base62 characters; reference tokens 64, whose base64 opens with `reftkn:01:`.
    pattern: 'AKCp[A-Za-z0-9]{60,80}|cmVmdGtuOjAxOj[A-Za-z0-9]{40,60}',
    maxLength: 84,
    lead: 0,
    boundary: { left: kTokenBoundary, right: 'A-Za-z0-9_+/=-' },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `ARTIFACTORY_API_KEY=${artifactoryKey}`, match: artifactoryKey },
        { text: `curl -H "Authorization: Bearer ${artifactoryRef}" https://acme.jfrog.io/artifactory/api/repositories`, match: artifactoryRef },
        { text: `<password>${artifactoryKey}</password>`, match: artifactoryKey },
      ],
      negative: [
        { text: `ARTIFACTORY_API_KEY=AKCp${synth('jfrog-3', 20)}` },
        { text: `ARTIFACTORY_API_KEY=AKCp${'x'.repeat(69)}` },
        { text: `x-${synth('jfrog-4', 10, kAlnum)}AKCp${synth('jfrog-5', 69)}` },
      ],
    },
  },
];
