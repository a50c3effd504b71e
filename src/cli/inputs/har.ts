import { type ArchiveBody, ArchiveFormatError } from './archive.js';

/**
 * HAR 1.2 (the HTTP Archive format browsers' developer tools export, W3C Web Performance draft):
 * one JSON document, `log.entries[]`, each with `request.{method,url}` and
 * `response.{status, content: {mimeType, text, encoding}}`. `content.text` is the body after the
 * HTTP Content-Encoding was undone (the format says so), and `encoding: "base64"` marks a text
 * that is the base64 of the bytes (binary bodies, and some exporters' every body).
 */

/** A file name that says HAR: `export.har`, or `export.har.gz`. */
export function isHarPath(path: string): boolean {
  return /\.har(?:\.gz)?$/i.test(path);
}

/**
 * True when a JSON document starts like a HAR (`{"log":`, whitespace and a byte-order mark allowed),
 * so a HAR saved as `.json` is read as one. A cheap look at the first bytes; `harBodies` decides.
 */
export function looksLikeHar(head: Uint8Array): boolean {
  const text = Buffer.from(head.subarray(0, 256)).toString('utf8');
  return /^\uFEFF?\s*\{\s*"log"\s*:\s*\{/.test(text);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/**
 * The response bodies of a HAR document, in entry order; entries without a body (`content.text`
 * absent or empty) are left out. Throws `ArchiveFormatError` for a document that is not JSON or has
 * no `log.entries` array.
 */
export function harBodies(bytes: Uint8Array): ArchiveBody[] {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ArchiveFormatError(`not a HAR file: invalid JSON (${(err as Error).message})`);
  }
  const entries = (doc as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new ArchiveFormatError('not a HAR file: no "log.entries" array');
  const out: ArchiveBody[] = [];
  for (let index = 0; index < entries.length; index++) {
    const e = entries[index] as { request?: { url?: unknown; method?: unknown }; response?: { status?: unknown; content?: { text?: unknown; encoding?: unknown; mimeType?: unknown } } } | null;
    if (e === null || typeof e !== 'object') throw new ArchiveFormatError(`not a HAR file: entry ${index} is not an object`);
    const content = e.response?.content;
    const text = content?.text;
    if (typeof text !== 'string' || text === '') continue;
    const status = e.response?.status;
    const body: ArchiveBody = {
      entry: { index, url: str(e.request?.url), method: str(e.request?.method), status: typeof status === 'number' && Number.isInteger(status) && status > 0 ? status : 0 },
      body: content?.encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8'),
    };
    const mimeType = str(content?.mimeType);
    if (mimeType !== '') body.contentType = mimeType;
    out.push(body);
  }
  return out;
}
