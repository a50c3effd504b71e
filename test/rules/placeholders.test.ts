import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlaceholder, knownSampleValues, repeatsCharacter, typedAcrossClasses } from '../../src/rules/placeholders.js';

describe('knownSampleValues', () => {
  it.each([
    'AKIAIOSFODNN7EXAMPLE',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
    // Prefixed values are split so that secret scanners do not flag this file.
    'sk_test_' + 'BQokikJOvBiI2HlWgH4olfQ2',
    // The Firebase Android SDK's own test key (firebase/firebase-android-sdk, firebase-common tests).
    'AIzaSy' + 'D3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
    // Its other committed test keys (firebase-storage, -perf, -messaging and -dataconnect).
    'AIzaSy' + 'CkEhVjf3pduRDt6d1yKOMitrUEke8agEM',
    'AIzaSy' + 'DMAScliyLx7F0NPDEJi1QmyCgHIAODrlU',
    'AIzaSy' + 'BcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw',
    'AIzaSy' + 'BF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
    'AIzaSy' + 'DSb51JiIcB6OJpwwMicseKRhhrOq1cS7g',
    'AIzaSy' + 'B8qGxt4ec15vitgn44duC5ucxaOi4FmqE',
    'AIzay' + 'DNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  ])('suppresses the published sample %s', (v) => {
    expect(knownSampleValues.has(v)).toBe(true);
    expect(isPlaceholder(v)).toBe(true);
  });

  it('compares exactly: a sample with one character changed is not suppressed by the list', () => {
    // The Azurite key with its first character changed; nothing else in it looks like a placeholder.
    const changed = 'Fby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
    expect(knownSampleValues.has(changed)).toBe(false);
    expect(isPlaceholder(changed)).toBe(false);
  });
});

describe('isPlaceholder', () => {
  it.each([
    // Template and variable syntaxes.
    '${AWS_SECRET_ACCESS_KEY}',
    '${{ secrets.NPM_TOKEN }}',
    '{{ .Values.apiKey }}',
    '$(cat /run/secrets/token)',
    '#{api_key}',
    '%API_KEY%',
    '<your-api-key>',
    '<API_TOKEN>',
    '@TOKEN@',
    '__SLACK_TOKEN__',
    'Bearer $TOKEN',
    '%s',
    '{0}',
    // Placeholder words and masks.
    'sk_live_' + 'EXAMPLEKEY1234567890abcd',
    'dummy-token-9f8e7d',
    'your_api_key_here',
    'YOUR-SECRET',
    'replace_me_later_42',
    'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'pass****word',
    'sk-ant-api03-....',
    '••••••••',
    '[FILTERED]',
    '<redacted>',
    // Keyboard and alphabet runs.
    'AKIA0123456789ABCDEF',
    'abcdefghijklmnopqrstuvwxyz012345',
    'qwertyuiop1234',
    // Runs typed across character classes: the Firebase JS SDK's documented example apiKey
    // (FirebaseOptions.apiKey, "example value"), and runs of digits or letters between others.
    'AIzaSyDOCAbC123dEf456GhI789jKl012-MnO',
    'tok_a1B2c3D4e5F6g7H8i9J0',
    'Zx1q2w3e4r5t6y7u8i9o',
    // "…here" placeholders.
    'MyAppAccessTokenHere',
    'PASTE_SECRET_GOES_HERE',
    // A unit of 1 to 4 characters repeated to the end.
    'sk_live_aaaaaaaaaaaaaaaaaaaaaaaa',
    'xoxb-0000000000000000',
    'token-abababababababab',
    'key_1234123412341234',
  ])('suppresses %s', (v) => {
    expect(isPlaceholder(v)).toBe(true);
  });

  it.each([
    'Q7vJm2xR9pL4sT8wK3nB6hY1cF5dG0aZ',
    'ghp_' + 'Zt4mQ8rX2vL9pK6sN3wB7yH1cF5dG0aJ2kR4',
    'c2b6f1e9a47d3085',
    // Periodic over only the last 12 of the last 16 characters: the check wants the whole tail.
    'k9Q7vJabababababab',
    // Short values are not judged by their tail.
    'abab',
  ])('keeps %s', (v) => {
    expect(isPlaceholder(v)).toBe(false);
  });

  it('does not suppress random hex or base64 tokens, whose digits or letters alone are long (fixed seed)', () => {
    const hex = '0123456789abcdef'.split('');
    const b64 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/'.split('');
    fc.assert(fc.property(fc.array(fc.constantFrom(...hex), { minLength: 32, maxLength: 128 }), (chars) => !isPlaceholder(chars.join(''))), { seed: 20260102, numRuns: 2000 });
    fc.assert(fc.property(fc.array(fc.constantFrom(...b64), { minLength: 200, maxLength: 1600 }), (chars) => !isPlaceholder(chars.join(''))), { seed: 20260103, numRuns: 500 });
  });

  it('does not suppress random base62 tokens (fixed seed, 2000 cases)', () => {
    const alnum = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.split('');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alnum), { minLength: 20, maxLength: 64 }), (chars) => !isPlaceholder(chars.join(''))),
      { seed: 20260101, numRuns: 2000 },
    );
  });
});

describe('runs typed across character classes', () => {
  // The definition, as regular expressions over copies: the one-pass check must answer the same.
  const oracle = (v: string) => /abcdefghi/i.test(v.replace(/[^A-Za-z]+/g, '')) || /012345678|123456789/.test(v.replace(/[^0-9]+/g, ''));
  const unit = fc.constantFrom(...'abcdefghijABCDEFGHIJxyz0123456789-_.é'.split(''));
  it('agrees with the definition on strings made of run pieces', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (chars) => {
        const v = chars.join('');
        expect(typedAcrossClasses(v)).toBe(oracle(v));
      }),
      { numRuns: 5000 },
    );
  });
  it.each(['AbC123dEf456GhI789', 'a-b-c-d-e-f-g-h-i', 'x0y1z2a3b4c5d6e7f8'])('%s is a placeholder', (v) => expect(isPlaceholder(v)).toBe(true));
});

describe('a character repeated in a row', () => {
  // The definition is the regex the one-pass check replaced.
  const oracle = (v: string) => /([^\s])\1{5}/u.test(v);
  const unit = fc.constantFrom('A', 'A', 'A', 'b', 'x', ' ', '\t', '\n', '\u00a0', '\u3000', '😀', '\ud83d', '\ude00', '=');
  it('agrees with the backreference regex on strings of repeats, spaces and surrogates', () => {
    let hits = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, fc.integer({ min: 1, max: 8 })), { maxLength: 12 }), (runs) => {
        const v = runs.map(([u, n]) => u.repeat(n)).join('');
        if (oracle(v)) hits++;
        expect(repeatsCharacter(v, 6)).toBe(oracle(v));
      }),
      { numRuns: 5000, seed: 20261129 },
    );
    expect(hits).toBeGreaterThan(100);
  });
  it.each([['A'.repeat(20), true], ['A'.repeat(19), false], [' '.repeat(30), false], ['😀'.repeat(20), true], [`${'\ud83d'.repeat(20)}`, true]])('%j', (v, found) => {
    expect(repeatsCharacter(v, 20)).toBe(found);
  });
  it('takes one character as a run of one, as the regex with no repeat does', () => {
    expect(repeatsCharacter('x', 1)).toBe(/([^\s])\1{0}/u.test('x'));
    expect(repeatsCharacter(' ', 1)).toBe(false);
  });
});

describe('isPlaceholder asks one regex before its tests', () => {
  // The tests as they read without the shared first scan: each regex over the whole value, in turn.
  const oracle = (v: string): boolean =>
    knownSampleValues.has(v) ||
    /\$\{[^}]*\}|\{\{[^}]*\}\}|\$\([^)]*\)|#\{[^}]*\}|%[A-Z_]+%|<[A-Za-z][A-Za-z0-9 _.-]*>|@[A-Z_]+@|__[A-Z][A-Z0-9_]*__|\$[A-Z_][A-Z0-9_]*$|^%[sdvq]$|^\{[0-9]\}$/.test(v) ||
    /example|sample|dummy|placeholder|changeme|replace[_-]?me|insert[_-]?(?:your|key|token)|your[_-]?(?:own[_-]?)?(?:api[_-]?|access[_-]?|secret[_-]?|auth[_-]?)?(?:key|token|secret|password)|redacted|\[filtered\]|xxxx|\*\*\*\*|\.\.\.\.|\u2022\u2022\u2022|####|0123456789|1234567890|abcdefghijkl|qwertyuiop/i.test(v) ||
    /(?:key|token|secret|password|string)[_-]?(?:goes[_-]?)?here/i.test(v) ||
    /abcdefghi/i.test(v.replace(/[^A-Za-z]+/g, '')) ||
    /012345678|123456789/.test(v.replace(/[^0-9]+/g, '')) ||
    periodic(v.slice(-16));
  // The tail rule exactly: at least 8 characters, all of them a unit of 1-4 repeated (a partial last unit allowed).
  function periodic(tail: string): boolean {
    if (tail.length < 8) return false;
    for (let unit = 1; unit <= 4 && tail.length >= unit * 3; unit++) if ([...tail].every((_, i) => i < unit || tail[i] === tail[i - unit])) return true;
    return false;
  }
  // Pieces of every test's matches, their case changed, among random characters and templates' openers.
  const piece = fc.constantFrom(
    'exam', 'ple', 'SAMPLE', 'Dummy', 'here', 'Key', '_', '-', 'goes', 'token', 'your', 'own', 'api', 'xx', 'XX', '**', '..', '\u2022', '##',
    '0123', '4567', '89', 'abcd', 'efgh', 'ijkl', 'qwer', 'tyuiop', '${', '}', '{{', '}}', '$(', ')', '#{', '%', 'A_Z', '<', '>', 'a b', '@', '__', 'B', '$X',
    'r', 'Q', '7', 'z', '9', 'é', '😀', 'AKIAIOSFODNN7EXAMPLE',
  );
  it('answers as every test asked in turn, on values pieced from what they look for', () => {
    let yes = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const v = parts.join('');
        if (oracle(v)) yes++;
        expect(isPlaceholder(v)).toBe(oracle(v));
      }),
      { numRuns: 20000, seed: 20261129 },
    );
    expect(yes).toBeGreaterThan(2000);
  });
  it('still drops published samples and short repeats', () => {
    for (const v of knownSampleValues) expect(isPlaceholder(v)).toBe(true);
    expect(isPlaceholder('sk_live_abababababababab')).toBe(true);
    expect(isPlaceholder('sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toBe(false);
  });
});
