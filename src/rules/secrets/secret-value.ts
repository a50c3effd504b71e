import { shannonEntropy } from '../../validators/entropy.js';
import { isDigitCode, isLetterCode } from '../run-match.js';

/**
 * Whether the value found after a password or secret label is a credential rather than a word, an
 * identifier or code. gitleaks' generic rule asks for Shannon entropy >= 3.5, which no string of fewer
 * than 12 characters can reach (the entropy of n characters is at most log2 n) and which most
 * generated passwords of 12-16 characters miss too. Instead, a value passes when:
 * - it holds a letter and is not made of dictionary-like pieces (`Password123`, `Summer2024!`,
 *   `required|min:8`, `e.password`, `DB_PASSWORD_2`, `v1.2.3-beta`), leetspeak included (`P4ssw0rd!`);
 * - it has a digit or a symbol and an entropy within 0.7 bit of the maximum its length allows (capped
 *   at gitleaks' 3.5, or 3 for hex), so repeats and short alphabets (`aaaa1111`, `abab1212`,
 *   timestamps) stay out;
 * - or, letters only, it is at least 12 long and changes case like random text (`oHxustuohHhabskrW`),
 *   not like camelCase (`readInstructions`, `XMLHttpRequest`).
 * Words, stand-ins and templates are rejected before this (stop-list, placeholders).
 */
export function credentialLike(value: string): boolean {
  if (!/[A-Za-z]/.test(value)) return false;
  if (dictionaryLike(value)) return false;
  const swapped = unleet(value);
  if (swapped !== value && dictionaryLike(swapped)) return false;
  const h = shannonEntropy(value);
  // Hex has 16 symbols, so its entropy tops out at 4 and a random 32-digit hex secret sits near 3.7.
  const cap = /^[0-9a-f]+$/i.test(value) ? 3 : 3.5;
  const floor = Math.min(cap, Math.log2(value.length) - 0.7);
  if (/[0-9!#$%*+?@^~|=]/.test(value)) return h >= floor;
  if (value.length < 12 || !/[A-Z]/.test(value) || !/[a-z]/.test(value)) return false;
  return caseSwitches(value) * 4 >= value.length && h >= floor;
}

/**
 * `P4ssw0rd!` → `Password!`, `S3cr3t2024` → `Secret2024`: the digit and symbol stand-ins of leetspeak,
 * for the word test. A stand-in is a single one next to a letter (the digits of `2024` are a number).
 * People swap a few letters; a value with more stand-ins (random text, hex) is left as it is.
 * Neighbours are read from the value as given, not as swapped; codes, not strings, per character.
 */
function unleet(value: string): string {
  const len = value.length;
  let n = 0;
  for (let i = 0; i < len; i++) if (isStandIn(value, i)) n++;
  if (n === 0 || n > 3 || n * 4 > len) return value;
  let out = '';
  let from = 0;
  for (let i = 0; i < len; i++) {
    if (!isStandIn(value, i)) continue;
    out += value.slice(from, i) + kLeet[value.charCodeAt(i)]!;
    from = i + 1;
  }
  return out + value.slice(from);
}
/** The letter a stand-in's code unit means, by code (`0` → `o`, `@` → `a`); undefined for the rest. */
const kLeet: ReadonlyArray<string | undefined> = (() => {
  const t: Array<string | undefined> = new Array<string | undefined>(128).fill(undefined);
  for (const [c, l] of Object.entries({ '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' })) t[c.charCodeAt(0)] = l;
  return t;
})();

/** Whether the unit at `i` is a stand-in swapped by `unleet`: no digit beside it, a letter on some side. */
function isStandIn(value: string, i: number): boolean {
  const c = value.charCodeAt(i);
  if (c >= 128 || kLeet[c] === undefined) return false;
  // -1 past either end (as NaN, neither digit nor letter; an index out of range deoptimised the caller).
  const prev = i > 0 ? value.charCodeAt(i - 1) : -1;
  const next = i + 1 < value.length ? value.charCodeAt(i + 1) : -1;
  return !isDigitCode(prev) && !isDigitCode(next) && (isLetterCode(prev) || isLetterCode(next));
}

/**
 * The letter pairs of English words, by first letter: the most frequent pairs in English technical
 * prose (npm packages' README files: 0.4 M words), together making up 99.5% of the pairs there, plus
 * the rarer pairs of a few words people put in password fields (`passwd`, `admin`, `welcome`,
 * `qwerty`, `football`, `autumn`, `jquery`, `webpack`). About 58% of all pairs, so a random run of
 * five letters passes with a probability near 0.58^4 ≈ 11%, a word nearly always.
 */
const kEnglishPairs: Uint8Array = (() => {
  const t = new Uint8Array(26 * 26);
  const rows = 'aabcdfgijklmnprstuvwxyz babcdeghijloprstuy cabcdefhiklmoprstuy dabcdefgilmnoprstuvy eabcdefghijlmnopqrstuvwxy facdefilorstuy gaceghilnoprstuy haceimorstuy iabcdefgklmnoprstvxz jaeoqsu kacdefinprs labcdehiklmnoprstuvy mabdegijlmnopsuvy nacdefgijklmnoprstuvy oabcdefgijklmnoprstuvwxyz pacdeghilmoprstuvy quw rabcdefgiklmnoprstuvwy sabcdefghiklmnoprstuvwy tabcdefghilmnoprstuwy uabcdefgilmnprst vaegiou wadehinorsw xaceipty yabcdeilmnoprst zaeioz';
  for (const row of rows.split(' ')) for (const second of row.slice(1)) t[(row.charCodeAt(0) - 97) * 26 + second.charCodeAt(0) - 97] = 1;
  return t;
})();

/**
 * Letters of a name, `value[from, to)`: lower-case or capitalised (all capitals only in a value without
 * lower case, as in `DB_PASSWORD`), with a vowel and only English letter pairs. `password`, `Summer`,
 * `Required` pass; `Jtqq`, `clwvffcpjqpg` and the capital runs of mixed-case random text (`ZSW` in
 * `…ZSW%Cax…`) do not.
 */
function wordLetters(value: string, from: number, to: number, hasLower: boolean): boolean {
  // A piece is ASCII letters, lower case after its first letter or all capitals (see `dictionaryLike`):
  // it has no lower case exactly when its last letter is a capital.
  const last = value.charCodeAt(to - 1);
  if (hasLower && last >= 65 && last <= 90) return false;
  let vowel = false;
  let before = -1;
  for (let i = from; i < to; i++) {
    const l = (value.charCodeAt(i) | 32) - 97;
    if (l === 0 || l === 4 || l === 8 || l === 14 || l === 20 || l === 24) vowel = true;
    if (before >= 0 && kEnglishPairs[before * 26 + l] !== 1) return false;
    before = l;
  }
  return vowel;
}

/** The end of the run of code units from `i` that are within [lo, hi]. */
function runEnd(value: string, i: number, lo: number, hi: number): number {
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (c < lo || c > hi) break;
    i++;
  }
  return i;
}

/**
 * The value is a name, a word with a number, or a list of words (`Password123`, `Summer2024!`,
 * `required|min:8`, `e.password`, `DB_PASSWORD_2`, `v1.2.3-beta4`): word-like pieces of four or more
 * letters hold more than two thirds of its letters (shorter pieces cannot tell a word from random
 * text, which is full of `My`, `min`, `koh`), and no run of five or more digits (random, not a counter
 * or a year) occurs. Pieces are letter runs split at case changes (`HTTPServer` → `HTTP`, `Server`)
 * and digit runs, as `/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g` finds them; taken over character codes
 * in one pass, since the regex and its array of strings were most of the rule's check.
 */
function dictionaryLike(value: string): boolean {
  const hasLower = /[a-z]/.test(value);
  let words = 0;
  let letters = 0;
  for (let i = 0; i < value.length; ) {
    const c = value.charCodeAt(i);
    // The piece [i, e) of letters, if any; digits and other characters are skipped past.
    let e: number;
    if (c >= 48 && c <= 57) {
      e = runEnd(value, i, 48, 57);
      if (e - i >= 5) return false;
      i = e;
      continue;
    } else if (c >= 97 && c <= 122) {
      e = runEnd(value, i, 97, 122);
    } else if (c >= 65 && c <= 90) {
      const caps = runEnd(value, i, 65, 90);
      const lower = runEnd(value, caps, 97, 122);
      // Capitals alone; `HTTP` of `HTTPServer` (`Server` comes next); or `Server`.
      e = lower === caps ? caps : caps - i >= 2 ? caps - 1 : lower;
    } else {
      i++;
      continue;
    }
    letters += e - i;
    if (e - i >= 4 && wordLetters(value, i, e, hasLower)) words += e - i;
    i = e;
  }
  return words * 3 > letters * 2;
}

/** How often a letter follows a letter of the other case. */
function caseSwitches(value: string): number {
  let n = 0;
  for (let i = 1; i < value.length; i++) {
    const a = value.charCodeAt(i - 1);
    const b = value.charCodeAt(i);
    const au = a >= 65 && a <= 90;
    const al = a >= 97 && a <= 122;
    const bu = b >= 65 && b <= 90;
    const bl = b >= 97 && b <= 122;
    if ((au && bl) || (al && bu)) n++;
  }
  return n;
}
