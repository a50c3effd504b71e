/**
 * Redaction is data, applied at one choke point: the engine turns every matched value into a
 * `Finding` through `redact()` and keeps nothing else of it, so no sink (stdout, report files, SARIF,
 * stored events, the audit log) can ever see a raw value.
 */
export type RedactionPolicy =
  | { kind: 'mask'; keep: number; fromEnd: boolean }
  | { kind: 'replace'; with: string };

/** Keep at most 4 characters, from the end (the part people recognise: `…1111`). */
export const kDefaultRedaction: RedactionPolicy = { kind: 'mask', keep: 4, fromEnd: true };

/** Longest run of mask characters shown; longer values say how many characters were hidden. */
const kMaxMask = 16;

/**
 * Masks `value`. Short values keep fewer characters (a quarter of their length, at most `keep`), so a
 * short secret is never mostly visible.
 * @example redact('4111 1111 1111 1111') // '***************1111'
 */
export function redact(value: string, policy: RedactionPolicy = kDefaultRedaction): string {
  if (policy.kind === 'replace') return policy.with;
  // Lengths count characters (code points): a pair of surrogates is one, and is kept or hidden whole.
  // Without pairs (nearly every value) units are characters, and no array of them is made.
  const chars = hasSurrogatePair(value) ? Array.from(value) : null;
  const length = chars === null ? value.length : chars.length;
  const keep = Math.min(policy.keep, Math.floor(length / 4));
  const hidden = length - keep;
  const mask = hidden > kMaxMask ? `${kMasks[kMaxMask]}[+${hidden - kMaxMask}]` : kMasks[hidden]!;
  const from = policy.fromEnd ? length - keep : 0;
  const to = policy.fromEnd ? length : keep;
  const kept = chars === null ? value.slice(from, to) : chars.slice(from, to).join('');
  return policy.fromEnd ? mask + kept : kept + mask;
}

/** The masks of 0 to kMaxMask characters, made once (every finding of a scan takes one). */
const kMasks = Array.from({ length: kMaxMask + 1 }, (_, n) => '*'.repeat(n));

/**
 * A high surrogate followed by a low one (a lone half is one character), as code units (no `u` flag).
 * A regex, not a loop over the units: V8's compiled scan is several times faster on the short values
 * every finding redacts.
 */
const kSurrogatePair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

function hasSurrogatePair(value: string): boolean {
  return kSurrogatePair.test(value);
}

/**
 * `text` with every range (UTF-16 indices, end exclusive) replaced by the masked value it covers;
 * overlapping or touching ranges are masked as one. `shown(start, end)` gives the value the mask is
 * made of, when it differs from the text (a percent-encoded path is masked as its decoded value).
 * @example maskRanges('/acct/4111111111111111/x', [[6, 22]]) // '/acct/************1111/x'
 */
export function maskRanges(
  text: string,
  ranges: ReadonlyArray<readonly [number, number]>,
  shown: (start: number, end: number) => string = (s, e) => text.slice(s, e),
  policy: RedactionPolicy = kDefaultRedaction,
): string {
  const sorted = ranges.filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]![0];
    let end = sorted[i]![1];
    for (i++; i < sorted.length && sorted[i]![0] <= end; i++) end = Math.max(end, sorted[i]![1]);
    out += text.slice(at, start) + redact(shown(start, end), policy);
    at = end;
  }
  return out + text.slice(at);
}

/**
 * `text` with every occurrence of each of `values` masked (secrets the caller holds, such as a
 * password that an error message may quote): found here, masked by `maskRanges`. Empty values are
 * ignored. Shown as `***` by default, so not even the last characters of a password are printed.
 * @example maskKnown('auth failed for pw s3cr3t', ['s3cr3t']) // 'auth failed for pw ***'
 */
export function maskKnown(
  text: string,
  values: readonly string[],
  policy: RedactionPolicy = { kind: 'replace', with: '***' },
): string {
  const ranges: Array<[number, number]> = [];
  for (const v of values) {
    if (v.length === 0) continue;
    for (let at = text.indexOf(v); at !== -1; at = text.indexOf(v, at + 1)) ranges.push([at, at + v.length]);
  }
  return ranges.length === 0 ? text : maskRanges(text, ranges, undefined, policy);
}
