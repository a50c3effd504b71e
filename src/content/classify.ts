import { parseMediaType } from './media-type.js';

/** What a body is, as far as scanning cares. */
export type ContentKind = 'text' | 'html' | 'json' | 'xml' | 'binary';

export interface ContentInfo {
  /** Lower-cased `type/subtype`, `''` when the header is absent or malformed. */
  mediaType: string;
  /** `unknown` = absent or malformed header, or a type we have no opinion on: sniff the body. */
  kind: ContentKind | 'unknown';
  /** The `charset` parameter, lower-cased and unquoted. */
  charset: string | undefined;
  /** Set for binary kinds: why the body is not scanned. */
  skipReason?: string;
}

const kHtml = new Set(['text/html', 'application/xhtml+xml', 'application/vnd.wap.xhtml+xml']);

/**
 * JavaScript is classified as `json`: JS string literals use JSON's backslash escapes (`\u0040`,
 * `\/`, `\n`), and secrets in bundles and JSONP responses hide behind exactly those escapes, so the
 * escape-aware JSON path finds more than plain text would. The JSON path never requires a body to
 * parse (bodies are cut at 1 MB anyway), so non-JSON syntax around the strings is harmless.
 */
const kJson = new Set([
  'application/json',
  'text/json',
  'application/x-json',
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/json-seq',
  'application/jsonp',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/javascript',
  'text/ecmascript',
  'text/x-javascript',
  'text/jscript',
  'application/graphql-response+json',
]);

const kXml = new Set(['application/xml', 'text/xml', 'application/xml-dtd', 'application/xml-external-parsed-entity', 'text/xsl', 'application/rss', 'application/rdf']);

/** Non-`text/*` types that are text. */
const kText = new Set([
  'application/x-www-form-urlencoded',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-toml',
  'application/csv',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/x-csh',
  'application/x-httpd-php',
  'application/x-perl',
  'application/x-python',
  'application/x-ruby',
  'application/x-pem-file',
  'application/pem-certificate-chain',
  'application/x-x509-ca-cert+pem',
  'application/jwt',
  'application/jose',
  'application/x-env',
  'application/rtf',
  'application/x-tex',
  'application/x-latex',
  'application/mbox',
  'application/http',
  'application/dns-message+text',
  'message/rfc822',
  'message/http',
  'message/global',
]);

const kBinaryTopLevel = new Set(['image', 'audio', 'video', 'font', 'model']);

/** Known binary `application/*` (and a few other) types. */
const kBinary = new Set([
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-gtar',
  'application/x-bzip',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-lzip',
  'application/x-lzma',
  'application/x-compress',
  'application/brotli',
  'application/wasm',
  'application/protobuf',
  'application/x-protobuf',
  'application/x-google-protobuf',
  'application/vnd.google.protobuf',
  'application/grpc',
  'application/grpc+proto',
  'application/msgpack',
  'application/x-msgpack',
  'application/vnd.msgpack',
  'application/cbor',
  'application/cbor-seq',
  'application/bson',
  'application/x-bson',
  'application/vnd.apache.avro',
  'application/avro',
  'application/vnd.apache.parquet',
  'application/vnd.apache.thrift.binary',
  'application/x-thrift',
  'application/vnd.capnproto',
  'application/x-flatbuffers',
  'application/java-archive',
  'application/java-vm',
  'application/x-java-class',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/x-msdownload',
  'application/x-ms-installer',
  'application/x-msi',
  'application/vnd.microsoft.portable-executable',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/x-shockwave-flash',
  'application/x-sqlite3',
  'application/vnd.sqlite3',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.ms-fontobject',
  'application/x-font-ttf',
  'application/x-font-otf',
  'application/x-font-woff',
  'application/font-woff',
  'application/font-woff2',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/epub+zip',
  'application/ogg',
  'application/mp4',
  'application/vnd.ms-cab-compressed',
  'application/x-iso9660-image',
  'application/pkcs12',
  'application/x-pkcs12',
  'application/pkix-cert',
  'application/pkix-crl',
  'application/pkcs7-mime',
  'application/x-x509-ca-cert',
  'application/vnd.tcpdump.pcap',
  'application/dicom',
]);

/** Structured-syntax suffixes (RFC 6839 and the IANA registry) that are binary encodings. */
const kBinarySuffixes = new Set(['zip', 'gzip', 'cbor', 'cbor-seq', 'der', 'ber', 'wbxml', 'zstd', 'msgpack', 'proto', 'protobuf', 'avro', 'sqlite3', 'tlv']);

function binary(mediaType: string, charset: string | undefined): ContentInfo {
  return { mediaType, kind: 'binary', charset, skipReason: `binary media type ${mediaType} is not scanned` };
}

/**
 * Classifies a `Content-Type` header value into the kind of scanning it gets.
 *
 * Absent or malformed headers, and types with no known text or binary meaning (an unregistered
 * `application/x-foo`), give `unknown`: the caller sniffs the body head with `sniffKind`. Only types
 * known to be binary are skipped, so a mislabelled text body is not lost.
 *
 * @example
 * classifyContentType('Application/JSON; charset="UTF-8"');
 * // { mediaType: 'application/json', kind: 'json', charset: 'utf-8' }
 * classifyContentType('image/png').skipReason; // 'binary media type image/png is not scanned'
 */
export function classifyContentType(contentType: string | undefined): ContentInfo {
  if (contentType === undefined) return kAbsent;
  let info = kClassified.get(contentType);
  if (info === undefined) {
    // Traffic repeats a handful of header values; the bound keeps a stream of distinct ones (hostile or
    // not) from growing it.
    if (kClassified.size >= kClassifiedMax) kClassified.clear();
    info = Object.freeze(classify(contentType));
    kClassified.set(contentType, info);
  }
  return info;
}

const kAbsent: ContentInfo = Object.freeze({ mediaType: '', kind: 'unknown', charset: undefined });

/**
 * Header values already classified (the results are frozen, so callers share them): parsing the header
 * was about 4% of scanning a 2 KB body.
 */
const kClassified = new Map<string, ContentInfo>();
const kClassifiedMax = 256;

function classify(contentType: string): ContentInfo {
  const mt = parseMediaType(contentType);
  if (mt === null) return { mediaType: '', kind: 'unknown', charset: undefined };
  const { type, subtype, essence } = mt;
  const rawCharset = mt.params.get('charset');
  const charset = rawCharset === undefined || rawCharset.trim() === '' ? undefined : rawCharset.trim().toLowerCase();
  const info = (kind: ContentKind | 'unknown'): ContentInfo => ({ mediaType: essence, kind, charset });

  if (kHtml.has(essence)) return info('html');
  if (kJson.has(essence)) return info('json');
  if (kXml.has(essence)) return info('xml');
  if (kText.has(essence)) return info('text');
  if (kBinary.has(essence)) return binary(essence, charset);

  // Structured syntax suffix: `application/problem+json`, `image/svg+xml`, `application/epub+zip`.
  const plus = subtype.lastIndexOf('+');
  if (plus >= 0) {
    const suffix = subtype.slice(plus + 1);
    if (suffix === 'json' || suffix === 'json-seq' || suffix === 'jsonl' || suffix === 'ndjson') return info('json');
    // `image/svg+xml` is XML text despite its `image/` type; the suffix is what says how it is encoded.
    if (suffix === 'xml') return info('xml');
    if (suffix === 'yaml' || suffix === 'toml' || suffix === 'jwt' || suffix === 'text') return info('text');
    if (kBinarySuffixes.has(suffix)) return binary(essence, charset);
  }

  if (type === 'text') return info('text');
  // `multipart/*` is left to sniffing: its parts may be files of any kind (`multipart/byteranges`).
  if (kBinaryTopLevel.has(type)) return binary(essence, charset);
  // Vendor Office/OpenXML formats are ZIP or OLE containers.
  if (essence.startsWith('application/vnd.openxmlformats-') || essence.startsWith('application/vnd.ms-')) {
    return binary(essence, charset);
  }
  // An unfamiliar type that declares a charset is text by its own account (RFC 2046 §4.1.2).
  if (charset !== undefined) return info('text');
  return info('unknown');
}
