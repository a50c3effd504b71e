/**
 * What the labelled corpus plants: every rule's own positive examples (the example text gives the
 * context words the rule needs; the `match` is the labelled value) and synthetic values from the
 * bench's seeded generator, mapped to the rule that must report them; plus decoys that must not match.
 */
import { allRuleDefs } from '../../src/rules/index.js';
import type { Rng } from '../../bench/prng.js';
import { epochMs, hexHash, ipv4, isoTime, kValueKinds, makeValue, orderNumber, uuid, withLuhn, type ValueKind } from '../../bench/synthetic.js';
import { locateDecoded } from './encode.js';

/** One labelled value: `before + value + after` is written; `value` is what the rule must report. */
export interface Plant {
  rule: string;
  /** `example:<rule>#<n>` or `synthetic:<kind>`. */
  source: string;
  /** Field name a structured placement files the value under (synthetic values only). */
  field?: string;
  before: string;
  value: string;
  after: string;
  /** The level the rule reports this value at, when below `high` (scored only at that threshold and lower). */
  confidence?: 'medium' | 'low';
  /**
   * Set for examples written already escaped for one content kind (`\u` escapes, `&#32;`): they are
   * written verbatim into a body of that kind only.
   */
  verbatimKind?: 'json' | 'html';
}

/** Every positive example that names its match, in rule order, grouped by example index. */
export function examplePlants(): Plant[] {
  const out: Plant[] = [];
  for (const r of allRuleDefs) {
    r.examples.positive.forEach((ex, n) => {
      if (ex.match === undefined) return;
      // The match as written, or (in an example already escaped for its content type) its escaped form.
      const at = ex.text.indexOf(ex.match);
      const span: readonly [number, number] | undefined =
        at >= 0 ? [at, at + ex.match.length] : ex.contentType !== undefined ? locateDecoded(ex.text, ex.match) : undefined;
      if (span === undefined) return;
      const p: Plant = { rule: r.id, source: `example:${r.id}#${n}`, before: ex.text.slice(0, span[0]), value: ex.text.slice(span[0], span[1]), after: ex.text.slice(span[1]) };
      const level = ex.confidence ?? r.confidence ?? 'high';
      if (level !== 'high') p.confidence = level;
      if (ex.contentType !== undefined) p.verbatimKind = ex.contentType.includes('json') ? 'json' : 'html';
      out.push(p);
    });
  }
  return out;
}

/** Round-robin order: every rule's first example, then every rule's second, … (so a short slice covers every rule). */
export function interleaveByRule(plants: readonly Plant[]): Plant[] {
  const byRule = new Map<string, Plant[]>();
  for (const p of plants) {
    const list = byRule.get(p.rule) ?? [];
    list.push(p);
    byRule.set(p.rule, list);
  }
  const out: Plant[] = [];
  for (let round = 0; out.length < plants.length; round++) {
    for (const list of byRule.values()) {
      const p = list[round];
      if (p !== undefined) out.push(p);
    }
  }
  return out;
}

function cardRule(digits: string): string {
  if (digits.startsWith('4')) return 'card-visa';
  if (digits.startsWith('34') || digits.startsWith('37')) return 'card-amex';
  if (digits.startsWith('6011')) return 'card-discover';
  if (digits.startsWith('35')) return 'card-jcb';
  return 'card-mastercard';
}

/** A synthetic value from bench/synthetic.ts labelled with the rule that must report it. */
export function syntheticPlant(rng: Rng, kind: ValueKind): Plant {
  const v = makeValue(rng, kind);
  const plant = (rule: string, value = v.value, before = '', after = ''): Plant => ({ rule, source: `synthetic:${kind}`, field: v.field, before, value, after });
  switch (kind) {
    case 'card':
      return plant(cardRule(v.value.replace(/\D/g, '')));
    case 'iban':
      return plant('iban');
    case 'us-ssn':
      return plant('us-ssn');
    case 'email':
      return plant('email-address');
    case 'phone':
      return plant(v.value.startsWith('+1 ') ? 'us-phone' : 'phone-number');
    case 'aws-access-key-id':
      return plant('aws-access-key-id');
    case 'aws-secret-key':
      return plant('aws-secret-access-key');
    case 'github-token':
      return plant(v.value.startsWith('ghp_') ? 'github-pat' : v.value.startsWith('gho_') ? 'github-oauth' : 'github-app-token');
    case 'slack-token':
      return plant('slack-token');
    case 'stripe-key':
      return plant('stripe-secret-key');
    case 'google-api-key':
      return plant('gcp-api-key');
    case 'jwt':
      return plant('jwt');
    case 'private-key':
      return plant('private-key');
    case 'password':
      return plant('generic-secret');
    case 'uk-nino':
      return plant('uk-nino');
    case 'db-url': {
      // The rule reports the `user:password` part of the URL.
      const at = v.value.indexOf('@');
      const scheme = v.value.indexOf('://') + 3;
      return plant('url-credentials', v.value.slice(scheme, at), v.value.slice(0, scheme), v.value.slice(at));
    }
  }
}

export { kValueKinds };

// ---- Decoys ------------------------------------------------------------------------------------------

export type DecoyKind =
  | 'uuid'
  | 'hash'
  | 'base64'
  | 'timestamp'
  | 'epoch-ms'
  | 'order-id'
  | 'version'
  | 'luhn-invalid'
  | 'phone-like'
  | 'placeholder'
  | 'ip'
  | 'masked-card';

export const kDecoyKinds: readonly DecoyKind[] = [
  'uuid',
  'hash',
  'base64',
  'timestamp',
  'epoch-ms',
  'order-id',
  'version',
  'luhn-invalid',
  'phone-like',
  'placeholder',
  'ip',
  'masked-card',
];

const kB64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Placeholder and documented-example shapes that secret scanners must suppress. */
const kPlaceholders = [
  'AKIAXXXXXXXXXXXXXXXX',
  'AKIAIOSFODNN7EXAMPLE',
  'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'sk_live_<your-key-here>',
  '${STRIPE_SECRET_KEY}',
  '{{ slack_bot_token }}',
  'xoxb-your-token-here',
  'YOUR_API_KEY',
  '<your-sentry-dsn>',
  '********',
];

/** A value with the look of sensitive data that no rule may report. */
export function decoy(rng: Rng, kind: DecoyKind): string {
  switch (kind) {
    case 'uuid':
      return uuid(rng);
    case 'hash':
      return hexHash(rng, rng.pick([16, 20, 32]));
    case 'base64':
      return rng.chars(kB64, rng.int(6, 30) * 4);
    case 'timestamp':
      return isoTime(rng);
    case 'epoch-ms':
      return epochMs(rng);
    case 'order-id':
      return orderNumber(rng);
    case 'version':
      return `${rng.int(0, 12)}.${rng.int(0, 40)}.${rng.int(0, 300)}`;
    case 'luhn-invalid': {
      const good = withLuhn('4' + rng.digits(14));
      const last = Number(good.slice(-1));
      return good.slice(0, -1) + String((last + rng.int(1, 9)) % 10);
    }
    case 'phone-like':
      // A reference number in a phone's 3-3-4 layout that no NANP number can have (area and exchange
      // codes never start with 0 or 1), so a phone rule that checks the plan can tell them apart.
      return `REF ${rng.int(0, 1)}${rng.digits(2)}-${rng.int(0, 1)}${rng.digits(2)}-${rng.digits(4)}`;
    case 'placeholder':
      return rng.pick(kPlaceholders);
    case 'ip':
      return ipv4(rng);
    case 'masked-card':
      return `•••• •••• •••• ${rng.digits(4)}`;
  }
}
