import { classifyContentType } from './classify.js';

/**
 * Content types of files for the command line, which has no HTTP headers: the file extension stands
 * in for `Content-Type`, and a trailing `.gz`/`.br` for `Content-Encoding`. Unknown extensions give
 * `undefined`, so the engine sniffs the bytes rather than trusting a guess.
 */

export interface PathContentType {
  contentType: string | undefined;
  contentEncoding: string | undefined;
}

const kHtml = 'text/html';
const kJson = 'application/json';
const kNdjson = 'application/x-ndjson';
const kXml = 'application/xml';
const kText = 'text/plain';
const kJs = 'text/javascript';
const kBin = 'application/octet-stream';

const kByExtension: Readonly<Record<string, string>> = {
  // HTML
  html: kHtml, htm: kHtml, shtml: kHtml, xhtml: 'application/xhtml+xml', xht: 'application/xhtml+xml',
  // JSON (HAR is JSON; a source map and a notebook too)
  json: kJson, har: kJson, map: kJson, geojson: 'application/geo+json', jsonld: 'application/ld+json',
  webmanifest: 'application/manifest+json', ipynb: kJson, json5: kJson, jsonc: kJson,
  ndjson: kNdjson, jsonl: kNdjson,
  js: kJs, mjs: kJs, cjs: kJs, jsx: kJs,
  // XML
  xml: kXml, xsd: kXml, xsl: kXml, xslt: kXml, wsdl: kXml, rss: 'application/rss+xml', atom: 'application/atom+xml',
  svg: 'image/svg+xml', plist: kXml, csproj: kXml, resx: kXml, config: kXml, xaml: kXml, kml: 'application/vnd.google-earth.kml+xml',
  // Text: data, configuration, logs
  txt: kText, text: kText, log: kText, out: kText, csv: 'text/csv', tsv: 'text/tab-separated-values', env: kText,
  yaml: 'application/yaml', yml: 'application/yaml', toml: 'application/toml', md: 'text/markdown', markdown: 'text/markdown',
  rst: kText, adoc: kText, ini: kText, cfg: kText, conf: kText, cnf: kText, properties: kText, prefs: kText,
  tf: kText, tfvars: kText, hcl: kText, tfstate: kJson, sql: 'application/sql', graphql: 'application/graphql', gql: 'application/graphql',
  http: kText, rest: kText, eml: 'message/rfc822', mbox: 'application/mbox', diff: kText, patch: kText,
  pem: 'application/x-pem-file', crt: 'application/x-pem-file', csr: 'application/x-pem-file', pub: kText,
  htaccess: kText, htpasswd: kText, npmrc: kText, netrc: kText, pgpass: kText, gitconfig: kText, bashrc: kText, zshrc: kText, profile: kText,
  // Text: source code. `.ts` is TypeScript here, not an MPEG transport stream: this is a code scanner.
  ts: kText, tsx: kText, mts: kText, cts: kText, py: kText, rb: kText, go: kText, java: kText, kt: kText, kts: kText,
  scala: kText, groovy: kText, gradle: kText, c: kText, h: kText, cc: kText, cpp: kText, hpp: kText, cs: kText, fs: kText,
  php: kText, pl: kText, pm: kText, rs: kText, swift: kText, m: kText, lua: kText, r: kText, dart: kText, ex: kText, exs: kText,
  erl: kText, hs: kText, clj: kText, vue: kText, svelte: kText, astro: kText, css: 'text/css', scss: kText, sass: kText, less: kText,
  sh: kText, bash: kText, zsh: kText, fish: kText, ps1: kText, psm1: kText, bat: kText, cmd: kText, vb: kText, vbs: kText,
  ejs: kText, hbs: kText, mustache: kText, jinja: kText, j2: kText, tpl: kText, twig: kText, erb: kText, proto: kText,
  dockerfile: kText, makefile: kText, mk: kText, cmake: kText, gitignore: kText, dockerignore: kText, editorconfig: kText,
  // Binary: images, audio, video, fonts
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp',
  ico: 'image/vnd.microsoft.icon', tif: 'image/tiff', tiff: 'image/tiff', avif: 'image/avif', heic: 'image/heic', psd: 'image/vnd.adobe.photoshop',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', flac: 'audio/flac', m4a: 'audio/mp4', aac: 'audio/aac', opus: 'audio/opus',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska', avi: 'video/x-msvideo', mpg: 'video/mpeg', mpeg: 'video/mpeg',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject',
  // Binary: documents, archives, executables, data
  pdf: 'application/pdf', zip: 'application/zip', jar: 'application/java-archive', war: 'application/java-archive',
  apk: 'application/vnd.android.package-archive', ipa: 'application/zip', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint', odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet', epub: 'application/epub+zip',
  tar: 'application/x-tar', tgz: 'application/gzip', gz: 'application/gzip', bz2: 'application/x-bzip2', xz: 'application/x-xz',
  zst: 'application/zstd', '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar', lz: 'application/x-lzip', lzma: 'application/x-lzma',
  wasm: 'application/wasm', exe: 'application/vnd.microsoft.portable-executable', dll: 'application/vnd.microsoft.portable-executable',
  so: 'application/x-sharedlib', dylib: 'application/x-mach-binary', o: kBin, a: kBin, obj: kBin, lib: kBin, class: 'application/java-vm',
  pyc: kBin, node: kBin, bin: kBin, iso: 'application/x-iso9660-image', dmg: 'application/x-apple-diskimage', msi: 'application/x-msi',
  sqlite: 'application/vnd.sqlite3', sqlite3: 'application/vnd.sqlite3', db: 'application/vnd.sqlite3',
  parquet: 'application/vnd.apache.parquet', avro: 'application/vnd.apache.avro', pb: 'application/x-protobuf', msgpack: 'application/msgpack',
  cbor: 'application/cbor', bson: 'application/bson', p12: 'application/pkcs12', pfx: 'application/pkcs12', jks: kBin, der: 'application/pkix-cert',
  pcap: 'application/vnd.tcpdump.pcap', swf: 'application/x-shockwave-flash',
};

/** Extension-less or dot files known by their whole name. */
const kByBasename: Readonly<Record<string, string>> = {
  'dockerfile': kText,
  'makefile': kText,
  'gemfile': kText,
  'procfile': kText,
  'jenkinsfile': kText,
  'vagrantfile': kText,
  'id_rsa': 'application/x-pem-file',
  'id_dsa': 'application/x-pem-file',
  'id_ecdsa': 'application/x-pem-file',
  'id_ed25519': 'application/x-pem-file',
  'authorized_keys': kText,
  'known_hosts': kText,
  'credentials': kText,
  '.env': kText,
};

const kEncodingSuffix: Readonly<Record<string, string>> = { gz: 'gzip', br: 'br' };

function lastExtension(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  // `.bashrc`: a leading dot starts a name, not an extension; its name then decides.
  if (dot <= 0) return name.startsWith('.') && name.length > 1 ? name.slice(1) : undefined;
  return name.slice(dot + 1);
}

function typeOfName(name: string): string | undefined {
  const lower = name.toLowerCase();
  const byName = kByBasename[lower];
  if (byName !== undefined) return byName;
  // `.env.local`, `.env.production`, `app.env`.
  if (lower.startsWith('.env.') || lower === 'env') return kText;
  const ext = lastExtension(lower);
  if (ext === undefined) return undefined;
  return Object.hasOwn(kByExtension, ext) ? kByExtension[ext] : undefined;
}

/**
 * `Content-Type` (and `Content-Encoding`) a file would be served with, from its name.
 *
 * `data.json.gz` is JSON with gzip encoding. A compressed file whose inner type is binary
 * (`backup.tar.gz`, `logo.png.gz`) stays one opaque `application/gzip` body: decompressing it only
 * to skip it would waste the work.
 *
 * @example
 * contentTypeForPath('logs/app.ndjson.gz'); // { contentType: 'application/x-ndjson', contentEncoding: 'gzip' }
 * contentTypeForPath('README');             // { contentType: undefined, contentEncoding: undefined }
 */
export function contentTypeForPath(path: string): PathContentType {
  const base = path.split(/[\\/]/).pop() ?? path;
  const lower = base.toLowerCase();
  const ext = lastExtension(lower);
  const coding = ext === undefined ? undefined : kEncodingSuffix[ext];
  if (coding !== undefined && lower.lastIndexOf('.') > 0) {
    const inner = base.slice(0, base.length - ext!.length - 1);
    const innerType = typeOfName(inner);
    if (innerType !== undefined && isBinaryType(innerType)) {
      return { contentType: coding === 'gzip' ? 'application/gzip' : 'application/octet-stream', contentEncoding: undefined };
    }
    return { contentType: innerType, contentEncoding: coding };
  }
  return { contentType: typeOfName(base), contentEncoding: undefined };
}

function isBinaryType(t: string): boolean {
  return classifyContentType(t).kind === 'binary';
}
