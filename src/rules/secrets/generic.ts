import type { RuleDef } from '../types.js';
import { asciiClass } from '../../engine/checks.js';
import { isPlaceholder } from '../placeholders.js';
import { decodeBasicAuth } from '../../validators/basic-auth.js';
import { identifierNotEndingIn, kLabelToValue, kLabelToValueWide } from './fragments.js';
import { credentialLike } from './secret-value.js';
import { b64, jwtSample, kAlnum, kBase64Url, kHexLower, kLetters, synth } from './samples.js';

/**
 * Values people write where a password goes when they mean "some password" (docs, tutorials, forms).
 * Compared lower-cased against the whole value.
 */
const kStopValues: ReadonlySet<string> = new Set([
  'password', 'passwd', 'pass', 'pwd', 'pw', 'secret', 'changeme', 'change_me', 'letmein', 'admin',
  'root', 'toor', 'test', 'testing', 'guest', 'user', 'username', 'login', 'token', 'apikey', 'api_key',
  'true', 'false', 'null', 'nil', 'none', 'undefined', 'empty', 'default', 'hidden', 'masked', 'todo',
  'foo', 'bar', 'baz', 'foobar', 'qwerty', 'abc', 'abc123', '123456', '12345678', 'p@ssw0rd', 'passw0rd',
  'abcd', 'wxyz', '1234', 'mypassword', 'yourpassword', 'mysecret', 'supersecret', 'secret123', 'password1', 'password123',
  'pa$$w0rd', 'pa$$word', 'p@ssword', 'p@ssword1', 'p@55w0rd', 'pa55word', 'pa55w0rd',
]);

const kStopValueMaxLength = Math.max(...[...kStopValues].map((w) => w.length));

/**
 * One of the stand-in words, in any case. Longer values skip the lower-cased copy: lower-casing never
 * shortens a string.
 */
function isStopValue(v: string): boolean {
  return v.length <= kStopValueMaxLength && kStopValues.has(v.toLowerCase());
}

/** A password that is a documentation stand-in rather than a credential. */
function stopPassword(password: string): boolean {
  return isStopValue(password) || isPlaceholder(password) || /^[*x•#.?_-]+$/iu.test(password);
}

/** `user:password` of a URL or a Basic header that names a real-looking credential. */
function realCredentials(user: string, password: string): boolean {
  if (password.length < 4 || stopPassword(password)) return false;
  // `https://host:8080@…`-style look-alikes: a short number is a port, not a password.
  if (/^[0-9]{1,5}$/.test(password)) return false;
  // `guest:guest`, `admin:admin`: defaults written in docs.
  if (user.toLowerCase() === password.toLowerCase()) return false;
  return true;
}

/** url-credentials' userinfo classes: RFC 3986's userinfo alphabet without `$` and `'` (see the rule). */
const kUserChars = String.raw`A-Za-z0-9._~%!&()*+,;=-`;
const kPasswordChars = String.raw`A-Za-z0-9._~%!&()*+,;=:-`;
/** Per ASCII code: 1 for a character of the password class (the user's and `:`). */
const kUserinfo = asciiClass(kPasswordChars).ascii;
const isUserinfoCode = (c: number): boolean => c < 128 && kUserinfo[c] === 1;
const kUrlCredentialsMaxLength = 220;

/**
 * url-credentials' hit gate (`RuleDef.hitGate`): some `://` is followed by a stretch of userinfo
 * characters that holds a `:` and ends at an `@` of the group, short enough for a match of the rule's
 * length, as the pattern requires (`scheme://user:password@`). The `@` of an e-mail address
 * (`bob@example.com`) has none, and a customer-record dump holds thousands of them. Sought from the
 * `://`s (one native search over the window), not from each `@`: a run of `a@a@a@…` is one search.
 */
function userinfoBeforeAt(text: string, start: number, end: number): boolean {
  // The stretch is at most maxLength less the scheme, `://`, `@` and the character after it.
  const longest = kUrlCredentialsMaxLength - 5;
  for (let p = text.indexOf('://', Math.max(1, start - longest - 3)); p !== -1 && p < end; p = text.indexOf('://', p + 1)) {
    let colon = false;
    let q = p + 3;
    for (; q < text.length && q - (p + 3) <= longest; q++) {
      const c = text.charCodeAt(q);
      if (!isUserinfoCode(c)) break;
      if (c === 58) colon = true;
    }
    if (colon && q >= start && q < end && text.charCodeAt(q) === 64) return true;
  }
  return false;
}

/**
 * url-credentials' `leadAt`: a match ends just past the `@` that woke it, so it starts at the scheme
 * before the `://` that the userinfo characters before the `@` run back to; 0 when they run back to
 * none (no match holds this `@`: an e-mail address).
 */
function urlLead(text: string, at: number): number {
  let p = at;
  while (p > 0 && at - p < kUrlCredentialsMaxLength && isUserinfoCode(text.charCodeAt(p - 1))) p--;
  if (p < 3 || text.charCodeAt(p - 1) !== 47 || text.charCodeAt(p - 2) !== 47 || text.charCodeAt(p - 3) !== 58) return 0;
  let s = p - 3;
  while (s > 0 && at - s < kUrlCredentialsMaxLength && isSchemeCode(text.charCodeAt(s - 1))) s--;
  return at - s;
}
/** The scheme's characters (`[A-Za-z0-9+.-]`). */
const kScheme = asciiClass('A-Za-z0-9+.-').ascii;
const isSchemeCode = (c: number): boolean => c < 128 && kScheme[c] === 1;

/** http-auth-token's header names besides `authorization` (its trigger keywords). */
const kKeyHeaders = 'api-key|apikey|api-token|auth-token|access-token';
/** What comes between a header name and its value: a quote, `:` or `=`, a quote, a scheme word. */
const kHeaderLead = String.raw`["'\]]?[ \t]{0,3}[:=][ \t]{0,3}["'\x60]?(?:(?:token|api-?token|key|api-?key|sso-key|ssws|bot)[ \t]{1,3})?`;
const kHeaderValueChar = '[A-Za-z0-9._~+/:-]';
/** A header name, what follows it and 16 characters of a value; Unicode case folding, as RE2's. */
const kHeaderValueStart = new RegExp(`(?:authorization|${kKeyHeaders})${kHeaderLead}${kHeaderValueChar}{16}`, 'giu');

/**
 * http-auth-token's hit gate (`RuleDef.hitGate`): a header name of the group is followed by `:` or `=`
 * and 16 characters of a value, as every match of the rule's pattern is from its name on. A JSON key
 * `"authorization": {`, `Authorization: Bearer …` (another rule's) and prose that names the header wake
 * no window; the rule's windows are long (its length is 1,200), and each cost a search to their end.
 */
function headerValueAfterName(text: string, start: number, end: number): boolean {
  const re = kHeaderValueStart;
  re.lastIndex = start;
  const m = re.exec(text);
  return m !== null && m.index < end;
}

/** Userinfo `user:password` of a URL (the rule's value). */
function urlCredentialsValid(userinfo: string): boolean {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return false;
  let user = userinfo.slice(0, colon);
  let password = userinfo.slice(colon + 1);
  try {
    user = decodeURIComponent(user);
    password = decodeURIComponent(password);
  } catch {
    // A stray `%` is just a character of the password.
  }
  return realCredentials(user, password);
}

/** A value that is code, a path, a URL or an identifier rather than a secret. */
function notASecretValue(v: string): boolean {
  return !/[0-9]/.test(v) || !/[A-Za-z]/.test(v) || codeOrPath(v);
}

/** A URL, a path, a file name, a reference to a variable or a stand-in word. */
function codeOrPath(v: string): boolean {
  if (v.includes('://') || /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)/.test(v) || v.startsWith('arn:')) return true;
  if (/^(?:process\.env|import\.meta|os\.environ|env|config|settings|this|self|window|props|params|req|request|args|options|opts)\./i.test(v)) return true;
  // File names: `secret_file: keys/app-2024.pem`.
  if (/\.(?:pem|key|crt|cer|p12|pfx|jks|json|ya?ml|txt|env|js|ts|py|rb|php|html?|xml|cfg|conf|ini|properties|png|jpe?g|gif|svg)$/i.test(v)) return true;
  return isStopValue(v);
}

/**
 * How the keyword-anchored generic rules find an identifier's value: any of the label-to-value
 * syntaxes of `kLabelToValue` (assignments, XML elements and CDATA, attribute pairs, name/value pairs,
 * a label cell followed by its value cell), or a keyed element (`<entry key="db.password">…`, Java's
 * XML properties; `<textarea name="secret">…`). The identifier must END with the keyword, which is what
 * keeps `password_reset_url`, `secretary`, `api_key_id`, `public_key` and friends (gitleaks' identifier
 * stop-list) out. The value runs to a terminator.
 */
function genericPattern(keywords: string): string {
  return String.raw`(?:(?:${keywords})${kLabelToValue}|${ownLineElement(keywords)}|(?:key|name)=["'][A-Za-z0-9_.:-]*(?:${keywords})["']>(?:<!\[CDATA\[)?)(${kValueChar}{8,})`;
}
/**
 * `leadAt` of the rules built by `genericPattern`: a match starts at its keyword, or before the name
 * the keyword ends, at the `<` of an element or at `key="` / `name="`. The name's characters are
 * walked back from the trigger as the pattern's case-insensitive class reads them (`ſ` and the Kelvin
 * sign too), and six more allowed for `name="`. Far shorter than the rule's length, the window no
 * longer reads hundreds of characters before every keyword.
 */
function nameLead(text: string, start: number): number {
  let p = start;
  while (p > 0 && start - p <= kGenericMaxLength && isNameUnit(text.charCodeAt(p - 1))) p--;
  return start - p + 6;
}
/** The generic keyword-value rules' longest match; a name's walk back stops there too (the window could not reach further). */
const kGenericMaxLength = 420;
/** `[A-Za-z0-9_.:-]` case-insensitively, as RE2 and V8 fold it (`ſ` is an `s`, the Kelvin sign a `k`). */
function isNameUnit(c: number): boolean {
  return (c < 128 && kNameUnits[c] === 1) || c === 0x17f || c === 0x212a;
}
const kNameUnits = asciiClass('A-Za-z0-9_.:-').ascii;

/**
 * An element named by the label whose value sits on its own line (`<password>⏎  v⏎</password>`, as XML
 * pretty-printers and config templates write it). The opening tag is required: after a closing tag
 * (`</password>⏎FEATURE_X=true`) the next line is something else.
 */
function ownLineElement(keywords: string): string {
  return String.raw`<[A-Za-z0-9_.:-]*(?:${keywords})>[ \t]*\r?\n[ \t]*`;
}
/**
 * Characters of a generic value: printable ASCII except whitespace, quotes, `<>;,&` and brackets, so a
 * value stops at its terminator and at CJK or other non-ASCII neighbours.
 */
const kValueChar = String.raw`[A-Za-z0-9!#$%*+./:=?@^_|~-]`;
/**
 * What may not follow a value: more value characters (the value runs to its end, `maxLength` bounding
 * it), an opening bracket (`getPassword(`), `>` or a backslash. Whitespace, quotes, `<;,&`, closing
 * brackets and non-ASCII may.
 */
const kValueEnd = String.raw`A-Za-z0-9!#$%*+./:=?@^_|~\-({\[>\\`;
/**
 * `kValueEnd` without the backslash, for the rules that read values inside JSON strings holding
 * `KEY=value\n…` text (an env file as one JSON field): there `\n` ends the value.
 */
const kValueEndLoose = String.raw`A-Za-z0-9!#$%*+./:=?@^_|~\-({\[>`;

/**
 * Words that end names of tokens which are not credentials: published or per-page values (`publicToken`,
 * `nextPageToken`, `continuationToken`, `syncToken`), anti-forgery tokens echoed into every page
 * (`csrf_token`), device and push ids, .NET's `CancellationToken`.
 */
const kNotSecretTokenNames = ['public', 'csrf', 'xsrf', 'page', 'next', 'continuation', 'sync', 'cancellation', 'device', 'push'];

/** A package coordinate or file name ending in a version (`jjwt-jackson-0.11.2`, `lib:2.4.1-rc1`). */
const kVersioned = /[-_:@/v][0-9]{1,4}(?:\.[0-9]{1,4}){1,3}(?:[-.+][A-Za-z0-9.]*)?$/;

/**
 * Vendors whose name alone is used as the key of their credential (`{"sentry": "…"}`,
 * `stripe: sk_…`, `cloudflare = "…"`).
 */
const kVendorNames = [
  'github', 'gitlab', 'bitbucket', 'slack', 'stripe', 'twilio', 'sendgrid', 'mailgun', 'mailchimp', 'cloudflare',
  'heroku', 'npm', 'pypi', 'openai', 'anthropic', 'datadog', 'sentry', 'jfrog', 'artifactory', 'discord', 'telegram',
  'digitalocean', 'shopify', 'okta', 'auth0', 'algolia', 'pagerduty', 'newrelic', 'vercel', 'netlify', 'dockerhub',
];

/**
 * generic-credential's pattern: a credential under a name the high-confidence rules do not take, placed
 * in any `kLabelToValueWide` syntax, or the password argument of a login call. Names: anything ending
 * in `token` but the non-secret ones (`kNotSecretTokenNames`), in `auth`, `credential(s)` or `creds`,
 * or a vendor's name alone. The match starts at the name's first character (left boundary), which is
 * what lets the name's body be checked.
 */
function genericCredentialPattern(): string {
  const ident = '[A-Za-z0-9_.-]';
  const names =
    `(?:${identifierNotEndingIn(kNotSecretTokenNames)})?[_.-]?token` +
    `|${ident}*(?:auth|credentials?|creds)` +
    `|(?:${ident}*[_.-])?(?:${kVendorNames.join('|')})`;
  const loginCall = String.raw`${ident}*(?:log_?in|sign_?in|authenticate)[ \t]*\([ \t]*["'][^"'\r\n]{1,64}["'][ \t]*,[ \t]*["']`;
  return String.raw`(?:(?:${names})${kLabelToValueWide}|${loginCall})(${kValueChar}{12,})`;
}

const dbPw = synth('gen-pw-1', 18, `${kAlnum}!#%^*_-`);
const dbPw2 = synth('gen-pw-2', 16);
const redisPw = synth('gen-pw-3', 24, kBase64Url);
const bearer = synth('gen-bearer-1', 40, kBase64Url);
const bearer2 = synth('gen-bearer-2', 64, kHexLower);
const basicPw = synth('gen-basic-1', 14);
const clientSecret = synth('gen-secret-1', 32, kBase64Url);
const appSecret = synth('gen-secret-2', 24);
const xmlPw = synth('gen-secret-3', 20);
const shortPw = synth('gen-pw-4', 13, `${kAlnum}!#%`);
const shortPw2 = synth('gen-pw-5', 14, `${kAlnum}!#%`);
const lettersPw = synth('gen-pw-6', 17, kLetters);
const tenPw = synth('gen-pw-7', 10);
const cellPw = synth('gen-pw-8', 16, `${kAlnum}!#%^*_-`);
const plistPw = synth('gen-pw-9', 12, `${kAlnum}!#%`);
const apiKey = synth('gen-api-1', 32, kHexLower);
const apiKey2 = synth('gen-api-2', 40);
const cliPw = synth('gen-cli-1', 18, `${kAlnum}!#%^*_-`);
const cliPw2 = synth('gen-cli-2', 12, `${kAlnum}!#%`);
const cliKey = `sk_${synth('gen-cli-3', 32)}`;
const headerToken = synth('gen-hdr-1', 40, kBase64Url);
const headerToken2 = synth('gen-hdr-2', 32, kHexLower);
const headerToken3 = synth('gen-hdr-3', 48);
const lowTok = synth('gen-low-1', 32);
const lowTok2 = synth('gen-low-2', 40, kBase64Url);
const lowHex = synth('gen-low-3', 64, kHexLower);
const lowUuid = `${synth('gen-low-4', 8, kHexLower)}-${synth('gen-low-5', 4, kHexLower)}-4${synth('gen-low-6', 3, kHexLower)}-9${synth('gen-low-7', 3, kHexLower)}-${synth('gen-low-8', 12, kHexLower)}`;
const lowPw = synth('gen-low-9', 16, `${kAlnum}!#%^*_-`);
const npmUuid = `${synth('npmrc-1', 8, kHexLower)}-${synth('npmrc-2', 4, kHexLower)}-4${synth('npmrc-3', 3, kHexLower)}-8${synth('npmrc-4', 3, kHexLower)}-${synth('npmrc-5', 12, kHexLower)}`;
const npmRegTok = synth('npmrc-6', 48, kBase64Url);
const npmPw = synth('npmrc-7', 16, `${kAlnum}!#%^*_-`);

/** A UUID (npm's legacy tokens, and many private registries'). */
const kUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Base64 that decodes to printable UTF-8 text (npm's `_password` and `_auth` values), else null. */
function printableBase64(v: string): string | null {
  if (v.length < 4 || v.length % 4 === 1 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v)) return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(v, 'base64'));
    return /^[\x20-\x7e\u00a0-\uffff]+$/u.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * The value of an `.npmrc` credential: a UUID token, base64 of `user:password` (`_auth`) or of a
 * password (`_password`) that is not a stand-in, or another registry's token of 20 or more
 * characters that looks generated. Shorter tokens (`abc123def456`) are what docs write.
 */
function npmrcCredentialValid(v: string): boolean {
  if (kUuid.test(v)) return true;
  const text = printableBase64(v);
  if (text !== null) {
    const colon = text.indexOf(':');
    if (colon > 0) return realCredentials(text.slice(0, colon), text.slice(colon + 1));
    if (!stopPassword(text) && credentialLike(text)) return true;
  }
  return v.length >= 20 && !codeOrPath(v) && credentialLike(v);
}

/**
 * `user:password` handed to a command-line client, unless the password is a shell or template
 * reference or a stand-in (`(password)`; the pattern stops at `[`, `]` and `<`, so `[PASSWORD]` leaves
 * no password and a CDATA section's `]]>` is not taken in). `key:` with no password is an API
 * key passed as the user name (Stripe's and Elastic's `curl -u KEY:`): the key must look generated.
 */
function cliCredentialsValid(userinfo: string): boolean {
  const colon = userinfo.indexOf(':');
  if (colon < 1) return false;
  const user = userinfo.slice(0, colon);
  const password = userinfo.slice(colon + 1);
  if (password === '') return !stopPassword(user) && credentialLike(user);
  if (/^[$%]|\$\{|\{\{|^\(.*\)$/.test(password)) return false;
  return realCredentials(user, password);
}

export const genericRules: readonly RuleDef[] = [
  {
    id: 'url-credentials',
    description: 'User name and password embedded in a URL (scheme://user:password@host).',
    family: 'secrets',
    tags: ['credentials', 'url'],
    enabledByDefault: true,
    trigger: { keywords: ['@'], next: 'A-Za-z0-9[' },
    // The value is the userinfo, in RFC 3986's userinfo alphabet without `$` and `'`: templated URLs
    // (`${DB_USER}:${DB_PASS}@`, `<user>:<password>@`) cannot match; the validator drops stand-ins.
    // Open repeats, bounded by maxLength: counted ones (`{1,20}` scheme, `{1,128}` password) made
    // RE2's automaton for this unanchored search so large that its cache thrashed on bodies full of
    // e-mail addresses (70 µs a call against 3 µs, measured on the bench's dense log).
    pattern: String.raw`[A-Za-z][A-Za-z0-9+.-]*://([${kUserChars}]*:[${kPasswordChars}]+)@[A-Za-z0-9\[]`,
    group: 1,
    maxLength: kUrlCredentialsMaxLength,
    leadAt: urlLead,
    hitGate: userinfoBeforeAt,
    boundary: { right: '' },
    validate: urlCredentialsValid,
    examples: {
      positive: [
        { text: `DATABASE_URL=postgres://app_rw:${dbPw}@db.internal:5432/app`, match: `app_rw:${dbPw}` },
        { text: `{"uri":"mongodb+srv://svc-reader:${dbPw2}@cluster0.abcd.mongodb.net/?retryWrites=true"}`, match: `svc-reader:${dbPw2}` },
        { text: `캐시 redis://:${redisPw}@cache-1:6379/0 연결`, match: `:${redisPw}` },
        { text: `<a href="ftp://backup:${dbPw2}@files.internal/">`, match: `backup:${dbPw2}` },
      ],
      negative: [
        { text: 'https://user:pass@host.example/' },
        { text: 'postgres://username:password@localhost:5432/db' },
        { text: 'postgres://${DB_USER}:${DB_PASS}@db:5432/app' },
        { text: 'https://user:@host/' },
        { text: 'mailto:someone@example.org and git@github.com:org/repo.git' },
        { text: 'http://host.internal:8080@other/' },
        { text: 'postgres://app:********@db/app' },
        { text: 'amqp://guest:guest@localhost:5672/' },
      ],
    },
  },
  {
    id: 'url-credentials-encoded',
    description: 'User name and password in a percent-encoded URL (scheme%3A%2F%2Fuser%3Apassword%40host), as in a redirect parameter.',
    family: 'secrets',
    tags: ['credentials', 'url'],
    enabledByDefault: true,
    // `%40`, the encoded `@` before the host: rarer than the encoded `://` of every redirect URL.
    trigger: { keywords: ['%40'] },
    // One level of percent-encoding: the userinfo's characters are unreserved or `%XX`; the reported
    // span is the encoded text, and the validator decodes it before the checks url-credentials makes.
    pattern: String.raw`[A-Za-z][A-Za-z0-9+.-]*%3[Aa]%2[Ff]%2[Ff]((?:[A-Za-z0-9._~!*'()-]|%[0-9A-Fa-f]{2})*%3[Aa](?:[A-Za-z0-9._~!*'()-]|%[0-9A-Fa-f]{2})+)%40[A-Za-z0-9]`,
    group: 1,
    maxLength: 400,
    boundary: { right: '' },
    validate: (v) => {
      try {
        return urlCredentialsValid(decodeURIComponent(v).replace(/%/g, '%25'));
      } catch {
        return false;
      }
    },
    examples: {
      positive: [
        { text: `GET /login?next=postgres%3A%2F%2Fapp_rw%3A${encodeURIComponent(dbPw)}%40db.internal%3A5432%2Fapp HTTP/1.1`, match: `app_rw%3A${encodeURIComponent(dbPw)}` },
        { text: `{"redirect":"https%3a%2f%2fdeploy%3a${dbPw2}%40ci.example.test%2fhook"}`, match: `deploy%3a${dbPw2}` },
      ],
      negative: [
        { text: 'next=https%3A%2F%2Fuser%3Apassword%40localhost%2F' },
        { text: 'next=https%3A%2F%2Fexample.test%2Fprofile%3Fmail%3Dbob%2540example.test' },
        { text: 'to=bob%40example.test&from=https%3A%2F%2Fshop.example.test%2F' },
      ],
    },
  },
  {
    id: 'http-bearer-token',
    description: 'Bearer token in an Authorization header or header map.',
    family: 'secrets',
    tags: ['credentials', 'http'],
    enabledByDefault: true,
    trigger: { keywords: ['bearer'] },
    // RFC 6750 b64token alphabet. Unbounded after 16 characters (JWTs run to several KB); the engine's
    // window bounds it.
    pattern: String.raw`auth(?:orization)?["']?[ \t]{0,3}[:=][ \t]{0,3}[\["'\x60]{0,2}[ \t]{0,3}bearer[ \t]{1,3}([A-Za-z0-9._~+/-]{16}[A-Za-z0-9._~+/-]*=*)`,
    ignoreCase: true,
    group: 1,
    maxLength: 4096,
    // At most `authorization"` and its separators (26 characters) come before `bearer`.
    lead: 26,
    boundary: { right: 'A-Za-z0-9._~+/=-' },
    minEntropy: 3.5,
    validate: (v) => /[0-9]/.test(v) && /[A-Za-z]/.test(v),
    examples: {
      positive: [
        { text: `GET /v1/me HTTP/1.1\r\nAuthorization: Bearer ${bearer}\r\n`, match: bearer },
        { text: `{"headers":{"authorization":"Bearer ${bearer2}"}}`, match: bearer2 },
        { text: `curl -H 'Authorization: Bearer ${bearer}' https://api.internal/`, match: bearer },
      ],
      negative: [
        { text: 'Authorization: Bearer YOUR_ACCESS_TOKEN' },
        { text: 'headers: { Authorization: `Bearer ${token}` }' },
        { text: 'Authorization: Bearer <token>' },
        { text: 'The Authorization: Bearer header carries an OAuth access token.' },
        { text: `Authorization: Bearer ${'ab12'.repeat(8)}` },
      ],
    },
  },
  {
    id: 'http-basic-auth',
    description: 'HTTP Basic credentials (base64 user:password) in an Authorization header.',
    family: 'secrets',
    tags: ['credentials', 'http'],
    enabledByDefault: true,
    trigger: { keywords: ['basic'] },
    pattern: String.raw`auth(?:orization)?["']?[ \t]{0,3}[:=][ \t]{0,3}[\["'\x60]{0,2}[ \t]{0,3}basic[ \t]{1,3}([A-Za-z0-9+/._~-]{3,}[A-Za-z0-9+/]={0,2})`,
    ignoreCase: true,
    group: 1,
    // Credentials beyond 300 bytes (400 base64 characters) do not occur; a tight window keeps this
    // rule cheap, since `basic` is a common word.
    maxLength: 460,
    // At most `authorization"` and its separators (26 characters) come before `basic`.
    lead: 26,
    // The value is the whole token68 (RFC 7235), so base64 that is only part of a token (a JWT's
    // header before its first `.`) fails to decode as credentials instead of being reported.
    boundary: { right: 'A-Za-z0-9+/=' },
    validate: (v) => {
      const c = decodeBasicAuth(v);
      return c !== null && realCredentials(c.user, c.password);
    },
    examples: {
      positive: [
        { text: `Authorization: Basic ${b64(`deploy-bot:${basicPw}`)}\r\n`, match: b64(`deploy-bot:${basicPw}`) },
        { text: `{"Authorization":["Basic ${b64(`유저:${basicPw}`)}"]}`, match: b64(`유저:${basicPw}`) },
        { text: `send Authorization: Basic ${b64(`ci-runner:${basicPw}`)}. Then retry.`, match: b64(`ci-runner:${basicPw}`) },
      ],
      negative: [
        { text: `Authorization: Basic ${b64('user:pass')}` },
        { text: `Authorization: Basic ${b64('username:password')}` },
        { text: 'WWW-Authenticate: Basic realm="api"; Authorization: Basic realm' },
        { text: `Authorization: Basic ${b64('no-colon-here')}` },
        { text: `Authorization: Basic ${b64('apikey:')}` },
        // Base64 that is not the whole token, or that decodes to a JSON document: another token.
        { text: `Authorization: Basic ${jwtSample({ alg: 'HS256', typ: 'JWT' }, { sub: 'svc-7', scope: 'read' }, 'gen-basic-jwt')}` },
        { text: `Authorization: Basic ${b64(`svc:${basicPw}`).replace(/=+$/, '')}.${synth('gen-basic-2', 20, kBase64Url)}` },
        { text: `Authorization: Basic ${b64('{"client":"svc-7","scope":"read"}')}` },
      ],
    },
  },
  {
    id: 'cli-credentials',
    description: 'User name and password given to a command-line HTTP client (curl -u/--user, --proxy-user).',
    family: 'secrets',
    tags: ['credentials', 'http'],
    enabledByDefault: true,
    trigger: { keywords: ['curl', '--user', '--proxy-user'] },
    // curl's flags, anywhere on the command's line (before or after the URL), or a bare `--user=`
    // as wget and others take it. Flags are case-sensitive (`-U` is curl's proxy user).
    pattern: String.raw`(?:curl[ \t](?:[^\r\n<>|;&]*[ \t])?(?:-u|-U|--user|--proxy-user)|--(?:user|proxy-user))(?:[ \t]+|=)["']?([A-Za-z0-9._~%!()*+,@-]+:[^ \t\r\n"'\x60<>\[\]]*)`,
    group: 1,
    maxLength: 400,
    lead: 0,
    boundary: { right: '' },
    validate: cliCredentialsValid,
    examples: {
      positive: [
        { text: `curl -u deploy:${cliPw} https://api.internal/v1/items`, match: `deploy:${cliPw}` },
        { text: `$ curl -s -X POST --user "ci-bot:${cliPw2}" -d @job.json https://jenkins.internal/job/x`, match: `ci-bot:${cliPw2}` },
        { text: `<pre><code>curl https://registry.internal/v2/_catalog -u svc.reader:${cliPw}\n</code></pre>`, match: `svc.reader:${cliPw}` },
        { text: `wget --user=backup --password=x; curl --proxy-user proxy01:${cliPw2} http://example.org/`, match: `proxy01:${cliPw2}` },
        { text: `{"cmd":"--user=svc_deploy:${cliPw}"}`, match: `svc_deploy:${cliPw}` },
        // An API key as the user name, no password.
        { text: `curl https://api.internal/v1/charges -u ${cliKey}:`, match: `${cliKey}:` },
      ],
      negative: [
        { text: 'curl -u user:password https://api.example.com/' },
        { text: 'curl -u $API_USER:$API_PASS https://api.example.com/' },
        { text: 'curl -u "${API_USER}:${API_PASS}" https://api.example.com/' },
        { text: 'curl -u apikey: https://api.example.com/' },
        { text: 'curl -u myuser https://api.example.com/' },
        { text: 'curl -u admin:admin http://localhost:8080/' },
        { text: `sort -u names.txt; uniq -u deploy:${cliPw}` },
        { text: "curl -u 'user:<password>' https://api.example.com/" },
        { text: 'curl -u {{username}}:{{password}} https://api.example.com/' },
        { text: 'curl --user admin:[YOUR_PASSWORD] http://[HOST]:7474/' },
        { text: 'curl -u apiuser: https://api.example.com/' },
      ],
    },
  },
  {
    id: 'http-auth-token',
    description: 'Token in an Authorization header with a scheme other than Bearer or Basic (Token, Api-Token, Key, none), or in an API-key header (X-API-Key, X-Auth-Token, Api-Key…).',
    family: 'secrets',
    tags: ['credentials', 'http'],
    enabledByDefault: true,
    trigger: { keywords: ['authorization', 'api-key', 'apikey', 'api-token', 'auth-token', 'access-token'] },
    // A header line or a header map entry: the field name, then `:` or `=`, then an optional scheme
    // word and the token. Bearer and Basic have rules of their own; names written as identifiers
    // (`api_key`, `authToken`) are assignments, generic-api-key's. Every name holds a trigger keyword.
    pattern: String.raw`(?:authorization|(?:[A-Za-z0-9]{1,20}-){0,3}(?:${kKeyHeaders}))${kHeaderLead}(${kHeaderValueChar}{16,}=*)`,
    hitGate: headerValueAfterName,
    ignoreCase: true,
    group: 1,
    maxLength: 1200,
    // The field name's prefix (at most three words of 20, `X-Acme-`) comes before the keyword that woke the rule.
    lead: 64,
    boundary: { left: 'A-Za-z0-9_', right: 'A-Za-z0-9._~+/=-' },
    minEntropy: 3.2,
    validate: (v) => /[0-9]/.test(v) && /[A-Za-z]/.test(v) && !codeOrPath(v),
    examples: {
      positive: [
        { text: `GET /api/v2/tickets HTTP/1.1\r\nAuthorization: Token ${headerToken}\r\n`, match: headerToken },
        { text: `{"headers":{"Authorization":"Api-Token ${headerToken2}"}}`, match: headerToken2 },
        { text: `X-API-Key: ${headerToken3}\r\n`, match: headerToken3 },
        { text: `{"x-auth-token": "${headerToken}"}`, match: headerToken },
        { text: `curl -H "X-Acme-ApiKey: ${headerToken2}" https://api.acme.example/`, match: headerToken2 },
        { text: `Authorization: ${headerToken3}\r\n`, match: headerToken3 },
      ],
      negative: [
        { text: 'Authorization: Token YOUR_API_TOKEN' },
        { text: 'Authorization: Token <token>' },
        { text: `Authorization: Bearer ${headerToken}` },
        { text: `Authorization: Basic ${b64(`deploy-bot:${basicPw}`)}` },
        { text: 'X-API-Key: ${API_KEY}' },
        { text: 'The X-API-Key header carries the key; Authorization: Token is also accepted.' },
        { text: `Authorization: Token ${'ab12'.repeat(8)}` },
        { text: 'x-api-key: https://docs.example.com/keys/rotate-2024' },
        { text: `{"api_key_id": "${apiKey}"}` },
        { text: `{"authToken": "${headerToken2}", "accessToken": "${headerToken}"}` },
      ],
    },
  },
  {
    id: 'generic-secret',
    description: 'High-entropy value assigned to a password, passphrase or secret field.',
    family: 'secrets',
    tags: ['credentials', 'generic'],
    enabledByDefault: true,
    trigger: { keywords: ['password', 'passwd', 'passphrase', '_pass', '-pass', '.pass', 'secret'] },
    pattern: genericPattern(String.raw`password|passwd|passphrase|[_.-]pass|secret(?:[_.-]?(?:key(?:[_.-]?base)?|token))?`),
    ignoreCase: true,
    group: 1,
    maxLength: kGenericMaxLength,
    leadAt: nameLead,
    boundary: { left: '', right: kValueEnd },
    // Not gitleaks' flat entropy >= 3.5, which no value under 12 characters reaches: generated
    // passwords pass a length-aware gate, words with numbers and identifiers do not (secret-value.ts).
    validate: (v) => !codeOrPath(v) && credentialLike(v),
    note: 'Keyword-anchored like gitleaks generic-api-key: the identifier must end with the keyword. The value must look generated: not made of words (Password123, Summer2024!, e.password), with a digit or symbol and entropy near the maximum for its length (or 12+ letters changing case at random), so human-chosen and documentation passwords are not reported.',
    examples: {
      positive: [
        { text: `DB_PASSWORD=${dbPw}\n`, match: dbPw },
        { text: `{"client_id":"web","client_secret":"${clientSecret}"}`, match: clientSecret },
        { text: `app:\n  secret_key_base: ${appSecret}\n`, match: appSecret },
        { text: `<connectionStrings><add key="DbPassword" value="${xmlPw}"/></connectionStrings>`, match: xmlPw },
        { text: `<config><password>${xmlPw}</password></config>`, match: xmlPw },
        { text: `Server=db;User Id=sa;Password=${dbPw2};`, match: dbPw2 },
        { text: `数据库 password=${dbPw2}　下一行`, match: dbPw2 },
        { text: `'password' => '${appSecret}',`, match: appSecret },
        // Generated passwords under 12 characters, which a flat entropy >= 3.5 cannot accept.
        { text: `{"smtp_host":"mail.internal","smtp_password":"${shortPw}"}`, match: shortPw },
        { text: `2024-03-27T20:38:16Z INFO user 503845 updated db_password=${tenPw} session=2bef`, match: tenPw },
        { text: `<DbPassword>${lettersPw}</DbPassword>`, match: lettersPw },
        { text: `<datasource>\n  <password>\n    ${xmlPw}\n  </password>\n</datasource>`, match: xmlPw },
        // Label and value split across markup.
        { text: `<tr><th scope="row">Password</th><td><span class="value">${cellPw}</span></td></tr>`, match: cellPw },
        { text: `<dl><dt>Wi-Fi password:</dt>\n<dd><code>${shortPw2}</code></dd></dl>`, match: shortPw2 },
        { text: `<label for="smtp_password">SMTP password</label> <input type="text" id="smtp_pw" value="${shortPw}" readonly>`, match: shortPw },
        { text: `<settings><DbPassword><![CDATA[${shortPw2}]]></DbPassword></settings>`, match: shortPw2 },
        { text: `<properties><entry key="jdbc.password">${plistPw}</entry></properties>`, match: plistPw },
        { text: `<dict>\n\t<key>Password</key>\n\t<string>${plistPw}</string>\n</dict>`, match: plistPw },
        // Kubernetes / ECS environment lists.
        { text: `"env":[{"name":"DB_PASSWORD","value":"${dbPw2}"},{"name":"PORT","value":"8080"}]`, match: dbPw2 },
        { text: `env:\n  - name: REDIS_PASSWORD\n    value: "${plistPw}"\n`, match: plistPw },
      ],
      negative: [
        { text: '{"password_reset_url": "https://example.org/reset/8f3a9c2e"}' },
        { text: `password: process.env.DB_PASSWORD_2024` },
        { text: '{"password": "changeme"}' },
        { text: '"passwordHint": "Use at least 12 characters"' },
        { text: `secretary: "${synth('gen-secret-4', 20)}"` },
        { text: 'password = getPassword(config2, userId)' },
        { text: 'secret_file: /etc/app/keys/secret-2024.pem' },
        { text: 'password: "aaaa1111aaaa1111"' },
        { text: '<input type="password" name="password" placeholder="Password">' },
        // Words with numbers, identifiers and validation rules where a password goes.
        { text: '{"username":"demo","password":"Summer2024!"}' },
        { text: '{"password": "Password123"}' },
        { text: `'password' => 'required|string|min:8|confirmed',` },
        { text: 'login({user:e.username,password:e.password});' },
        { text: '{"password":"readInstructions"}' },
        { text: 'password=DB_PASSWORD_2' },
        // Markup after a label that does not lead to a value.
        { text: '<tr><th>Password</th><td>Last changed 3 days ago</td><td>a3F9kQ2xZp7W</td></tr>' },
        { text: '<password>\n  ${DB_PASSWORD}\n</password>\n<a href="/reset-password">\nForgot it?</a>' },
        { text: '<password>${DB_PASSWORD}</password>\nFEATURE_REGION=true\nCACHE_TTL=Xk29fPq7Lm3z' },
        { text: '<label for="password">Password</label> <input type="password" id="password" name="password" value="" autocomplete="current-password">' },
        { text: '<tr><td><code>password</code></td><td><code>string</code></td><td>Required. At least 12 characters.</td></tr>' },
        { text: '<dict><key>Password</key><string>changeme</string></dict>' },
        { text: '<tr><th>Password</th><td>P4ssw0rd!</td></tr>' },
        { text: '"env":[{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"db","key":"password"}}}]' },
        { text: 'password: "aaaa1111"' },
      ],
    },
  },
  {
    id: 'generic-api-key',
    description: 'High-entropy value assigned to an API key, API token, access or refresh token field.',
    family: 'secrets',
    tags: ['credentials', 'generic'],
    enabledByDefault: false,
    note: 'Off by default: browser-side configuration routinely carries keys that are public by design (search-only keys, map and analytics tokens, publishable keys) under these names.',
    trigger: {
      keywords: [
        'api_key', 'apikey', 'api-key', 'api.key', 'api_token', 'apitoken', 'api-token', 'access_token', 'accesstoken',
        'access-token', 'auth_token', 'authtoken', 'auth-token', 'refresh_token', 'refreshtoken', 'refresh-token',
        'private_token', 'privatetoken', 'private-token', 'client_key', 'clientkey', 'client-key', 'access_key',
        'accesskey', 'access-key',
      ],
    },
    pattern: genericPattern(String.raw`api[_.-]?(?:key|token)|(?:access|auth|refresh|private)[_.-]?token|(?:client|access)[_.-]?key`),
    ignoreCase: true,
    group: 1,
    maxLength: kGenericMaxLength,
    leadAt: nameLead,
    boundary: { left: '', right: kValueEnd },
    minEntropy: 3.5,
    validate: (v) => !notASecretValue(v),
    examples: {
      positive: [
        { text: `https://api.internal/v2/items?access_token=${apiKey2}&page=2`, match: apiKey2 },
        { text: `{"apiKey": "${apiKey}"}`, match: apiKey },
        { text: `<meta name="api-key" content="${apiKey2}">`, match: apiKey2 },
        { text: `X-API-Key: ${apiKey}`, match: apiKey },
      ],
      negative: [
        { text: `{"api_key_id": "${apiKey}"}` },
        { text: `{"csrf_token": "${apiKey2}"}` },
        { text: '{"apiKey": "YOUR_API_KEY"}' },
        { text: 'api_key = os.environ["API_KEY_2"]' },
        { text: `{"public_key": "${apiKey}"}` },
      ],
    },
  },
  {
    id: 'generic-credential',
    description: 'High-entropy value under a name that may hold a credential (…token, …auth, credentials, a vendor name) or passed as a login password; low confidence.',
    family: 'secrets',
    tags: ['credentials', 'generic'],
    enabledByDefault: true,
    confidence: 'low',
    trigger: { keywords: ['token', 'auth', 'credential', 'creds', 'login', 'signin', 'sign_in', ...kVendorNames] },
    pattern: genericCredentialPattern(),
    ignoreCase: true,
    group: 1,
    maxLength: kGenericMaxLength,
    leadAt: nameLead,
    // The name starts the match: a name character before it means the match began inside a name.
    boundary: { left: 'A-Za-z0-9_.-', right: kValueEndLoose },
    minEntropy: 3,
    validate: (v) => !codeOrPath(v) && !kVersioned.test(v) && credentialLike(v),
    note: 'Low confidence: names like fooToken, basic_auth, credentials or a bare vendor name hold credentials as often as ids, pagination cursors and public values; only reported at --min-confidence low.',
    examples: {
      positive: [
        { text: `{"webhook_token": "${lowTok}"}`, match: lowTok },
        { text: `DEPLOY_TOKEN=${lowTok2}`, match: lowTok2 },
        { text: `<deployToken>\n    ${lowTok}\n</deployToken>`, match: lowTok },
        { text: `System.setProperty("SERVICE_TOKEN", "${lowTok2}");`, match: lowTok2 },
        { text: `token := env.Get("ci_token", "${lowUuid}")`, match: lowUuid },
        { text: `{"env": "ROBOT_TOKEN=${lowTok}\\nLOG_LEVEL=debug"}`, match: lowTok },
        { text: `"credentials" : "${lowHex}"`, match: lowHex },
        { text: `proxy_auth = ${lowPw}`, match: lowPw },
        { text: `client.login("svc-reports", "${lowPw}")`, match: lowPw },
        { text: `{"sentry": "${lowHex.slice(0, 32)}"}`, match: lowHex.slice(0, 32) },
      ],
      negative: [
        { text: `publicToken = "${lowTok}"` },
        { text: `NEXT_PAGE_TOKEN=${lowTok2}` },
        { text: `{"nextPageToken": "${lowTok2}"}` },
        { text: `<input type="hidden" name="csrf-token" value="${lowTok2}">` },
        { text: `"credentialsId": "${lowUuid}"` },
        { text: 'token: "${API_TOKEN}"' },
        { text: '"token_type": "Bearer"' },
        { text: '{"github": "https://github.com/acme/app"}' },
        { text: 'client.login("user", "password")' },
        { text: 'await Task.Delay(100, cancellationToken: CancellationToken.None);' },
        { text: `tokenizer = "${lowTok}"` },
        { text: 'implementation com.auth0:java-jwt-4.4.0' },
      ],
    },
  },
  {
    id: 'npmrc-credentials',
    description: 'Registry credential in an .npmrc line (//host/:_authToken=, :_auth=, :_password=).',
    family: 'secrets',
    tags: ['npm', 'credentials'],
    enabledByDefault: true,
    trigger: { keywords: [':_authToken', ':_auth=', ':_password'] },
    // npm scopes a credential to a registry URL without its scheme; the keys are case-sensitive.
    pattern: String.raw`//[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~%@+-]*)*:_(?:authToken|auth|password)[ \t]*=[ \t]*["']?([A-Za-z0-9._~+/=-]{8,})`,
    group: 1,
    maxLength: 500,
    // The registry's host and path come before the key.
    lead: 300,
    boundary: { left: '', right: 'A-Za-z0-9._~+/=-' },
    minEntropy: 3,
    validate: npmrcCredentialValid,
    examples: {
      positive: [
        { text: `//registry.npmjs.org/:_authToken=${npmUuid}\n`, match: npmUuid },
        { text: `@acme:registry=https://npm.pkg.example.com/\n//npm.pkg.example.com/:_authToken=${npmRegTok}`, match: npmRegTok },
        { text: `//nexus.internal:8081/repository/npm-private/:_auth=${b64(`ci-publisher:${npmPw}`)}`, match: b64(`ci-publisher:${npmPw}`) },
        { text: `//registry.internal/:username=ci\n//registry.internal/:_password="${b64(npmPw)}"`, match: b64(npmPw) },
      ],
      negative: [
        { text: '//registry.npmjs.org/:_authToken=${NPM_TOKEN}' },
        { text: `//registry.npmjs.org/:_auth=${b64('user:password')}` },
        { text: `//registry.npmjs.org/:_auth=${b64('deploy:deploy')}` },
        { text: '//registry.npmjs.org/:_authToken=short-token-1' },
        { text: '//registry.npmjs.org/:_authToken=00000000-0000-0000-0000-000000000000' },
        { text: `//registry.internal/:_password=${b64('changeme')}` },
      ],
    },
  },
];
