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
  const chars = Array.from(value);
  const keep = Math.min(policy.keep, Math.floor(chars.length / 4));
  const hidden = chars.length - keep;
  const mask = hidden > kMaxMask ? `${'*'.repeat(kMaxMask)}[+${hidden - kMaxMask}]` : '*'.repeat(hidden);
  const kept = keep === 0 ? '' : policy.fromEnd ? chars.slice(-keep).join('') : chars.slice(0, keep).join('');
  return policy.fromEnd ? mask + kept : kept + mask;
}
