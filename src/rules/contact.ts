import type { RuleDef } from './types.js';

/**
 * PII contact details: e-mail addresses and phone numbers. All three rules are off by default: these
 * values are everywhere on ordinary pages (support addresses, footers, shop phone numbers), have no
 * checksum, and would flood the Log-only event stream. They are meant for applications where any
 * contact detail in a response is a leak (user APIs, exports).
 */

/**
 * Endings that follow `@` in file names and package specifiers rather than in addresses: image
 * variants (`logo@2x.png`), bundles, documents. None is a top-level domain used for mail; `.zip` and
 * `.mov` are delegated gTLDs but are listed because file names ending in them are far more common.
 */
const kFileExtensions = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'avif', 'bmp', 'ico', 'tif', 'tiff', 'heic',
  'css', 'scss', 'sass', 'less', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'map', 'json', 'xml',
  'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'txt', 'pdf', 'yml', 'yaml', 'toml', 'ini', 'cfg', 'conf',
  'log', 'lock', 'woff', 'ttf', 'otf', 'eot', 'mp3', 'mp4', 'webm', 'ogg', 'wav', 'mov', 'zip', 'gz', 'tgz',
  'tar', 'rar', 'exe', 'dll', 'dmg', 'apk', 'wasm',
]);

/** Special-use and private names (RFC 2606, RFC 6761, common internal suffixes): not mail domains. */
const kNonPublicTlds = new Set(['localhost', 'localdomain', 'local', 'internal', 'test', 'invalid', 'lan', 'home', 'corp', 'intranet']);

/** Local parts of SSH remotes (`git@github.com:org/repo.git`), which are not mailboxes. */
const kServiceUsers = new Set(['git', 'hg']);

function emailValid(value: string): boolean {
  const at = value.indexOf('@');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  if (kServiceUsers.has(local.toLowerCase())) return false;
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (kFileExtensions.has(tld) || kNonPublicTlds.has(tld)) return false;
  // Retina and scale suffixes: `icon@2x.anything`, `icon@1.5x.anything`.
  return !/^[0-9]+(?:\.[0-9]+)?x\./.test(domain);
}

const kEmail: RuleDef = {
  id: 'email-address',
  description: 'E-mail address.',
  family: 'pii',
  tags: ['email', 'contact'],
  enabledByDefault: false,
  note: 'E-mail addresses are on most pages (contact and support addresses, authors, footers) and have no checksum; off by default. Image names like logo@2x.png, package specifiers (@types/node, react@18.2.0), SSH remotes (git@host), addresses right after a `/` (URL user-info such as https://key@host, at the cost of addresses inside URL paths) and non-public domains (localhost, .local, .internal, .test) are not reported.',
  trigger: { keywords: ['@'], next: 'A-Za-z0-9' },
  // Local part 1-64 characters (RFC 5321), up to 4 dot-separated domain labels of 1-63 characters, then
  // a 2-24 letter top-level domain (no numeric TLDs, so `pkg@1.2.3` never matches).
  pattern: '[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.){1,4}[A-Za-z]{2,24}',
  maxLength: 64 + 1 + 4 * 64 + 24,
  // The match must take the whole local part: a longer run (> 64) or a `/` before it (URL user-info,
  // as in `https://key@sentry.example.io`) rejects it. After the TLD, no letter, digit, `_`, `-` or `@`.
  boundary: { left: 'A-Za-z0-9._%+/-', right: 'A-Za-z0-9_@-' },
  validate: emailValid,
  examples: {
    positive: [
      { text: '{"user":{"email":"jane.doe@example.com","id":42}}', match: 'jane.doe@example.com' },
      { text: '<a href="mailto:support+billing@mail.example.org">Contact</a>', match: 'support+billing@mail.example.org' },
      { text: '이메일: kim.minsu@example.net 입니다', match: 'kim.minsu@example.net' },
      { text: 'From: "Wang Li" <wang_li-2024@dept.example.com.cn>\r\n', match: 'wang_li-2024@dept.example.com.cn' },
      { text: 'Reply to ops@example.com.', match: 'ops@example.com' },
    ],
    negative: [
      { text: '<img src="/img/logo@2x.png" srcset="/img/logo@3x.webp 3x, icon@1.5x.svg">' },
      { text: '{"devDependencies":{"@types/node":"^20.19.0"}} and npm i react@18.2.0' },
      { text: 'ssh deploy@localhost && ssh root@web01.internal' },
      { text: 'git clone git@github.com:owner/repo.git' },
      { text: 'dsn = "https://0123abcd@o1.ingest.example.io/42"' },
      { text: '@media (min-width: 600px) { a { color: red } } /* @author jane */' },
      { text: 'bad local .jane@example.com and jane.@example.com and ja..ne@example.com' },
    ],
  },
};

/**
 * Lead-in for phone numbers, as `kNumberLeadIn` of the financial rules (a number must not continue a
 * digit run through a separator), minus `+`, which belongs to the number itself.
 */
const kPhoneLeadIn = '(?:^[ .-]?|[^0-9A-Za-z .+-]|[^0-9A-Za-z+][ .-]|[A-Za-z] )';

/** NANP area codes and exchanges: first digit 2-9, not an N11 service code; areas have no middle 9. */
function nanpPartsValid(area: string, exchange: string): boolean {
  if (area.endsWith('11') || exchange.endsWith('11')) return false;
  return area[1] !== '9';
}

const kNanpShapes = [
  // (AAA) EEE-LLLL with optional +1/1 prefix.
  /^(?:\+1[ .-]?|1[ .-])?\(([0-9]{3})\) ?([0-9]{3})[ .-]?[0-9]{4}$/,
  // AAA-EEE-LLLL with one separator kind (captured twice, compared below).
  /^(?:\+1[ .-]?|1[ .-])?([0-9]{3})([ .-])([0-9]{3})([ .-])[0-9]{4}$/,
  // +1AAAEEELLLL (E.164).
  /^\+1([0-9]{3})([0-9]{3})[0-9]{4}$/,
] as const;

function usPhoneValid(value: string): boolean {
  const digits = value.replace(/[^0-9]/g, '');
  if (/^1?(.)\1*$/.test(digits)) return false;
  let m = kNanpShapes[0].exec(value);
  if (m !== null) return nanpPartsValid(m[1]!, m[2]!);
  m = kNanpShapes[1].exec(value);
  if (m !== null) return m[2] === m[4] && nanpPartsValid(m[1]!, m[3]!);
  m = kNanpShapes[2].exec(value);
  // Anything else carries the overrun (`-5`, `.5`) the pattern captured: a slice of a longer number.
  return m !== null && nanpPartsValid(m[1]!, m[2]!);
}

const kUsPhone: RuleDef = {
  id: 'us-phone',
  description: 'US/Canada (NANP) phone number in a written format such as (202) 555-0143, 202-555-0143 or +1 202 555 0143.',
  family: 'pii',
  tags: ['us', 'ca', 'phone', 'contact'],
  enabledByDefault: false,
  note: 'Phone numbers have no checksum and business numbers are on most pages; off by default. Only formatted numbers (parentheses or separators, or +1 with 10 digits) are matched, since bare 10-digit runs are mostly ids; the area code and exchange must start with 2-9 and not be N11 codes; numbers glued to a longer digit run are ignored.',
  trigger: { digits: { min: 7 } },
  pattern:
    `${kPhoneLeadIn}(` +
    '(?:\\+1[ .-]?|1[ .-])?(?:\\([2-9][0-9]{2}\\) ?[2-9][0-9]{2}[ .-]?|[2-9][0-9]{2}[ .-][2-9][0-9]{2}[ .-])[0-9]{4}(?:[.-][0-9])?' +
    '|\\+1[2-9][0-9]{2}[2-9][0-9]{6}(?:[.-][0-9])?)',
  group: 1,
  // The lead-in judges the left side (it may start with a letter: `Tel 202…`).
  boundary: { left: '' },
  maxLength: 2 + 17 + 2,
  validate: usPhoneValid,
  examples: {
    positive: [
      { text: 'Call us at (202) 555-0143.', match: '(202) 555-0143' },
      { text: '{"phone":"+1 202-555-0172","name":"J. Doe"}', match: '+1 202-555-0172' },
      { text: '<a href="tel:+12025550191">call</a>', match: '+12025550191' },
      { text: 'Fax: 1-212-555-0100\n', match: '1-212-555-0100' },
      { text: '전화 212.555.0123 으로', match: '212.555.0123' },
    ],
    negative: [
      { text: '{"id":"2025550143"}' },
      { text: 'released 2024-01-15, updated 2024-10-05' },
      { text: 'ip 203.0.113.195 and version 10.2.345.6789' },
      { text: '(123) 456-7890 and 911-555-0143 and 202-911-0143 and 292-555-0143' },
      { text: 'ids 202-555-01434 and 3202-555-0143 and 202-555-0143-5' },
      { text: 'mixed 202-555.0143 and 202 555-0143' },
      { text: 'ranges 210-250, 300-4000 and glued ab1-202-555-0143 or 41-202-555-0143' },
    ],
  },
};

const kIpv4Like = /^\+[0-9]{1,3}(?:\.[0-9]{1,3}){3}$/;
const kIsoDateLike = /^\+[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

function intlPhoneValid(value: string): boolean {
  // +1 is NANP, reported by `us-phone` (one finding per number).
  if (value.startsWith('+1')) return false;
  if (kIpv4Like.test(value) || kIsoDateLike.test(value)) return false;
  if (value.includes('.')) {
    // Dots are a whole-number style (`+49.30.1234.5678`), never mixed with spaces or dashes, and need
    // 3+ groups: `+35236450.6` is a signed decimal, `+12.345.678` a number with thousands separators.
    if (/[ -]/.test(value)) return false;
    const groups = value.slice(1).split('.');
    if (groups.length < 3 || groups.slice(1).every((g) => g.length === 3)) return false;
  }
  // E.164: at most 15 digits, country code included; the national trunk prefix `(0)` is not dialled.
  const digits = value.replace('(0)', '').replace(/[^0-9]/g, '');
  if (digits.length < 8 || digits.length > 15) return false;
  return !/^(.)\1*$/.test(digits);
}

const kIntlPhone: RuleDef = {
  id: 'phone-number',
  description: 'International phone number in E.164-like form: + country code and 7-14 more digits, optionally grouped.',
  family: 'pii',
  tags: ['phone', 'contact'],
  enabledByDefault: false,
  note: 'Phone numbers have no checksum and business numbers are on most pages; off by default. Only numbers written with a leading + are matched; +1 numbers are left to us-phone; dates, IPv4-like dotted numbers and runs longer than 15 digits are rejected.',
  trigger: { digits: { min: 6 } },
  // `+`, country code and first digits, an optional `(0)`/`(area)` group, then groups joined by one
  // separator each. Groups that continue past 15 digits are taken too, so the length check drops them.
  pattern: '\\+[1-9][0-9]{0,14}(?:[ .-]?\\([0-9]{1,4}\\)[ .-]?[0-9]{1,14})?(?:[ .-][0-9]{1,14}){0,7}',
  maxLength: 16 + 22 + 7 * 15,
  validate: intlPhoneValid,
  examples: {
    positive: [
      { text: '{"phone":"+44 20 7946 0958"}', match: '+44 20 7946 0958' },
      { text: 'Tél. : +33 1 99 00 12 34', match: '+33 1 99 00 12 34' },
      { text: 'UK office +44 (0)20 7946 0123, Sydney +61 2 5550 1234', match: '+61 2 5550 1234' },
      { text: '<a href="tel:+442079460958">', match: '+442079460958' },
      { text: '연락처: +82-2-555-0143', match: '+82-2-555-0143' },
      { text: 'tel. +49.30.1234.5678', match: '+49.30.1234.5678' },
    ],
    negative: [
      { text: 'US numbers go to us-phone: +1 202 555 0143' },
      { text: 'year +2024-01-15 and host +10.120.130.140' },
      { text: 'short +44 20 and C++17 with +3.14159' },
      { text: 'too long +44 20 7946 0958 1234 5678' },
      { text: 'glued 1+44 20 7946 0958 and a+44 20 7946 0958' },
      { text: 'mixed +44.20 7946-0958' },
      { text: "Decimal('+35236450.6') and +12.345.678 and +1234.5678" },
    ],
  },
};

/** Contact-detail PII rules (family `pii`), all off by default. */
export const contactRules: readonly RuleDef[] = [kEmail, kIntlPhone, kUsPhone];
