/**
 * Content handling: what a body is (from `Content-Type`, a file name, or its first bytes), how its
 * characters are encoded, and which `Content-Encoding` layers wrap it.
 */
export { classifyContentType } from './classify.js';
export type { ContentInfo, ContentKind } from './classify.js';
export { parseMediaType } from './media-type.js';
export type { MediaType } from './media-type.js';
export { sniffKind, looksLikeJsonPrefix, kSniffBytes } from './sniff.js';
export { normalizeCharset } from './charset.js';
export type { CharsetInfo } from './charset.js';
export { parseContentEncoding, kMaxCodings } from './content-encoding.js';
export type { ContentCoding, ContentEncodingInfo } from './content-encoding.js';
export { contentTypeForPath } from './extensions.js';
export type { PathContentType } from './extensions.js';
