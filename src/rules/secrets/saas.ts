import type { RuleDef } from '../types.js';
import { githubTokenChecksumValid } from '../../validators/github-token.js';
import { macaroonV2Valid } from '../../validators/macaroon.js';
import { matchFromHit } from '../run-match.js';
import { kAssign, kTokenBoundary } from './fragments.js';
import { breakLastChar, checksummedToken, kAlnum, kBase64Url, kHexLower, kLetters, kUpperDigits, synth, tok } from './samples.js';

const digits = '0123456789';
const slackBot = tok('xoxb-', `${synth('slack-b1', 12, digits)}-${synth('slack-b2', 13, digits)}-${synth('slack-b3', 24)}`);
const slackUser = tok('xoxp-', `${synth('slack-p1', 12, digits)}-${synth('slack-p2', 12, digits)}-${synth('slack-p3', 13, digits)}-${synth('slack-p4', 32, kHexLower)}`);
const slackApp = tok('xapp-', `1-A${synth('slack-a1', 10, kUpperDigits)}-${synth('slack-a2', 13, digits)}-${synth('slack-a3', 64, kHexLower)}`);
const slackConfig = tok('xoxe.xoxp-', `1-${synth('slack-e1', 163)}`);
const slackRefresh = tok('xoxe-', `1-${synth('slack-e2', 146)}`);
const slackLegacy = tok('xoxs-', `${synth('slack-s1', 10, digits)}-${synth('slack-s2', 10, digits)}-${synth('slack-s3', 10, digits)}-${synth('slack-s4', 10, kHexLower)}`);
const slackHook = `https://${tok('hooks.slack.com/services/', `T${synth('slack-h1', 10, kUpperDigits)}/B${synth('slack-h2', 10, kUpperDigits)}/${synth('slack-h3', 24)}`)}`;
const slackWorkflow = tok('hooks.slack.com/workflows/', `T${synth('slack-w1', 10, kUpperDigits)}/A${synth('slack-w2', 10, kUpperDigits)}/${synth('slack-w3', 18, digits)}/${synth('slack-w4', 32, kHexLower)}`);
const stripeLive = tok('sk_live_', synth('stripe-1', 99));
const stripeRestricted = tok('rk_live_', synth('stripe-2', 24));
const stripeTest = tok('sk_test_', synth('stripe-3', 99));
const twilioKey = tok('SK', synth('twilio-1', 32, kHexLower));
const twilioKey2 = tok('SK', synth('twilio-2', 32, kHexLower));
const twilioToken = synth('twilio-3', 32, kHexLower);
const twilioSid = tok('AC', synth('twilio-4', 32, kHexLower));
const sendgrid = tok('SG.', `${synth('sg-1', 22, kBase64Url)}.${synth('sg-2', 43, kBase64Url)}`);
const sendgrid2 = tok('SG.', `${synth('sg-3', 22, kBase64Url)}.${synth('sg-4', 43, kBase64Url)}`);
const npmTok = checksummedToken('npm', 'npm-1');
const npmTok2 = checksummedToken('npm', 'npm-2');
/**
 * A synthetic upload token: a v2 binary macaroon located at `location`, with a synthetic identifier,
 * one caveat and a synthetic 32-byte signature, in unpadded base64url after `pypi-`.
 */
function pypiSample(location: string, seed: string): string {
  const field = (type: number, data: Buffer): Buffer => Buffer.concat([Buffer.from([type, data.length]), data]);
  const text = (t: string): Buffer => Buffer.from(t, 'utf8');
  const bytes = Buffer.concat([
    Buffer.from([2]),
    field(1, text(location)),
    field(2, text(synth(`${seed}-id`, 36, kHexLower))),
    Buffer.from([0]),
    field(2, text(`{"version":1,"permissions":{"projects":["${synth(`${seed}-p`, 8, kHexLower)}"]}}`)),
    Buffer.from([0, 0]),
    field(6, Buffer.from(synth(`${seed}-sig`, 64, kHexLower), 'hex')),
  ]);
  return tok('pypi-', bytes.toString('base64url'));
}
const pypi = pypiSample('pypi.org', 'pypi-1');
const pypiTest = pypiSample('test.pypi.org', 'pypi-2');
const mailchimp = `${synth('mc-1', 32, kHexLower)}-us21`;
const mailchimp2 = `${synth('mc-2', 32, kHexLower)}-us6`;
const telegram = `${synth('tg-1', 10, digits).replace(/^0/, '7')}${tok(':AA', synth('tg-2', 33, kBase64Url))}`;
const telegram2 = `${synth('tg-3', 9, digits).replace(/^0/, '5')}${tok(':AA', synth('tg-4', 33, kBase64Url))}`;
const shopify = tok('shpat_', synth('shop-1', 32, kHexLower));
const shopify2 = tok('shpss_', synth('shop-2', 32, kHexLower));
const postman = tok('PMAK-', `${synth('pm-1', 24, kHexLower)}-${synth('pm-2', 34, kHexLower)}`);
const postman2 = tok('PMAK-', `${synth('pm-3', 24, kHexLower)}-${synth('pm-4', 34, kHexLower)}`);

/**
 * The structure of a Slack token by type, as Slack issues them: after the prefix come numeric ids
 * (team, user, bot: 9 to 13 digits in issued tokens; 6 is the floor, for older ones) and a random
 * part of 8+ characters with a letter. `xapp-` reads `<version>-A<app id>-<id>-<secret>`; the
 * rotating forms (`xoxe-`, `xoxe.xoxb-`, `xoxe.xoxp-`) read `<version>-<encoded body>` of 100+
 * characters (issued ones have about 150); `xoxa-`/`xoxr-` may carry a one-digit version. Shorter
 * ids, or one id repeated, are placeholders.
 */
function slackTokenShape(v: string): boolean {
  const parts = v.split('-');
  const kind = parts[0]!;
  if (kind.startsWith('xoxe')) return /^[0-9]$/.test(parts[1]!) && parts.slice(2).join('-').length >= 100;
  let at = 1;
  if (kind === 'xapp') {
    if (!/^[0-9]$/.test(parts[1]!) || !/^A[0-9A-Z]{6,}$/.test(parts[2] ?? '')) return false;
    at = 3;
  } else if ((kind === 'xoxa' || kind === 'xoxr') && parts[1]!.length === 1) {
    at = 2;
  }
  const ids: string[] = [];
  while (at < parts.length && /^[0-9]+$/.test(parts[at]!)) ids.push(parts[at++]!);
  if (ids.length === 0 || ids.some((id) => id.length < 6)) return false;
  if (ids.length > 1 && ids.every((id) => id === ids[0])) return false;
  const last = parts[parts.length - 1]!;
  return at < parts.length && last.length >= 8 && /[A-Za-z]/.test(last);
}

/** mailchimp-api-key's token gate (see `RuleDef.runGate`). */
function mailchimpGate(text: string, start: number, end: number): boolean {
  if (!/^[0-9a-f]{32}$/.test(text.slice(start, end))) return false;
  if (end + 4 > text.length) return true;
  const d = text.charCodeAt(end + 3);
  return text.startsWith('-us', end) && d >= 48 && d <= 57;
}

const kSlackToken = String.raw`(?:xox[abposr]|xoxe(?:\.xox[bp])?|xapp)-[0-9]{1,16}-[A-Za-z0-9-]{8,250}`;
const kStripeLive = '(?:sk|rk)_(?:live|prod)_[A-Za-z0-9]{24,}';

export const saasRules: readonly RuleDef[] = [
  {
    id: 'slack-token',
    description: 'Slack bot, user, app-level, configuration or refresh token (xoxb-, xoxp-, xapp-, xoxe-…).',
    family: 'secrets',
    tags: ['slack'],
    enabledByDefault: true,
    trigger: { keywords: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxe.', 'xapp-'], next: '0-9x' },
    // Every current kind continues with a numeric field (team id, or the format version) after the
    // prefix and ends in a random alphanumeric part.
    pattern: kSlackToken,
    maxLength: 275,
    // The token starts with a trigger (`xoxe.` for the refreshable form).
    lead: 0,
    runMatch: matchFromHit(kSlackToken),
    boundary: { right: 'A-Za-z0-9-' },
    minEntropy: 3,
    validate: slackTokenShape,
    examples: {
      positive: [
        { text: `SLACK_BOT_TOKEN=${slackBot}`, match: slackBot },
        { text: `{"ok":true,"authed_user":{"access_token":"${slackUser}"}}`, match: slackUser },
        { text: `app_token: "${slackApp}"`, match: slackApp },
        { text: `机器人令牌：${slackBot}。`, match: slackBot },
        { text: `{"ok":true,"token":"${slackConfig}","refresh_token":"${slackRefresh}"}`, match: slackConfig },
        { text: `{"ok":true,"token":"${slackConfig}","refresh_token":"${slackRefresh}"}`, match: slackRefresh },
        { text: `legacy_token = ${slackLegacy}`, match: slackLegacy },
      ],
      negative: [
        { text: 'SLACK_BOT_TOKEN=xoxb-your-bot-token' },
        { text: 'token=xoxb-000000000000-0000000000000-xxxxxxxxxxxxxxxxxxxxxxxx' },
        { text: 'token=xoxb-123456789012-1234567890123' },
        { text: `token=${slackBot.replace('xoxb', 'xoxz')}` },
        // Ids too short to be Slack's, or one id typed three times, are placeholders.
        { text: `"user_token": "xoxp-12345-67890-13579-${synth('slack-n1', 32, kHexLower)}"` },
        { text: `"user_token": "${tok('xoxp-', `${'418237560912-'.repeat(3)}${synth('slack-n2', 32, kHexLower)}`)}"` },
        // A rotating token's body is long; a short readable one is a placeholder.
        { text: `SLACK_CONFIG_TOKEN=xoxe.xoxp-1-${synth('slack-n3', 40, kLetters)}` },
        { text: `"app_token": "xapp-1-B${synth('slack-n4', 10, kUpperDigits)}-${synth('slack-n5', 13, digits)}-${synth('slack-n6', 64, kHexLower)}"` },
      ],
    },
  },
  {
    id: 'slack-webhook',
    description: 'Slack incoming webhook or workflow trigger URL (hooks.slack.com/services/T…/B…/…).',
    family: 'secrets',
    tags: ['slack'],
    enabledByDefault: true,
    trigger: { keywords: ['hooks.slack.com/'], next: 'swt' },
    pattern: '(?:https?://)?hooks\\.slack\\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,12}(?:/[A-Za-z0-9]{6,64}){2,3}',
    maxLength: 240,
    // Only the scheme (`https://`, 8 characters) comes before the host, the trigger.
    lead: 8,
    boundary: { right: 'A-Za-z0-9/' },
    examples: {
      positive: [
        { text: `{"webhook_url":"${slackHook}"}`, match: slackHook },
        { text: `curl -X POST ${slackWorkflow} -d '{}'`, match: slackWorkflow },
      ],
      negative: [
        { text: 'SLACK_WEBHOOK=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX' },
        { text: 'see https://hooks.slack.com/services/ for details' },
        { text: `${slackHook.replace('services', 'apps')}` },
      ],
    },
  },
  {
    id: 'stripe-secret-key',
    description: 'Stripe live secret or restricted API key (sk_live_/rk_live_).',
    family: 'secrets',
    tags: ['stripe'],
    enabledByDefault: true,
    trigger: { keywords: ['sk_live_', 'rk_live_', 'sk_prod_', 'rk_prod_'], next: 'A-Za-z0-9' },
    pattern: kStripeLive,
    maxLength: 255,
    // The key starts with its prefix, the trigger.
    lead: 0,
    runMatch: matchFromHit(kStripeLive),
    minEntropy: 3,
    examples: {
      positive: [
        { text: `STRIPE_SECRET_KEY=${stripeLive}`, match: stripeLive },
        { text: `const stripe = require('stripe')('${stripeRestricted}');`, match: stripeRestricted },
        { text: `密钥${stripeLive}已泄露`, match: stripeLive },
      ],
      negative: [
        { text: `task_live_${synth('stripe-4', 30)}` },
        { text: 'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx' },
        { text: `sk_live_${synth('stripe-5', 20)}` },
        { text: `pk_live_${synth('stripe-6', 30)}` },
      ],
    },
  },
  {
    id: 'stripe-test-secret-key',
    description: 'Stripe test-mode secret or restricted API key (sk_test_/rk_test_).',
    family: 'secrets',
    tags: ['stripe'],
    enabledByDefault: false,
    note: 'Off by default: test-mode keys cannot move money and Stripe prints sample test keys throughout its documentation.',
    trigger: { keywords: ['sk_test_', 'rk_test_'], next: 'A-Za-z0-9' },
    pattern: '(?:sk|rk)_test_[A-Za-z0-9]{24,}',
    maxLength: 255,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `STRIPE_KEY=${stripeTest}`, match: stripeTest },
        { text: `"secretKey": "${tok('rk_test_', synth('stripe-7', 40))}"`, match: tok('rk_test_', synth('stripe-7', 40)) },
      ],
      negative: [
        { text: `Stripe::StripeClient.new('${tok('sk_test_', 'BQokikJOvBiI2HlWgH4olfQ2')}')` },
        { text: 'sk_test_xxxxxxxxxxxxxxxxxxxxxxxxxx' },
        { text: `mask_test_${synth('stripe-8', 30)}` },
      ],
    },
  },
  {
    id: 'twilio-api-key',
    description: 'Twilio API key SID (SK followed by 32 hex digits).',
    family: 'secrets',
    tags: ['twilio'],
    enabledByDefault: true,
    // `SK` is in every match. A digit is needed too: a value of only S, K and a-f stays below the
    // entropy floor of 3 bits anyway.
    trigger: { token: { min: 34, max: 34, needsLetter: true } },
    pattern: 'SK[0-9a-f]{32}',
    maxLength: 34,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `TWILIO_API_KEY=${twilioKey}`, match: twilioKey },
        { text: `{"sid":"${twilioKey2}","friendly_name":"ci"}`, match: twilioKey2 },
      ],
      negative: [
        { text: `key=${twilioKey.slice(0, 33)}` },
        { text: `key=X${twilioKey}` },
        { text: `key=SK${synth('twilio-1', 32, kHexLower).toUpperCase()}` },
        { text: `key=SK${'0'.repeat(32)}` },
      ],
    },
  },
  {
    id: 'twilio-auth-token',
    description: 'Twilio account auth token (32 hex digits assigned to an auth token name near Twilio context).',
    family: 'secrets',
    tags: ['twilio'],
    enabledByDefault: true,
    trigger: { keywords: ['auth_token', 'authtoken', 'auth-token'] },
    pattern: `(?:auth|Auth|AUTH)[_-]?(?:token|Token|TOKEN)${kAssign}([0-9a-f]{32})`,
    group: 1,
    maxLength: 60,
    // `twilioAuthToken`, `TWILIO_AUTH_TOKEN`: the name may be glued to a prefix.
    boundary: { left: '' },
    minEntropy: 3,
    // Twilio context: the product name, or the account SID name that always sits beside the token.
    context: { words: ['twilio', 'account_sid', 'accountsid'], before: 200, after: 200 },
    examples: {
      positive: [
        { text: `TWILIO_ACCOUNT_SID=${twilioSid}\nTWILIO_AUTH_TOKEN=${twilioToken}\n`, match: twilioToken },
        { text: `{"twilio":{"accountSid":"${twilioSid}","authToken":"${twilioToken}"}}`, match: twilioToken },
      ],
      negative: [
        { text: `AUTH_TOKEN=${twilioToken}` },
        { text: `TWILIO_AUTH_TOKEN=${twilioToken.slice(0, 31)}` },
        { text: `TWILIO_AUTH_TOKEN=${'0'.repeat(32)}` },
      ],
    },
  },
  {
    id: 'sendgrid-api-key',
    description: 'SendGrid API key (SG.<22>.<43>).',
    family: 'secrets',
    tags: ['sendgrid'],
    enabledByDefault: true,
    trigger: { keywords: ['SG.'], next: 'A-Za-z0-9_-' },
    pattern: 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}',
    maxLength: 69,
    boundary: { left: 'A-Za-z0-9_.-', right: kTokenBoundary },
    minEntropy: 4,
    examples: {
      positive: [
        { text: `SENDGRID_API_KEY='${sendgrid}'`, match: sendgrid },
        { text: `Authorization: Bearer ${sendgrid2}`, match: sendgrid2 },
      ],
      negative: [
        { text: `MSG.${sendgrid.slice(3)}` },
        { text: `key=${sendgrid.slice(0, 68)}` },
        { text: `key=SG.${'x'.repeat(22)}.${'x'.repeat(43)}` },
      ],
    },
  },
  {
    id: 'npm-token',
    description: 'npm access token (npm_…) with a valid CRC-32 checksum.',
    family: 'secrets',
    tags: ['npm'],
    enabledByDefault: true,
    trigger: { keywords: ['npm_'], next: 'A-Za-z0-9' },
    // npm adopted GitHub's token format: 30 random base62 characters and their base62 CRC-32.
    pattern: 'npm_[A-Za-z0-9]{36}',
    maxLength: 40,
    validate: githubTokenChecksumValid,
    examples: {
      positive: [
        { text: `//registry.npmjs.org/:_authToken=${npmTok}`, match: npmTok },
        { text: `NPM_TOKEN: "${npmTok2}"`, match: npmTok2 },
      ],
      negative: [
        { text: `//registry.npmjs.org/:_authToken=${breakLastChar(npmTok)}` },
        { text: `NPM_TOKEN=${npmTok.slice(0, 39)}` },
        { text: `run npm_${synth('npm-3', 36)} in CI` },
      ],
    },
  },
  {
    id: 'pypi-token',
    description: 'PyPI or TestPyPI upload token (pypi-AgEIcHlwaS5vcmc… macaroon).',
    family: 'secrets',
    tags: ['pypi'],
    enabledByDefault: true,
    trigger: { keywords: ['pypi-AgE'], next: 'IN' },
    // A macaroon whose serialized location field is pypi.org or test.pypi.org.
    pattern: 'pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}',
    maxLength: 1030,
    // The token starts with its prefix, the trigger.
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3,
    // The whole macaroon, through its 32-byte signature: a token cut short (or made up) fails.
    validate: (v) => macaroonV2Valid(v.slice('pypi-'.length)),
    examples: {
      positive: [
        { text: `[pypi]\nusername = __token__\npassword = ${pypi}\n`, match: pypi },
        { text: `TWINE_PASSWORD=${pypiTest}`, match: pypiTest },
      ],
      negative: [
        { text: 'password = pypi-AgEIcHlwaS5vcmc' },
        { text: `password = pypi-AgEIcHlwaS5vcmc${synth('pypi-3', 20, kBase64Url)}` },
        { text: `password = pypi-${synth('pypi-4', 100, kBase64Url)}` },
        { text: `password = ${pypi.slice(0, 120)}` },
        { text: `password = pypi-AgEIcHlwaS5vcmc${synth('pypi-5', 160, kBase64Url)}` },
      ],
    },
  },
  {
    id: 'mailchimp-api-key',
    description: 'Mailchimp API key (32 hex digits and a -us data-centre suffix).',
    family: 'secrets',
    tags: ['mailchimp'],
    enabledByDefault: true,
    trigger: { token: { min: 32, max: 32 } },
    // Every 32-character token woke the pattern; the key's token is lower-case hex followed by `-us`
    // and a digit (unsure, so kept, when the text received so far ends before them).
    runGate: mailchimpGate,
    pattern: '[0-9a-f]{32}-us[0-9]{1,2}',
    maxLength: 37,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `MAILCHIMP_API_KEY=${mailchimp}`, match: mailchimp },
        { text: `{"apikey":"${mailchimp2}"}`, match: mailchimp2 },
      ],
      negative: [
        { text: `key=${mailchimp.slice(1)}` },
        { text: `key=${mailchimp}9` },
        { text: `etag=${synth('mc-3', 32, kHexLower)}-usa` },
      ],
    },
  },
  {
    id: 'telegram-bot-token',
    description: 'Telegram Bot API token (<bot id>:AA…).',
    family: 'secrets',
    tags: ['telegram'],
    enabledByDefault: true,
    trigger: { keywords: [':AA'], next: '0-9A-Za-z_-' },
    pattern: '[0-9]{8,10}:AA[0-9A-Za-z_-]{33}',
    maxLength: 46,
    // `api.telegram.org/bot<token>/`: letters may touch the bot id on the left, digits may not.
    boundary: { left: '0-9', right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `TELEGRAM_BOT_TOKEN=${telegram}`, match: telegram },
        { text: `fetch("https://api.telegram.org/bot${telegram2}/sendMessage")`, match: telegram2 },
      ],
      negative: [
        { text: `token=${telegram.slice(0, telegram.length - 1)}` },
        { text: `token=1${telegram2}0` },
        { text: `at 12345678:AA${'x'.repeat(33)}` },
      ],
    },
  },
  {
    id: 'shopify-token',
    description: 'Shopify access token or shared secret (shpat_, shpca_, shppa_, shpss_).',
    family: 'secrets',
    tags: ['shopify'],
    enabledByDefault: true,
    trigger: { keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], next: 'a-fA-F0-9' },
    pattern: 'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}',
    maxLength: 38,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `X-Shopify-Access-Token: ${shopify}`, match: shopify },
        { text: `SHOPIFY_API_SECRET="${shopify2}"`, match: shopify2 },
      ],
      negative: [
        { text: `token=${shopify.slice(0, 37)}` },
        { text: `token=${shopify}f` },
        { text: `token=shpat_${'0'.repeat(32)}` },
      ],
    },
  },
  {
    id: 'postman-api-key',
    description: 'Postman API key (PMAK-…).',
    family: 'secrets',
    tags: ['postman'],
    enabledByDefault: true,
    trigger: { keywords: ['PMAK-'], next: 'a-f0-9' },
    pattern: 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}',
    maxLength: 64,
    minEntropy: 3,
    examples: {
      positive: [
        { text: `X-Api-Key: ${postman}`, match: postman },
        { text: `{"postmanApiKey":"${postman2}"}`, match: postman2 },
      ],
      negative: [
        { text: `X-Api-Key: ${postman.slice(0, 63)}` },
        { text: `X-Api-Key: PMAK-${'0'.repeat(24)}-${'0'.repeat(34)}` },
        { text: `X-Api-Key: PMAK-${synth('pm-5', 24, kAlnum)}-${synth('pm-6', 34, kAlnum)}` },
      ],
    },
  },
];
