/**
 * Synthetic sensitive values for the bench bodies. Every value is drawn from the seeded PRNG, in the
 * real format and with a valid checksum where the format has one (Luhn, IBAN mod 97, GitHub's CRC-32),
 * so the engine's validators accept them and the confirmation path is really exercised. None is a
 * real credential or a real person's number; e-mail addresses use the reserved example.* domains and
 * phone numbers the ranges reserved for fiction (NANP 555-01xx, Ofcom 020 7946 0xxx).
 */
import { crc32 } from '../src/validators/crc32.js';
import type { Rng } from './prng.js';

export type ValueKind =
  | 'card'
  | 'iban'
  | 'us-ssn'
  | 'email'
  | 'phone'
  | 'aws-access-key-id'
  | 'aws-secret-key'
  | 'github-token'
  | 'slack-token'
  | 'stripe-key'
  | 'google-api-key'
  | 'jwt'
  | 'private-key'
  | 'password'
  | 'uk-nino'
  | 'db-url';

export interface Planted {
  kind: ValueKind;
  /** The field or label the value sits under (gives context words to rules that want them). */
  field: string;
  value: string;
}

const kUpper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const kLower = 'abcdefghijklmnopqrstuvwxyz';
const kDigits = '0123456789';
const kBase62 = kDigits + kUpper + kLower;
const kBase32 = kUpper + '234567';
const kBase64 = kUpper + kLower + kDigits + '+/';
const kBase64Url = kUpper + kLower + kDigits + '-_';

/** Appends the Luhn check digit to `payload` (ISO/IEC 7812). */
export function withLuhn(payload: string): string {
  let sum = 0;
  // Walking from the right, the digit next to the (future) check digit is doubled first.
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = payload.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return payload + String((10 - (sum % 10)) % 10);
}

/** ISO 13616 check digits for `country` + `bban`: 98 − (BBAN + country + "00" as a number mod 97). */
export function ibanFor(country: string, bban: string): string {
  const rearranged = bban + country + '00';
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const n = code >= 65 ? String(code - 55) : ch;
    for (const d of n) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return country + String(98 - rem).padStart(2, '0') + bban;
}

function base62(n: number, width: number): string {
  let s = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) s = kBase62[v % 62] + s;
  return s.padStart(width, '0');
}

function base64url(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64url');
}

function group(s: string, sizes: readonly number[], sep: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const n of sizes) {
    if (at >= s.length) break;
    parts.push(s.slice(at, at + n));
    at += n;
  }
  if (at < s.length) parts.push(s.slice(at));
  return parts.join(sep);
}

function card(rng: Rng): string {
  const brand = rng.int(0, 4);
  let digits: string;
  if (brand === 0) digits = withLuhn('4' + rng.digits(14));
  else if (brand === 1) digits = withLuhn('5' + rng.int(1, 5) + rng.digits(13));
  else if (brand === 2) digits = withLuhn('3' + rng.pick(['4', '7']) + rng.digits(12));
  else if (brand === 3) digits = withLuhn('6011' + rng.digits(11));
  else digits = withLuhn('35' + rng.int(28, 89) + rng.digits(11));
  const sep = rng.pick(['', ' ', '-']);
  if (sep === '') return digits;
  return digits.length === 15 ? group(digits, [4, 6, 5], sep) : group(digits, [4, 4, 4, 4], sep);
}

function iban(rng: Rng): string {
  const country = rng.pick(['DE', 'GB', 'FR', 'NL']);
  let bban: string;
  if (country === 'DE') bban = rng.digits(18);
  else if (country === 'GB') bban = rng.chars(kUpper, 4) + rng.digits(14);
  else if (country === 'FR') bban = rng.digits(23);
  else bban = rng.chars(kUpper, 4) + rng.digits(10);
  const electronic = ibanFor(country, bban);
  // Print form (groups of four) as often as the electronic form: both occur in real pages.
  return rng.chance(0.5) ? electronic : group(electronic, Array(9).fill(4) as number[], ' ');
}

function ssn(rng: Rng): string {
  // Area 001-899 except 666 (never issued), group 01-99, serial 0001-9999: the SSA's structural rules.
  let area = rng.int(1, 899);
  if (area === 666) area = 667;
  return `${String(area).padStart(3, '0')}-${String(rng.int(1, 99)).padStart(2, '0')}-${String(rng.int(1, 9999)).padStart(4, '0')}`;
}

const kFirst = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar', 'peggy', 'trent', 'walter', 'zoe'];
const kLast = ['smith', 'jones', 'garcia', 'muller', 'kowalski', 'rossi', 'dubois', 'tanaka', 'silva', 'novak'];

function email(rng: Rng): string {
  const local = `${rng.pick(kFirst)}${rng.pick(['.', '_', ''])}${rng.pick(kLast)}${rng.chance(0.3) ? rng.int(1, 99) : ''}`;
  return `${local}@${rng.pick(['example.com', 'example.org', 'example.net', 'mail.example.com'])}`;
}

function phone(rng: Rng): string {
  return rng.chance(0.5) ? `+1 202-555-01${rng.digits(2)}` : `+44 20 7946 0${rng.digits(3)}`;
}

function githubToken(rng: Rng): string {
  const random = rng.chars(kBase62, 30);
  return `${rng.pick(['ghp', 'gho', 'ghs'])}_${random}${base62(crc32(random), 6)}`;
}

function jwt(rng: Rng): string {
  const header = base64url('{"alg":"HS256","typ":"JWT"}');
  const payload = base64url(JSON.stringify({ sub: rng.digits(10), name: `${rng.pick(kFirst)} ${rng.pick(kLast)}`, iat: 1_700_000_000 + rng.int(0, 9_999_999) }));
  return `${header}.${payload}.${rng.chars(kBase64Url, 43)}`;
}

function privateKey(rng: Rng): string {
  // Random base64 in PEM armour: the shape of a key, not a parsable one.
  const lines: string[] = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEow' + rng.chars(kBase64, 58)];
  for (let i = 0; i < 4; i++) lines.push(rng.chars(kBase64, 64));
  lines.push(rng.chars(kBase64, 20) + '==', '-----END RSA PRIVATE KEY-----');
  return lines.join('\n');
}

function ukNino(rng: Rng): string {
  // First letter not D F I Q U V; second not D F I O Q U V; the pairs BG GB NK KN NT TN ZZ are never used.
  const first = rng.pick([...'ABCEGHJKLMNOPRSTWXYZ']);
  let second = rng.pick([...'ABCEGHJKLMNPRSTWXYZ']);
  if (['BG', 'GB', 'NK', 'KN', 'NT', 'TN', 'ZZ'].includes(first + second)) second = 'A';
  return `${first}${second}${rng.digits(6)}${rng.pick(['A', 'B', 'C', 'D'])}`;
}

function password(rng: Rng): string {
  return rng.chars(kUpper + kLower + kDigits + '!#%', rng.int(12, 20));
}

/** Relative frequency of each kind in the bodies: common PII and cards first, PEM blocks rare. */
const kWeights: ReadonlyArray<[ValueKind, number]> = [
  ['card', 14],
  ['email', 14],
  ['iban', 8],
  ['us-ssn', 8],
  ['phone', 8],
  ['aws-access-key-id', 6],
  ['aws-secret-key', 4],
  ['github-token', 6],
  ['slack-token', 4],
  ['stripe-key', 4],
  ['google-api-key', 4],
  ['jwt', 4],
  ['password', 6],
  ['uk-nino', 4],
  ['db-url', 3],
  ['private-key', 1],
];
const kTotalWeight = kWeights.reduce((s, [, w]) => s + w, 0);

/** Every kind the generator can plant, in a stable order. */
export const kValueKinds: readonly ValueKind[] = kWeights.map(([k]) => k);

/** One synthetic value of `kind`, with the field name a real application would give it. */
export function makeValue(rng: Rng, kind: ValueKind): Planted {
  switch (kind) {
    case 'card':
      return { kind, field: rng.pick(['card_number', 'cardNumber', 'pan', 'credit_card']), value: card(rng) };
    case 'iban':
      return { kind, field: rng.pick(['iban', 'bank_account', 'payout_iban']), value: iban(rng) };
    case 'us-ssn':
      return { kind, field: rng.pick(['ssn', 'social_security_number', 'tax_id']), value: ssn(rng) };
    case 'email':
      return { kind, field: rng.pick(['email', 'contact_email', 'billing_email']), value: email(rng) };
    case 'phone':
      return { kind, field: rng.pick(['phone', 'mobile', 'telephone']), value: phone(rng) };
    case 'aws-access-key-id':
      return { kind, field: 'aws_access_key_id', value: 'AKIA' + rng.chars(kBase32, 16) };
    case 'aws-secret-key':
      return { kind, field: 'aws_secret_access_key', value: rng.chars(kBase64, 40) };
    case 'github-token':
      return { kind, field: rng.pick(['github_token', 'GH_TOKEN', 'token']), value: githubToken(rng) };
    case 'slack-token':
      return { kind, field: 'slack_bot_token', value: `xoxb-${rng.digits(12)}-${rng.digits(13)}-${rng.chars(kBase62, 24)}` };
    case 'stripe-key':
      return { kind, field: 'stripe_secret_key', value: `sk_live_${rng.chars(kBase62, 24)}` };
    case 'google-api-key':
      return { kind, field: 'google_maps_key', value: 'AIza' + rng.chars(kBase64Url, 35) };
    case 'jwt':
      return { kind, field: rng.pick(['access_token', 'id_token', 'authorization']), value: jwt(rng) };
    case 'private-key':
      return { kind, field: 'private_key', value: privateKey(rng) };
    case 'password':
      return { kind, field: rng.pick(['password', 'db_password', 'smtp_password']), value: password(rng) };
    case 'uk-nino':
      return { kind, field: rng.pick(['national_insurance_number', 'nino', 'ni_number']), value: ukNino(rng) };
    case 'db-url':
      return { kind, field: 'database_url', value: `postgres://app_${rng.pick(kLast)}:${password(rng).replace(/[#%!]/g, 'x')}@db.example.com:5432/app` };
  }
}

/** A value of a kind drawn by weight. */
export function randomValue(rng: Rng): Planted {
  let r = rng.next() * kTotalWeight;
  for (const [kind, w] of kWeights) {
    r -= w;
    if (r < 0) return makeValue(rng, kind);
  }
  return makeValue(rng, 'card');
}

// ---- Decoys: values that look like sensitive data to a prefilter but are not -----------------------

export function uuid(rng: Rng): string {
  const h = (n: number) => rng.chars('0123456789abcdef', n);
  return `${h(8)}-${h(4)}-4${h(3)}-${rng.pick(['8', '9', 'a', 'b'])}${h(3)}-${h(12)}`;
}

export function hexHash(rng: Rng, bytes: number): string {
  return rng.chars('0123456789abcdef', bytes * 2);
}

export function isoTime(rng: Rng): string {
  const d = new Date(Date.UTC(2024, 0, 1) + rng.int(0, 365 * 24 * 3600) * 1000 + rng.int(0, 999));
  return d.toISOString();
}

/** Epoch milliseconds: 13 digits, the length of many card numbers. */
export function epochMs(rng: Rng): string {
  return String(1_700_000_000_000 + rng.int(0, 99_999_999) * 1000 + rng.int(0, 999));
}

export function orderNumber(rng: Rng): string {
  return rng.pick([`ORD-2024-${rng.digits(6)}`, `INV${rng.digits(10)}`, `${rng.digits(3)}-${rng.digits(7)}-${rng.digits(7)}`]);
}

export function ipv4(rng: Rng): string {
  return `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

export function price(rng: Rng): string {
  return `${rng.int(1, 9)},${rng.digits(3)}.${rng.digits(2)}`;
}

export function personName(rng: Rng): string {
  // Non-ASCII names keep the UTF-8 decoder honest.
  return rng.pick(['Zoë Müller', 'José Álvarez', 'Łukasz Nowak', 'Søren Ærø', '田中 太郎', 'Ana Silva', 'John Smith', 'Chloé Dubois']);
}

export function words(rng: Rng, n: number): string {
  const vocab = ['order', 'shipped', 'account', 'the', 'customer', 'updated', 'status', 'payment', 'received', 'for', 'delivery', 'address', 'profile', 'session', 'request', 'completed', 'item', 'quantity', 'warehouse', 'note', 'review', 'pending', 'api', 'version', 'cache', 'region', 'invoice', 'total'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(vocab));
  return out.join(' ');
}
