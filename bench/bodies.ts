/**
 * Deterministic bench bodies: realistic text (a log), HTML, JSON and XML pages of exact byte sizes with
 * synthetic sensitive values planted sparsely or densely among decoys, plus adversarial bodies built to
 * hit the worst case of each part of a scanner. Same seed, same bytes, on every machine.
 */
import { Rng, seedOf } from './prng.js';
import {
  epochMs,
  hexHash,
  ipv4,
  isoTime,
  orderNumber,
  personName,
  price,
  randomValue,
  uuid,
  words,
  type Planted,
} from './synthetic.js';

export type ContentKind = 'text' | 'html' | 'json' | 'xml';
export type Density = 'sparse' | 'dense';

export const kContentKinds: readonly ContentKind[] = ['text', 'html', 'json', 'xml'];
export const kDensities: readonly Density[] = ['sparse', 'dense'];

/** Content-Type header each kind is scanned with. */
export const kContentTypes: Readonly<Record<ContentKind, string>> = {
  text: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml; charset=utf-8',
};

/** File extensions a body of each kind is written under (the CLI then sends the same content type). */
export const kFileExtensions: Readonly<Record<ContentKind, string>> = { text: 'log', html: 'html', json: 'json', xml: 'xml' };

/** The extension for a body's content type (`txt` for any other). */
export function fileExtension(contentType: string): string {
  const kind = kContentKinds.find((k) => kContentTypes[k] === contentType);
  return kind === undefined ? 'txt' : kFileExtensions[kind];
}

/**
 * Body sizes. Binary units, so the largest body is exactly the engine's scan cap (1,048,576 bytes) and
 * the whole of it is scanned; throughput is still reported in 10^6 bytes per second.
 */
export const kSizes = { '16KB': 16 * 1024, '128KB': 128 * 1024, '1MB': 1024 * 1024 } as const;
export type SizeLabel = keyof typeof kSizes;

/** Sparse: about one value per 100 kB (at least one per body). Dense: one about every 250 bytes. */
const kSparseEvery = 100_000;
const kDenseEvery = 250;

export interface Body {
  /** Short label, e.g. `json/sparse/1MB` or `adv/digit-runs`. */
  name: string;
  contentType: string;
  bytes: Buffer;
  /** Synthetic sensitive values planted (0 for adversarial bodies). */
  planted: number;
}

interface Format {
  header: string;
  footer: string;
  /** One record of ordinary content carrying the planted values (often none). */
  record(rng: Rng, plants: readonly Planted[]): string;
}

// ---- Escaping, as real encoders do it: part of what the engine must decode ---------------------------

/** JSON string body with some characters written as `\uXXXX` (PHP's and Java's encoders do this). */
function jsonUnicodeEscape(rng: Rng, s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 0xffff) out += ch;
    else if (ch === '@' || ch === '/' || ch === '-' || (c >= 48 && c <= 57 && rng.chance(0.3))) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return out;
}

function htmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** HTML-escaped text with some characters as numeric character references (`&#64;`, `&#x34;`). */
function htmlEntities(rng: Rng, s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '@' || ch === '.' || (c >= 48 && c <= 57 && rng.chance(0.4))) out += rng.chance(0.5) ? `&#${c};` : `&#x${c.toString(16)};`;
    else out += htmlText(ch);
  }
  return out;
}

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// ---- The four formats ---------------------------------------------------------------------------------

const kPaths = ['/api/v2/orders', '/api/v2/customers', '/checkout/confirm', '/account/settings', '/static/app.js', '/healthz'];

const kText: Format = {
  header: '# access and application log (synthetic)\n',
  footer: '\n# end of log\n',
  record(rng, plants) {
    const lines: string[] = [];
    const n = rng.int(1, 3);
    for (let i = 0; i < n; i++) {
      lines.push(
        `${isoTime(rng)} ${rng.pick(['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN'])} [req ${uuid(rng)}] ${rng.pick(['GET', 'POST', 'PUT'])} ${rng.pick(kPaths)}/${orderNumber(rng)} ` +
          `${rng.pick([200, 200, 201, 204, 304, 404, 500])} ${rng.int(1, 900)}ms ip=${ipv4(rng)} ts=${epochMs(rng)} etag="${hexHash(rng, 20)}" msg="${words(rng, rng.int(3, 9))}"`,
      );
    }
    for (const p of plants) {
      // Some values arrive inside a JSON payload with escapes, as application logs print them.
      if (rng.chance(0.15)) lines.push(`${isoTime(rng)} DEBUG payload={"${p.field}":"${jsonUnicodeEscape(rng, p.value)}","ref":"${uuid(rng)}"}`);
      else lines.push(`${isoTime(rng)} INFO user ${rng.digits(6)} updated ${p.field}=${p.value} session=${hexHash(rng, 16)}`);
    }
    return lines.join('\n') + '\n';
  },
};

const kHtml: Format = {
  header:
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Your orders</title>' +
    '<link rel="stylesheet" href="/static/app.3f9c2e.css"><script src="/static/app.8d1a77.js" defer></script>' +
    '<style>.row{display:flex;gap:8px}.muted{color:#667}</style></head>\n<body><header class="nav"><a href="/">Shop</a>' +
    '<a href="/account">Account</a></header><main><h1>Orders</h1><table class="orders">\n',
  footer: '</table></main><footer><p class="muted">&copy; 2024 Example Shop</p></footer></body></html>\n',
  record(rng, plants) {
    let s =
      `<tr class="row" data-id="${uuid(rng)}"><td><a href="/orders/${orderNumber(rng)}">${orderNumber(rng)}</a></td>` +
      `<td>${htmlText(personName(rng))}</td><td class="num">&euro;${price(rng)}</td>` +
      `<td><time datetime="${isoTime(rng)}">${words(rng, 2)}</time></td><td><img src="/img/${hexHash(rng, 8)}.png" alt=""></td></tr>\n`;
    for (const p of plants) {
      const label = p.field.replace(/_/g, ' ');
      const value = rng.chance(0.2) ? htmlEntities(rng, p.value) : htmlText(p.value);
      s += rng.chance(0.5)
        ? `<tr><th scope="row">${label}</th><td><span class="value">${value}</span></td></tr>\n`
        : `<tr><td colspan="5"><label>${label}</label> <input type="text" name="${p.field}" value="${value}" readonly></td></tr>\n`;
    }
    return s;
  },
};

const kJson: Format = {
  header: '{"object":"list","api_version":"2024-06-01","data":[',
  footer: ']}',
  record(rng, plants) {
    let s =
      `{"id":"${uuid(rng)}","order":"${orderNumber(rng)}","created_at":"${isoTime(rng)}","ts":${epochMs(rng)},` +
      `"customer":{"name":${JSON.stringify(personName(rng))},"ip":"${ipv4(rng)}","tier":"${rng.pick(['free', 'pro', 'team'])}"},` +
      `"total":"${price(rng)}","currency":"EUR","sha256":"${hexHash(rng, 32)}","tags":["${words(rng, 1)}","${words(rng, 1)}"],"note":"${words(rng, rng.int(2, 8))}"`;
    for (const p of plants) s += `,"${p.field}":"${rng.chance(0.2) ? jsonUnicodeEscape(rng, p.value) : JSON.stringify(p.value).slice(1, -1)}"`;
    return s + '},';
  },
};

const kXml: Format = {
  header:
    '<?xml version="1.0" encoding="UTF-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:m="urn:example:orders">' +
    '<soap:Header><m:RequestId>synthetic</m:RequestId></soap:Header><soap:Body><m:GetOrdersResponse>\n',
  footer: '</m:GetOrdersResponse></soap:Body></soap:Envelope>\n',
  record(rng, plants) {
    let s =
      `<m:Order id="${uuid(rng)}"><m:Number>${orderNumber(rng)}</m:Number><m:Created>${isoTime(rng)}</m:Created>` +
      `<m:Customer><m:Name>${xmlText(personName(rng))}</m:Name><m:Ip>${ipv4(rng)}</m:Ip></m:Customer>` +
      `<m:Total currency="EUR">${price(rng)}</m:Total><m:Digest alg="sha1">${hexHash(rng, 20)}</m:Digest><m:Note>${words(rng, rng.int(2, 6))} &amp; more</m:Note>`;
    for (const p of plants) {
      const tag = p.field.replace(/(^|_)([a-z])/g, (_m, _u: string, c: string) => c.toUpperCase());
      const r = rng.next();
      const value = r < 0.1 ? `<![CDATA[${p.value}]]>` : r < 0.2 ? htmlEntities(rng, p.value) : xmlText(p.value);
      s += `<m:${tag}>${value}</m:${tag}>`;
    }
    return s + '</m:Order>\n';
  },
};

const kFormats: Readonly<Record<ContentKind, Format>> = { text: kText, html: kHtml, json: kJson, xml: kXml };

/**
 * A body of `kind` of exactly `size` bytes. Values are planted at evenly spaced target offsets: a
 * record carries every value whose target it has passed. Whitespace pads the body to its size before
 * the footer, so every body stays a well-formed document.
 */
export function makeBody(kind: ContentKind, density: Density, label: SizeLabel): Body {
  return makeSizedBody(kind, density, kSizes[label], `${kind}/${density}/${label}`);
}

/**
 * A body of any `size` (at least a few hundred bytes: header, footer and one record), seeded by
 * `name`: the pool phase's batch corpus draws many sizes, each body with a name of its own.
 */
export function makeSizedBody(kind: ContentKind, density: Density, size: number, name: string): Body {
  const rng = new Rng(seedOf(name));
  const fmt = kFormats[kind];
  const targets: number[] = [];
  if (density === 'sparse') {
    const n = Math.max(1, Math.round(size / kSparseEvery));
    for (let k = 0; k < n; k++) targets.push(Math.floor(((k + 0.5) * size) / n));
  } else {
    for (let at = kDenseEvery / 2; at < size; at += kDenseEvery) targets.push(at + rng.int(-40, 40));
  }
  const parts: string[] = [fmt.header];
  let len = Buffer.byteLength(fmt.header);
  const footerLen = Buffer.byteLength(fmt.footer);
  let next = 0;
  let planted = 0;
  for (;;) {
    const plants: Planted[] = [];
    while (next < targets.length && (targets[next] ?? Infinity) <= len) {
      plants.push(randomValue(rng));
      next++;
    }
    const rec = fmt.record(rng, plants);
    const recLen = Buffer.byteLength(rec);
    if (len + recLen + footerLen > size) break;
    parts.push(rec);
    len += recLen;
    planted += plants.length;
  }
  // Each JSON record ends with a comma; the last one must not sit before `]`.
  if (kind === 'json') {
    const last = parts[parts.length - 1] ?? '';
    if (last.endsWith(',')) {
      parts[parts.length - 1] = last.slice(0, -1);
      len -= 1;
    }
  }
  parts.push(' '.repeat(size - len - footerLen), fmt.footer);
  const bytes = Buffer.from(parts.join(''), 'utf8');
  if (bytes.length !== size) throw new Error(`${name}: generated ${bytes.length} bytes, wanted ${size}`);
  return { name, contentType: kContentTypes[kind], bytes, planted };
}

// ---- Adversarial bodies ----------------------------------------------------------------------------------

export type AdversarialKind =
  | 'digit-runs'
  | 'a-dot'
  | 'base64'
  | 'repeat-a'
  | 'repeat-0'
  | 'json-nesting'
  | 'at-signs'
  | 'kw-password'
  | 'kw-akia'
  | 'kw-all';

export const kAdversarialKinds: readonly AdversarialKind[] = [
  'digit-runs',
  'a-dot',
  'base64',
  'repeat-a',
  'repeat-0',
  'json-nesting',
  'at-signs',
  'kw-password',
  'kw-akia',
  'kw-all',
];

/** What each adversarial body attacks (printed in the README and the JSON results). */
export const kAdversarialWhy: Readonly<Record<AdversarialKind, string>> = {
  'digit-runs': 'one 1 MB run of 4-digit groups with space/dash separators: card, IBAN and id patterns with optional separators get a candidate at almost every offset',
  'a-dot': '`a.a.a.…` with no `@`: quadratic for e-mail patterns with a repeated local-part class in backtracking engines',
  base64: 'one unbroken base64 run: token triggers and high-entropy secret patterns never see a boundary',
  'repeat-a': 'one repeated letter: longest possible token, no boundary',
  'repeat-0': 'one repeated digit: longest possible digit run, no boundary',
  'json-nesting': '`[[[[…]]]]` 512 Ki levels deep: stack depth of any recursive JSON tokenizer',
  'at-signs': '`a@a@a@…`: an e-mail keyword hit every two bytes, every one a candidate',
  'kw-password': '`password password …`: a keyword hit every 9 bytes with no value after it',
  'kw-akia': '`AKIA AKIA …`: an AWS key prefix every 5 bytes with no key after it',
  'kw-all': 'every keyword of the selected rules in turn: the worst case of keyword-triggered confirmation',
};

function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/**
 * An adversarial body of `size` bytes (ASCII, so characters are bytes). `keywords` feeds `kw-all`;
 * with none the body is empty and the case is skipped by the caller.
 */
export function makeAdversarial(kind: AdversarialKind, size: number, keywords: readonly string[] = []): Body {
  const rng = new Rng(seedOf(`adv/${kind}`));
  let text: string;
  switch (kind) {
    case 'digit-runs': {
      const parts: string[] = [];
      let len = 0;
      while (len < size) {
        const g = rng.digits(4) + (rng.chance(0.7) ? ' ' : '-');
        parts.push(g);
        len += g.length;
      }
      text = parts.join('').slice(0, size);
      break;
    }
    case 'a-dot':
      text = fill('a.', size);
      break;
    case 'base64':
      text = rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', size);
      break;
    case 'repeat-a':
      text = 'a'.repeat(size);
      break;
    case 'repeat-0':
      text = '0'.repeat(size);
      break;
    case 'json-nesting':
      text = '['.repeat(size / 2) + ']'.repeat(size - size / 2);
      break;
    case 'at-signs':
      text = fill('a@', size);
      break;
    case 'kw-password':
      text = fill('password ', size);
      break;
    case 'kw-akia':
      text = fill('AKIA ', size);
      break;
    case 'kw-all':
      text = keywords.length === 0 ? '' : fill(keywords.join(' ') + ' ', size);
      break;
  }
  const contentType = kind === 'json-nesting' ? 'application/json' : 'text/plain; charset=utf-8';
  return { name: `adv/${kind}`, contentType, bytes: Buffer.from(text, 'latin1'), planted: 0 };
}

/** `bytes` in `n` pieces of about equal length, each cut back to the start of a UTF-8 character. */
export function piecesOf(bytes: Uint8Array, n: number): Uint8Array[] {
  const cuts = [0];
  for (let i = 1; i < n; i++) {
    let at = Math.round((i * bytes.length) / n);
    while (at > cuts[cuts.length - 1]! && (bytes[at]! & 0xc0) === 0x80) at--;
    cuts.push(at);
  }
  cuts.push(bytes.length);
  return cuts.slice(0, n).map((c, i) => bytes.subarray(c, cuts[i + 1]));
}
