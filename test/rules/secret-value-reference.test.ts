import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { credentialLike } from '../../src/rules/secrets/secret-value.js';
import { shannonEntropy } from '../../src/validators/entropy.js';

/*
 * The value gate written the plain way, with a regex per character and string pieces (the form it
 * had before it was rewritten over character codes for speed). The two must agree on every value.
 */
function referenceCredentialLike(v: string): boolean {
  const letters = /[A-Za-z]/.test(v);
  const wordy = dictionaryLike(v) || dictionaryLike(unleet(v));
  const floor = Math.min(/^[0-9a-f]+$/i.test(v) ? 3 : 3.5, Math.log2(v.length) - 0.7);
  const symbols = /[0-9!#$%*+?@^~|=]/.test(v);
  const randomCase = v.length >= 12 && /[A-Z]/.test(v) && /[a-z]/.test(v) && caseSwitches(v) * 4 >= v.length;
  return letters && !wordy && shannonEntropy(v) >= floor && (symbols || randomCase);
}

function unleet(value: string): string {
  const isLetter = (c: string) => /[A-Za-z]/.test(c);
  const isDigit = (c: string) => /[0-9]/.test(c);
  let out = '';
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charAt(i);
    const prev = value.charAt(i - 1);
    const next = value.charAt(i + 1);
    const sub = kLeet[c];
    if (sub !== undefined && !isDigit(prev) && !isDigit(next) && (isLetter(prev) || isLetter(next))) {
      out += sub;
      n++;
    } else {
      out += c;
    }
  }
  return n > 3 || n * 4 > value.length ? value : out;
}
const kLeet: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

function pieces(value: string): string[] {
  return value.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
}

const kEnglishPairs: ReadonlySet<string> = new Set(
  'aabcdfgijklmnprstuvwxyz babcdeghijloprstuy cabcdefhiklmoprstuy dabcdefgilmnoprstuvy eabcdefghijlmnopqrstuvwxy facdefilorstuy gaceghilnoprstuy haceimorstuy iabcdefgklmnoprstvxz jaeoqsu kacdefinprs labcdehiklmnoprstuvy mabdegijlmnopsuvy nacdefgijklmnoprstuvy oabcdefgijklmnoprstuvwxyz pacdeghilmoprstuvy quw rabcdefgiklmnoprstuvwy sabcdefghiklmnoprstuvwy tabcdefghilmnoprstuwy uabcdefgilmnprst vaegiou wadehinorsw xaceipty yabcdeilmnoprst zaeioz'
    .split(' ')
    .flatMap((row) => [...row.slice(1)].map((second) => row.charAt(0) + second)),
);

function wordLetters(p: string, hasLower: boolean): boolean {
  if (hasLower && p === p.toUpperCase()) return false;
  const l = p.toLowerCase();
  if (!/[aeiouy]/.test(l)) return false;
  for (let i = 1; i < l.length; i++) if (!kEnglishPairs.has(l.slice(i - 1, i + 1))) return false;
  return true;
}

function dictionaryLike(value: string): boolean {
  const hasLower = /[a-z]/.test(value);
  const all = pieces(value);
  if (all.some((p) => /^[0-9]{5,}$/.test(p))) return false;
  const named = all.filter((p) => !/^[0-9]/.test(p));
  const letters = named.reduce((n, p) => n + p.length, 0);
  const words = named.filter((p) => p.length >= 4 && wordLetters(p, hasLower)).reduce((n, p) => n + p.length, 0);
  return words * 3 > letters * 2;
}

/** Places where a letter follows one of the other case, found by a lookahead. */
function caseSwitches(value: string): number {
  return (value.match(/(?=[A-Z][a-z]|[a-z][A-Z])/g) ?? []).length;
}

describe('credentialLike against its plain formulation', () => {
  const alphabet = 'aeiouyAEIOUYbcdfghjklmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ0123456789013457@$!#%*+?^~|=_.-: /é€😀';
  const value = fc.array(fc.constantFrom(...[...alphabet]), { minLength: 0, maxLength: 40 }).map((a) => a.join(''));
  const wordy = fc
    .array(fc.constantFrom('pass', 'word', 'Summer', 'P4ss', 'w0rd', 'S3cr3t', 'admin', 'DB_', 'PASSWORD', '2024', '12', '!', '@', 'x', 'Qz', 'HTTPServer', 'v1.2.3-beta'), { maxLength: 6 })
    .map((a) => a.join(''));

  it('agrees on random values over letters, digits, stand-ins, symbols and non-ASCII', () => {
    fc.assert(fc.property(value, (v) => {
      expect(credentialLike(v)).toBe(referenceCredentialLike(v));
    }), { numRuns: 5000 });
  });

  it('agrees on values built from words, leetspeak and numbers', () => {
    fc.assert(fc.property(wordy, (v) => {
      expect(credentialLike(v)).toBe(referenceCredentialLike(v));
    }), { numRuns: 3000 });
  });

  it('the oracle is not trivial: both accept and both reject on these samples', () => {
    const samples = ['Password123', 'P4ssw0rd!', 'xK9#mQ2$vL7p', 'oHxustuohHhabskrW', 'aaaa1111aaaa1111', 'readInstructions'];
    expect(samples.map(referenceCredentialLike)).toEqual([false, false, true, true, false, false]);
    expect(samples.map(credentialLike)).toEqual(samples.map(referenceCredentialLike));
  });
});
