/**
 * Placeholder and published-sample suppression, shared by every rule that opts in (all `secrets` rules
 * by default). gitleaks' global allowlist and Macie's "never report AWS's documented fictitious keys"
 * are the models: a value that is a template variable, a run of one character, or a key printed in
 * vendor documentation is not a leak.
 *
 * Everything here looks at the value alone, so it must stay cheap and must not reject random strings:
 * each word below is long or rare enough that a random base62 token of 40 characters contains it with
 * a probability well under 1e-4.
 */

/**
 * Published documentation sample values (vendors' docs), compared exactly. Only values printed by the
 * vendor (or the format's reference site) as samples belong here; never a key seen leaked elsewhere.
 */
export const knownSampleValues: ReadonlySet<string> = new Set<string>([
  // AWS IAM documentation's fictitious access key pairs.
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'AKIAI44QH8DHBEXAMPLE',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  // The well-known account key of the Azure Storage Emulator and Azurite (devstoreaccount1), printed in
  // Microsoft's Azurite documentation; it only opens local emulators.
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
  // Stripe API reference sample test-mode keys ("A sample test API key is included in all the examples").
  // Prefixed samples are written in two pieces so that code-host secret scanners do not flag this file.
  'sk_test_' + 'BQokikJOvBiI2HlWgH4olfQ2',
  'sk_test_' + '4eC39HqLyjWDarjtT1zdp7dc',
  // The test API key of Google's own Firebase Android SDK (firebase/firebase-android-sdk:
  // firebase-common/src/androidTest/java/com/google/firebase/FirebaseAppTest.java and
  // FirebaseOptionsTest.java, firebase-common/src/androidTest/res/values/strings.xml), copied into
  // sample apps with the SDK's tests. The SDK's other test key there (AIzaSy + the alphabet, in
  // firebase-appdistribution's tests) is an alphabet run, which isPlaceholder drops already.
  'AIzaSy' + 'D3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  // The SDK's other committed test keys (same repository), grouped by file. firebase-storage tests:
  // src/test/java/com/google/firebase/storage/TestUtil.java, then
  // src/androidTest/java/com/google/firebase/storage/integration/IntegrationTest.java.
  'AIzaSy' + 'CkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
  'AIzaSy' + 'DMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
  // firebase-perf/src/test/java/com/google/firebase/perf/FirebasePerformanceTestBase.java.
  'AIzaSy' + 'BcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
  // firebase-messaging/src/test/java/com/google/firebase/messaging/testing/: FirebaseIidTestUtil.java
  // and FirebaseIidRoboTestHelper.java, then MessagingTestHelper.java.
  'AIzaSy' + 'BF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
  'AIzaSy' + 'DSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
  // firebase-dataconnect/google-services.json, then firebase-dataconnect/demo/google-services.json.
  'AIzaSy' + 'B8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
  'AIzay' + 'DNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
  // jwt.io's introductory token (HS256 over "your-256-bit-secret"), copied into countless pages.
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/**
 * Template and variable syntaxes (gitleaks' global allowlist): `${VAR}`, `${{ secrets.X }}`,
 * `{{ var }}`, `$(cmd)`, `%VAR%`, `<your-token>`, `@VAR@`, `#{var}`, `__VAR__`, a trailing `$VAR`,
 * printf verbs and `{0}` format slots.
 */
const kTemplate =
  /\$\{[^}]*\}|\{\{[^}]*\}\}|\$\([^)]*\)|#\{[^}]*\}|%[A-Z_]+%|<[A-Za-z][A-Za-z0-9 _.-]*>|@[A-Z_]+@|__[A-Z][A-Z0-9_]*__|\$[A-Z_][A-Z0-9_]*$|^%[sdvq]$|^\{[0-9]\}$/;

/**
 * Where each alternative of `kTemplate` can begin, cut short after its opening characters: it matches
 * wherever `kTemplate` does (test/rules/placeholders.test.ts), and costs `kSuspect` less than the whole.
 */
const kTemplateOpeners = String.raw`\$[{(A-Z_]|\{\{|#\{|%[A-Z_]+%|<[A-Za-z][A-Za-z0-9 _.-]*>|@[A-Z_]+@|__[A-Z]|^%[sdvq]$|^\{[0-9]\}$`;

/**
 * Words that only placeholders contain, masks (`****`, `••••`, `####`), and keyboard or alphabet runs
 * (`0123456789`, `abcdefghijkl`, `qwertyuiop`) that people type instead of a key.
 */
const kWords =
  /example|sample|dummy|placeholder|changeme|replace[_-]?me|insert[_-]?(?:your|key|token)|your[_-]?(?:own[_-]?)?(?:api[_-]?|access[_-]?|secret[_-]?|auth[_-]?)?(?:key|token|secret|password)|redacted|\[filtered\]|xxxx|\*\*\*\*|\.\.\.\.|\u2022\u2022\u2022|####|0123456789|1234567890|abcdefghijkl|qwertyuiop/i;

/**
 * `key_here`, `token-goes-here`: asked only of values holding `here`, since alternatives that start
 * with common letters made `kWords` twice as slow on every real value.
 */
const kGoesHere = /(?:key|token|secret|password|string)[_-]?(?:goes[_-]?)?here/i;
const kHere = /here/i;

/** Where a run of `typedAcrossClasses` must pass: other letters (or other digits) may stand between. */
const kRunStart = /[aA][^A-Za-z]*[bB][^A-Za-z]*[cC][^A-Za-z]*[dD]|1[^0-9]*2[^0-9]*3[^0-9]*4/;

/**
 * Runs typed across character classes, as documentation samples write them (`AbC123dEf456GhI789`):
 * the letters alone hold an alphabet run, or the digits alone a counting run. A random value's
 * letters or digits hold such a run with a probability far below 1e-8.
 */
export function typedAcrossClasses(value: string): boolean {
  // Either run holds `a, b, c, d` among the letters or `1, 2, 3, 4` among the digits: a value without
  // them (nearly every real one) is answered by one compiled regex instead of the loop below.
  if (!kRunStart.test(value)) return false;
  // One pass, no copies: the length of the current `a, b, c…` run among the letters (case folded,
  // other characters skipped) and of the `0, 1, 2…` or `1, 2, 3…` run among the digits.
  let letters = 0;
  let prevLetter = -2;
  let digits = 0;
  let prevDigit = -2;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const l = c | 32;
    if (l >= 97 && l <= 122 && (c <= 90 || c >= 97)) {
      letters = letters > 0 && l === prevLetter + 1 ? letters + 1 : l === 97 ? 1 : 0;
      prevLetter = l;
      if (letters >= 9) return true;
    } else if (c >= 48 && c <= 57) {
      const d = c - 48;
      digits = digits > 0 && d === prevDigit + 1 ? digits + 1 : d <= 1 ? 1 : 0;
      prevDigit = d;
      if (digits >= 9) return true;
    }
  }
  return false;
}

/**
 * A character other than a space repeated `times` times in a row, as `/([^\s])\1{times-1}/u` finds it
 * (code points, JavaScript's spaces), in one pass: the backreference tried its repeat at every
 * character, several microseconds on a key's kilobyte of base64.
 */
export function repeatsCharacter(text: string, times: number): boolean {
  let prev = -1;
  let run = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === prev) {
      if (++run >= times) return true;
    } else {
      prev = isSpace(cp) ? -1 : cp;
      run = 1;
      if (prev !== -1 && times <= 1) return true;
    }
  }
  return false;
}

/** `\s` of a JavaScript regex: ASCII's by code, the rest (rare in a value) by the regex itself. */
function isSpace(cp: number): boolean {
  if (cp < 128) return cp === 32 || (cp >= 9 && cp <= 13);
  return kSpace.test(String.fromCodePoint(cp));
}
const kSpace = /^\s$/u;

/**
 * What each regex test below must find in a value for it to answer yes, as one case-insensitive
 * alternation (case folded, it matches wherever one of them does): nearly no real value holds any, and
 * one scan costs about half of the four it spares.
 */
const kSuspect = new RegExp([kWords.source, kHere.source, kRunStart.source, kTemplateOpeners].join('|'), 'i');

/** The lengths of the published samples: a value of another length is not one (no hash of it taken). */
const kSampleLengths: ReadonlySet<number> = new Set([...knownSampleValues].map((v) => v.length));

/** True when `value` looks like a placeholder rather than a real credential. */
export function isPlaceholder(value: string): boolean {
  if (kSampleLengths.has(value.length) && knownSampleValues.has(value)) return true;
  if (kSuspect.test(value) && suspectPlaceholder(value)) return true;
  return periodicTail(value);
}

/** The tests that need `kSuspect` to match first (templates, words, `…here`, typed runs). */
function suspectPlaceholder(value: string): boolean {
  if (kTemplate.test(value)) return true;
  if (kWords.test(value)) return true;
  if (kHere.test(value) && kGoesHere.test(value)) return true;
  return typedAcrossClasses(value);
}

/**
 * A short unit repeated to the end (after any fixed prefix like `sk_live_`): aaaa…, 0000…, abab…,
 * 1234 1234…. Checked on the last 16 characters, where a real token is random.
 */
function periodicTail(value: string): boolean {
  const tail = value.slice(-Math.min(value.length, 16));
  if (tail.length >= 8) {
    for (let unit = 1; unit <= 4; unit++) {
      if (tail.length < unit * 3) break;
      let periodic = true;
      for (let i = unit; i < tail.length && periodic; i++) periodic = tail.charCodeAt(i) === tail.charCodeAt(i - unit);
      if (periodic) return true;
    }
  }
  return false;
}
