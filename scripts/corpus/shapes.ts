/**
 * Body shapes of the corpus: HTML pages (tables, forms, inline scripts), JSON API responses (nested
 * and pretty, minified, heavily escaped), XML (SOAP, RSS, sitemap, configuration) and plain text
 * (application logs, tickets, .env-style configuration). Each shape writes ordinary records full of
 * decoys and places the plants it is handed in the way that shape carries data, escaping included.
 */
import type { Rng } from '../../bench/prng.js';
import { isoTime, personName, price, uuid, words, hexHash, orderNumber, ipv4 } from '../../bench/synthetic.js';
import { decoy, kDecoyKinds, type DecoyKind, type Plant } from './plants.js';
import { htmlEntities, htmlText, jsonSlashes, jsonString, jsonUnicode, raw, xmlText, type Encoder } from './encode.js';

export type BodyKind = 'text' | 'html' | 'json' | 'xml';

export interface PlantRecord {
  rule: string;
  /** Set when the rule reports this value below `high` only (then it counts at that threshold and lower). */
  confidence?: 'medium' | 'low';
  start: number;
  end: number;
  source: string;
  placement: string;
  /** Byte span of the whole planted text (example context included); other rules' findings inside it are not false positives. */
  region: [number, number];
}

export interface DecoyRecord {
  kind: DecoyKind;
  start: number;
  end: number;
}

/** Accumulates a body and the byte spans of what it plants. */
export class Writer {
  readonly parts: string[] = [];
  bytes = 0;
  readonly plants: PlantRecord[] = [];
  readonly decoys: DecoyRecord[] = [];

  raw(s: string): void {
    this.parts.push(s);
    this.bytes += Buffer.byteLength(s);
  }

  decoy(rng: Rng, kind: DecoyKind = rng.pick(kDecoyKinds), enc: Encoder = raw): void {
    const s = enc(decoy(rng, kind));
    this.decoys.push({ kind, start: this.bytes, end: this.bytes + Buffer.byteLength(s) });
    this.raw(s);
  }

  plant(p: Plant, enc: Encoder, placement: string): void {
    const regionStart = this.bytes;
    this.raw(enc(p.before));
    const start = this.bytes;
    this.raw(enc(p.value));
    const end = this.bytes;
    this.raw(enc(p.after));
    this.plants.push({ rule: p.rule, start, end, source: p.source, placement, region: [regionStart, this.bytes], ...(p.confidence === undefined ? {} : { confidence: p.confidence }) });
  }

  text(): string {
    return this.parts.join('');
  }
}

export interface Shape {
  kind: BodyKind;
  name: string;
  ext: string;
  contentType: string;
  header(w: Writer, rng: Rng): void;
  /** One record; `plants` may be empty. Returns nothing; writes to `w`. */
  record(w: Writer, rng: Rng, plants: readonly Plant[]): void;
  /** Separator written between records (JSON's comma). */
  separator?: string;
  footer(w: Writer, rng: Rng): void;
}

const kPaths = ['/api/v2/orders', '/api/v2/customers', '/checkout/confirm', '/account/settings', '/static/app.js', '/healthz'];
const camel = (f: string) => f.replace(/(^|_)([a-z])/gi, (_m, _u: string, c: string) => c.toUpperCase());
const isPlain = (p: Plant) => !/["\\\n\r<>&]/.test(p.before + p.value + p.after);

// ---- Text -------------------------------------------------------------------------------------------

function logLine(w: Writer, rng: Rng): void {
  w.raw(`${isoTime(rng)} ${rng.pick(['INFO', 'INFO', 'DEBUG', 'WARN'])} [req `);
  w.decoy(rng, 'uuid');
  w.raw(`] ${rng.pick(['GET', 'POST', 'PUT'])} ${rng.pick(kPaths)}/`);
  w.decoy(rng, 'order-id');
  w.raw(` ${rng.pick([200, 201, 204, 304, 404, 500])} ${rng.int(1, 900)}ms ip=${ipv4(rng)} ts=`);
  w.decoy(rng, 'epoch-ms');
  w.raw(` etag="`);
  w.decoy(rng, 'hash');
  w.raw(`" ref=`);
  w.decoy(rng);
  w.raw(` msg="${words(rng, rng.int(3, 9))}"\n`);
}

function textPlant(w: Writer, rng: Rng, p: Plant, style: 'log' | 'env' | 'ticket'): void {
  if (p.field === undefined) {
    w.raw(style === 'log' ? `${isoTime(rng)} WARN dump: ` : style === 'env' ? '# pasted from ticket\n' : '> ');
    w.plant(p, raw, 'text:example');
    w.raw('\n');
    return;
  }
  if (style === 'log' && rng.chance(0.3)) {
    // Application logs often print a JSON payload, escapes and all.
    const enc = rng.chance(0.5) ? jsonUnicode(rng) : jsonSlashes;
    w.raw(`${isoTime(rng)} DEBUG payload={"${p.field}":"`);
    w.plant(p, enc, 'log:json-escaped');
    w.raw('","ref":"');
    w.decoy(rng, 'uuid');
    w.raw('"}\n');
    return;
  }
  if (style === 'env') {
    w.raw(`${p.field.toUpperCase()}=`);
    w.plant(p, raw, 'env:assignment');
    w.raw(`\nBUILD_SHA=`);
    w.decoy(rng, 'hash');
    w.raw('\n');
    return;
  }
  w.raw(`${isoTime(rng)} INFO user ${rng.digits(6)} updated ${p.field}=`);
  w.plant(p, raw, 'log:field');
  w.raw(` session=`);
  w.decoy(rng, 'hash');
  w.raw('\n');
}

const kLog: Shape = {
  kind: 'text',
  name: 'log',
  ext: 'log',
  contentType: 'text/plain; charset=utf-8',
  header: (w) => w.raw('# application log (synthetic)\n'),
  record(w, rng, plants) {
    for (let i = rng.int(1, 3); i > 0; i--) logLine(w, rng);
    for (const p of plants) textPlant(w, rng, p, 'log');
  },
  footer: (w) => w.raw('# end of log\n'),
};

const kEnv: Shape = {
  kind: 'text',
  name: 'env',
  ext: 'txt',
  contentType: 'text/plain',
  header: (w) => w.raw('# exported configuration (synthetic)\nNODE_ENV=production\n'),
  record(w, rng, plants) {
    w.raw(`FEATURE_${words(rng, 1).toUpperCase()}=${rng.pick(['true', 'false'])}\nAPP_VERSION=`);
    w.decoy(rng, 'version');
    w.raw(`\nCACHE_KEY=`);
    w.decoy(rng, rng.pick(['hash', 'base64', 'placeholder']));
    w.raw(`\nSERVICE_URL=https://${words(rng, 1)}.example.com/v${rng.int(1, 3)}\n`);
    for (const p of plants) textPlant(w, rng, p, 'env');
  },
  footer: (w) => w.raw('# end\n'),
};

const kTicket: Shape = {
  kind: 'text',
  name: 'ticket',
  ext: 'txt',
  contentType: 'text/plain; charset=utf-8',
  header: (w, rng) => w.raw(`Subject: Re: ticket ${orderNumber(rng)}\nDate: ${isoTime(rng)}\n\n`),
  record(w, rng, plants) {
    w.raw(`${personName(rng)} wrote about order `);
    w.decoy(rng, 'order-id');
    w.raw(`: ${words(rng, rng.int(6, 18))}. Tracking `);
    w.decoy(rng, rng.pick(['phone-like', 'luhn-invalid', 'masked-card', 'epoch-ms']));
    w.raw(`, build `);
    w.decoy(rng, 'version');
    w.raw('.\n');
    for (const p of plants) textPlant(w, rng, p, 'ticket');
  },
  footer: (w) => w.raw('\n-- \nSupport (synthetic)\n'),
};

// ---- HTML -------------------------------------------------------------------------------------------

const kHtmlHead = (title: string) =>
  `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  '<link rel="stylesheet" href="/static/app.3f9c2e.css"><script src="/static/app.8d1a77.js" defer></script></head>\n<body>\n';

function htmlPlant(w: Writer, rng: Rng, p: Plant, style: 'table' | 'form' | 'script'): void {
  if (p.verbatimKind === 'html') {
    w.plant(p, raw, 'html:verbatim');
    w.raw('\n');
    return;
  }
  if (p.field === undefined) {
    if (p.before.trimStart().startsWith('<')) {
      w.plant(p, raw, 'html:markup');
    } else if (style === 'script' && isPlain(p)) {
      w.raw('<script>window.__NOTES__.push("');
      w.plant(p, jsonString, 'html:script-string');
      w.raw('");</script>');
    } else if (rng.chance(0.25)) {
      w.raw('<input type="hidden" name="note" value="');
      w.plant(p, htmlText, 'html:attribute');
      w.raw('">');
    } else {
      const tag = rng.pick(['pre', 'p', 'blockquote']);
      w.raw(`<${tag}>`);
      w.plant(p, htmlText, 'html:text');
      w.raw(`</${tag}>`);
    }
    w.raw('\n');
    return;
  }
  const r = rng.next();
  if (style === 'script' && isPlain(p) && r < 0.5) {
    w.raw(`<script>window.__STATE__.${camel(p.field)} = "`);
    w.plant(p, raw, 'html:script');
    w.raw(`"; window.__STATE__.rid = "`);
    w.decoy(rng, 'uuid');
    w.raw('";</script>\n');
  } else if (style === 'form' || r < 0.3) {
    w.raw(`<label for="${p.field}">${p.field}</label> <input type="text" id="${p.field}" name="${p.field}" value="`);
    w.plant(p, rng.chance(0.2) ? htmlEntities(rng) : htmlText, 'html:input-value');
    w.raw('" readonly>\n');
  } else {
    w.raw(`<tr><th scope="row">${p.field}</th><td><span class="value">`);
    w.plant(p, rng.chance(0.2) ? htmlEntities(rng) : htmlText, 'html:cell');
    w.raw(`</span></td><td class="muted">`);
    w.decoy(rng);
    w.raw('</td></tr>\n');
  }
}

function htmlRow(w: Writer, rng: Rng): void {
  w.raw(`<tr class="row" data-id="`);
  w.decoy(rng, 'uuid');
  w.raw(`"><td><a href="/orders/${orderNumber(rng)}">`);
  w.decoy(rng, 'order-id');
  w.raw(`</a></td><td>${htmlText(personName(rng))}</td><td class="num">&euro;${price(rng)}</td><td><time datetime="`);
  w.decoy(rng, 'timestamp');
  w.raw(`">${words(rng, 2)}</time></td><td><code>`);
  w.decoy(rng, rng.pick(['luhn-invalid', 'masked-card', 'hash', 'phone-like', 'epoch-ms']));
  w.raw(`</code></td><td><img src="/img/${hexHash(rng, 8)}.png" alt=""></td></tr>\n`);
}

const kHtmlTable: Shape = {
  kind: 'html',
  name: 'table',
  ext: 'html',
  contentType: 'text/html; charset=utf-8',
  header: (w) => w.raw(kHtmlHead('Your orders') + '<main><h1>Orders</h1><table class="orders">\n'),
  record(w, rng, plants) {
    htmlRow(w, rng);
    for (const p of plants) htmlPlant(w, rng, p, 'table');
  },
  footer: (w) => w.raw('</table></main><footer><p class="muted">&copy; 2024 Example Shop</p></footer></body></html>\n'),
};

const kHtmlForm: Shape = {
  kind: 'html',
  name: 'form',
  ext: 'html',
  contentType: 'text/html; charset=utf-8',
  header: (w, rng) => w.raw(kHtmlHead('Account settings') + `<form method="post" action="/account"><input type="hidden" name="csrf" value="${uuid(rng)}">\n`),
  record(w, rng, plants) {
    w.raw(`<fieldset><legend>${words(rng, 2)}</legend><input name="nickname" value="${htmlText(personName(rng))}"><input name="api_version" value="`);
    w.decoy(rng, 'version');
    w.raw(`"><input name="device" value="`);
    w.decoy(rng, rng.pick(['base64', 'hash', 'placeholder']));
    w.raw('"></fieldset>\n');
    for (const p of plants) htmlPlant(w, rng, p, 'form');
  },
  footer: (w) => w.raw('<button type="submit">Save</button></form></body></html>\n'),
};

const kHtmlScript: Shape = {
  kind: 'html',
  name: 'script',
  ext: 'html',
  contentType: 'text/html',
  header: (w) => w.raw(kHtmlHead('Dashboard') + '<script>window.__STATE__ = {}; window.__NOTES__ = [];</script>\n<div id="app">\n'),
  record(w, rng, plants) {
    w.raw(`<script>window.__STATE__.items = (window.__STATE__.items || []).concat([{"id":"`);
    w.decoy(rng, 'uuid');
    w.raw(`","ts":`);
    w.decoy(rng, 'epoch-ms');
    w.raw(`,"sha":"`);
    w.decoy(rng, 'hash');
    w.raw(`","v":"`);
    w.decoy(rng, 'version');
    w.raw(`"}]);</script>\n<p>${words(rng, rng.int(5, 15))}</p>\n`);
    for (const p of plants) htmlPlant(w, rng, p, 'script');
  },
  footer: (w) => w.raw('</div></body></html>\n'),
};

// ---- JSON -------------------------------------------------------------------------------------------

function jsonPlant(w: Writer, rng: Rng, p: Plant, enc: Encoder, ind: string): void {
  if (p.verbatimKind === 'json') {
    // Already-escaped examples are written as they are: an object as a member value, a member as is.
    w.raw(`,${ind}`);
    if (p.before.startsWith('{')) w.raw('"example":');
    w.plant(p, raw, 'json:verbatim');
    return;
  }
  const field = p.field ?? rng.pick(['raw', 'message', 'description', 'payload']);
  w.raw(`,${ind}"${field}":"`);
  w.plant(p, enc, p.field === undefined ? 'json:string' : 'json:field');
  w.raw('"');
}

function jsonShape(name: string, pretty: boolean, pickEnc: (rng: Rng) => Encoder): Shape {
  const nl = (depth: number) => (pretty ? '\n' + '  '.repeat(depth) : '');
  const sp = pretty ? ' ' : '';
  return {
    kind: 'json',
    name,
    ext: 'json',
    contentType: 'application/json',
    separator: ',',
    header: (w, rng) => w.raw(`{${nl(1)}"object":${sp}"list",${nl(1)}"request_id":${sp}"${uuid(rng)}",${nl(1)}"data":${sp}[`),
    record(w, rng, plants) {
      const i2 = nl(2);
      const i3 = nl(3);
      w.raw(`${i2}{${i3}"id":${sp}"`);
      w.decoy(rng, 'uuid');
      w.raw(`",${i3}"order":${sp}"`);
      w.decoy(rng, 'order-id');
      w.raw(`",${i3}"created_at":${sp}"`);
      w.decoy(rng, 'timestamp');
      w.raw(`",${i3}"ts":${sp}`);
      w.decoy(rng, 'epoch-ms');
      w.raw(`,${i3}"customer":${sp}{${nl(4)}"name":${sp}${JSON.stringify(personName(rng))},${nl(4)}"ip":${sp}"${ipv4(rng)}",${nl(4)}"last4":${sp}"${rng.digits(4)}"${i3}},`);
      w.raw(`${i3}"total":${sp}"${price(rng)}",${i3}"sha256":${sp}"`);
      w.decoy(rng, 'hash');
      w.raw(`",${i3}"ref":${sp}"`);
      w.decoy(rng, rng.pick(['luhn-invalid', 'base64', 'phone-like', 'placeholder', 'version']));
      w.raw(`",${i3}"links":${sp}{"self":${sp}"${jsonSlashes(`https://api.example.com/v2/orders/${orderNumber(rng)}`)}"}`);
      w.raw(`,${i3}"note":${sp}"${words(rng, rng.int(2, 8))}"`);
      for (const p of plants) jsonPlant(w, rng, p, pickEnc(rng), i3);
      w.raw(`${i2}}`);
    },
    footer: (w) => w.raw(`${nl(1)}],${nl(1)}"has_more":${sp}false${nl(0)}}\n`),
  };
}

const kJsonPretty = jsonShape('nested', true, () => jsonString);
const kJsonMin = jsonShape('minified', false, (rng) => (rng.chance(0.5) ? jsonSlashes : jsonString));
const kJsonEscaped = jsonShape('escaped', false, (rng) => (rng.chance(0.7) ? jsonUnicode(rng) : jsonSlashes));

// ---- XML --------------------------------------------------------------------------------------------

function xmlPlant(w: Writer, rng: Rng, p: Plant, tagPrefix: string): void {
  const r = rng.next();
  const useCdata = !(p.before + p.value + p.after).includes(']]>') && r < 0.3;
  const tag = p.field === undefined ? `${tagPrefix}Note` : `${tagPrefix}${camel(p.field)}`;
  w.raw(`<${tag}>`);
  if (useCdata) {
    w.raw('<![CDATA[');
    w.plant(p, raw, 'xml:cdata');
    w.raw(']]>');
  } else {
    w.plant(p, r < 0.4 && p.field !== undefined ? htmlEntities(rng) : xmlText, 'xml:element');
  }
  w.raw(`</${tag}>`);
}

const kSoap: Shape = {
  kind: 'xml',
  name: 'soap',
  ext: 'xml',
  contentType: 'application/soap+xml; charset=utf-8',
  header: (w, rng) =>
    w.raw(
      '<?xml version="1.0" encoding="UTF-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:m="urn:example:orders">' +
        `<soap:Header><m:RequestId>${uuid(rng)}</m:RequestId></soap:Header><soap:Body><m:GetAccountsResponse>\n`,
    ),
  record(w, rng, plants) {
    w.raw(`<m:Account id="`);
    w.decoy(rng, 'uuid');
    w.raw(`"><m:Number>`);
    w.decoy(rng, 'order-id');
    w.raw(`</m:Number><m:Holder>${xmlText(personName(rng))}</m:Holder><m:Balance currency="EUR">${price(rng)}</m:Balance><m:Digest alg="sha256">`);
    w.decoy(rng, 'hash');
    w.raw(`</m:Digest><m:Ref>`);
    w.decoy(rng, rng.pick(['luhn-invalid', 'masked-card', 'epoch-ms', 'base64']));
    w.raw('</m:Ref>');
    for (const p of plants) xmlPlant(w, rng, p, 'm:');
    w.raw('</m:Account>\n');
  },
  footer: (w) => w.raw('</m:GetAccountsResponse></soap:Body></soap:Envelope>\n'),
};

const kRss: Shape = {
  kind: 'xml',
  name: 'rss',
  ext: 'rss',
  contentType: 'application/rss+xml',
  header: (w) => w.raw('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Release notes</title><link>https://example.com/</link>\n'),
  record(w, rng, plants) {
    w.raw(`<item><title>Release `);
    w.decoy(rng, 'version');
    w.raw(`</title><guid isPermaLink="false">`);
    w.decoy(rng, 'uuid');
    w.raw(`</guid><pubDate>${new Date(Date.parse(isoTime(rng))).toUTCString()}</pubDate><description><![CDATA[<p>${words(rng, rng.int(5, 20))} commit `);
    w.decoy(rng, 'hash');
    w.raw(`</p>]]></description>`);
    for (const p of plants) xmlPlant(w, rng, p, '');
    w.raw('</item>\n');
  },
  footer: (w) => w.raw('</channel></rss>\n'),
};

const kSitemap: Shape = {
  kind: 'xml',
  name: 'sitemap',
  ext: 'xml',
  contentType: 'application/xml',
  header: (w) => w.raw('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'),
  record(w, rng, plants) {
    w.raw(`<url><loc>https://example.com/p/${hexHash(rng, 6)}/${orderNumber(rng)}</loc><lastmod>`);
    w.decoy(rng, 'timestamp');
    w.raw(`</lastmod><changefreq>weekly</changefreq><priority>0.${rng.int(1, 9)}</priority>`);
    for (const p of plants) xmlPlant(w, rng, p, '');
    w.raw('</url>\n');
  },
  footer: (w) => w.raw('</urlset>\n'),
};

const kConfig: Shape = {
  kind: 'xml',
  name: 'config',
  ext: 'xml',
  contentType: 'text/xml',
  header: (w) => w.raw('<?xml version="1.0" encoding="utf-8"?>\n<configuration><appSettings>\n'),
  record(w, rng, plants) {
    w.raw(`<add key="${camel(words(rng, 1))}Version" value="`);
    w.decoy(rng, 'version');
    w.raw(`"/><add key="InstanceId" value="`);
    w.decoy(rng, 'uuid');
    w.raw(`"/><add key="ApiKey" value="`);
    w.decoy(rng, 'placeholder', xmlText);
    w.raw(`"/><add key="Endpoint" value="https://${words(rng, 1)}.example.com:${rng.int(1000, 9999)}/"/>\n`);
    for (const p of plants) {
      xmlPlant(w, rng, p, '');
      w.raw('\n');
    }
  },
  footer: (w) => w.raw('</appSettings></configuration>\n'),
};

export const kShapes: Readonly<Record<BodyKind, readonly Shape[]>> = {
  text: [kLog, kEnv, kTicket],
  html: [kHtmlTable, kHtmlForm, kHtmlScript],
  json: [kJsonPretty, kJsonMin, kJsonEscaped],
  xml: [kSoap, kRss, kSitemap, kConfig],
};

export const kBodyKinds: readonly BodyKind[] = ['html', 'json', 'xml', 'text'];
