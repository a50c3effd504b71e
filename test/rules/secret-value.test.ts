/**
 * The value gate of `generic-secret`: generated passwords of every common recipe pass, including the
 * short ones a flat entropy >= 3.5 drops; the stand-ins people write into password fields do not.
 */
import { describe, expect, it } from 'vitest';
import { credentialLike } from '../../src/rules/secrets/secret-value.js';
import { Rng } from '../../bench/prng.js';

const kUpper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const kLower = 'abcdefghijklmnopqrstuvwxyz';
const kDigits = '0123456789';

/** Share of `n` random strings of `alphabet` with a length in [min, max] that the gate accepts. */
function acceptance(seed: number, alphabet: string, min: number, max: number, n = 2000): number {
  const rng = new Rng(seed);
  let ok = 0;
  for (let i = 0; i < n; i++) if (credentialLike(rng.chars(alphabet, rng.int(min, max)))) ok++;
  return ok / n;
}

describe('credentialLike', () => {
  it('accepts generated passwords, short ones included', () => {
    // Password managers' defaults: 12-20 characters of letters, digits and symbols.
    expect(acceptance(1, kUpper + kLower + kDigits + '!#%*@^', 12, 20)).toBeGreaterThan(0.98);
    // Alphanumeric 16-24 (API secrets, client secrets).
    expect(acceptance(2, kUpper + kLower + kDigits, 16, 24)).toBeGreaterThan(0.98);
    // 32-64 hex (secret_key_base, HMAC keys): hex can never reach entropy 3.5 at 16 characters.
    expect(acceptance(3, '0123456789abcdef', 32, 64)).toBeGreaterThan(0.99);
    // Short ones, 8-11 characters with symbols: most must pass, though a few look like words.
    expect(acceptance(4, kUpper + kLower + kDigits + '!#%*@^', 8, 11)).toBeGreaterThan(0.8);
  });

  it.each(['aQj0hpS2wQ4JH', 'CJtqq1#3HVa1#5', 'b3JaJ6CEm#xP', 'Mjm1%19DPDWYg', 'oHxustuohHhabskrW', '9f86d081884c7d659a2feaa0c55ad015', 'x7#Kp2!v'])(
    'accepts %s',
    (v) => expect(credentialLike(v)).toBe(true),
  );

  it.each([
    // A word with a number or a symbol: what documentation and forms put in a password field.
    'Password123', 'Summer2024!', 'Welcome@123', 'hunter22', 'Admin@2024', 'qwerty123', 'iloveyou2',
    // The same in leetspeak.
    'P4ssw0rd!', 'Tr0ub4dor', 'S3cr3t2024',
    // Identifiers and code.
    'e.password', 'this.state.password', 'DB_PASSWORD_2', 'inputPassword3', 'PropTypes.string.isRequired',
    'readInstructions', 'XMLHttpRequest', 'passwordConfirmation', 'user_password_2', 'v1.2.3-beta4',
    'required|string|min:8|confirmed',
    // Repetitive or short-alphabet values and timestamps.
    'aaaa1111aaaa1111', 'ab12ab12', '2024-01-15T10:00:00Z', '12345678901', '********',
  ])('rejects %s', (v) => expect(credentialLike(v)).toBe(false));
});
