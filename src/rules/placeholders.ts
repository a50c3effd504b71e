/**
 * Placeholder and published-sample suppression, shared by every rule that opts in (all `secrets` rules
 * by default). gitleaks' global allowlist and Macie's "never report AWS's documented fictitious keys"
 * are the models: a value that is a template variable, a run of one character, or a key printed in
 * vendor documentation is not a leak.
 */

/** Published documentation sample values (vendors' docs), compared exactly. */
export const knownSampleValues: ReadonlySet<string> = new Set<string>([
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AKIAI44QH8DHBEXAMPLE',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
]);

const kTemplate = /\$\{[^}]*\}|\{\{[^}]*\}\}|\$\([^)]*\)|%[A-Z_]+%|<[a-z_-]+>|@[A-Z_]+@|\$[A-Z_][A-Z0-9_]*$/;
const kWords = /example|sample|dummy|placeholder|changeme|your[_-]?(?:api[_-]?)?(?:key|token|secret)|redacted|xxxx|\*\*\*\*|\.\.\.\./i;

/** True when `value` looks like a placeholder rather than a real credential. */
export function isPlaceholder(value: string): boolean {
  if (knownSampleValues.has(value)) return true;
  if (kTemplate.test(value)) return true;
  if (kWords.test(value)) return true;
  // One repeated character (after any fixed prefix like `sk_live_`): aaaa…, 0000…
  const tail = value.slice(-Math.min(value.length, 16));
  if (tail.length >= 8 && /^(.)\1+$/su.test(tail)) return true;
  return false;
}
