/**
 * JavaScript regex syntax that RE2 does not read, rewritten into RE2's own before a pattern reaches
 * the native binding. The rewrites are the ones the `re2` npm package made in C++ (its
 * lib/pattern.cc) when it compiled the patterns: the same patterns compile to the same RE2 programs.
 *
 * - `\uXXXX` (1-4 hex digits) → `\x{XXXX}`; `\u{…}` → `\x{…}`
 * - `\cA`…`\cZ` → `\x01`…`\x1A`
 * - `\p{Letter}`, `\P{Decimal_Number}` and the other long General_Category names → `\pL`, `\P{Nd}`;
 *   `\p{Script=Greek}` / `\p{sc=Greek}` → `\p{Greek}`
 * - `(?<name>` → `(?P<name>`: RE2 before 2023 reads only the Python form (lookbehinds `(?<=`,
 *   `(?<!` are left alone, and RE2 refuses them as it refuses every lookaround)
 *
 * Everything else is passed through untouched, escapes included (`\\u0041` is a backslash, then
 * `u0041`). A pattern with none of the above comes back as the same string.
 */

const kLongCategory: ReadonlyMap<string, string> = new Map(
  Object.entries({
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Cased_Letter: 'LC',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Letter: 'L',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Mark: 'M',
  Decimal_Number: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Number: 'N',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Punctuation: 'P',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Symbol: 'S',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Separator: 'Z',
  Control: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
  Other: 'C',
  }),
);

/** Cheap test first: most patterns (every managed rule today) have nothing to rewrite. */
const kMayNeedRewrite = /\\[ucpP]|\(\?</;
const kHex = /[0-9A-Fa-f]/;

/** `pattern` in RE2's syntax (see the module comment); the same string when nothing needs rewriting. */
export function toRe2Syntax(pattern: string): string {
  if (!kMayNeedRewrite.test(pattern)) return pattern;
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '(' && pattern.startsWith('(?<', i) && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
      out += '(?P<';
      i += 3;
      continue;
    }
    if (c !== '\\' || i + 1 >= pattern.length) {
      out += c;
      i++;
      continue;
    }
    const [text, next] = rewriteEscape(pattern, i);
    out += text;
    i = next;
  }
  return out;
}

/** The escape starting at `pattern[i]` (a backslash with something after it), rewritten, and where it ends. */
function rewriteEscape(pattern: string, i: number): [string, number] {
  const e = pattern[i + 1]!;
  if (e === 'c') {
    const letter = pattern.charCodeAt(i + 2);
    if (letter >= 0x41 && letter <= 0x5a) return [`\\x${(letter - 0x40).toString(16).toUpperCase().padStart(2, '0')}`, i + 3];
  } else if (e === 'u') {
    if (pattern[i + 2] === '{') return ['\\x{', i + 3];
    let j = i + 2;
    while (j < i + 6 && j < pattern.length && kHex.test(pattern[j]!)) j++;
    if (j > i + 2) return [`\\x{${pattern.slice(i + 2, j)}}`, j];
  } else if ((e === 'p' || e === 'P') && pattern[i + 2] === '{') {
    const close = pattern.indexOf('}', i + 3);
    if (close >= 0) {
      let name = pattern.slice(i + 3, close);
      name = kLongCategory.get(name) ?? (name.startsWith('Script=') && name.length > 7 ? name.slice(7) : name.startsWith('sc=') && name.length > 3 ? name.slice(3) : name);
      return [`\\${e}${name.length === 1 ? name : `{${name}}`}`, close + 1];
    }
  }
  // Any other escape, `\\` included, is copied whole (a surrogate pair after the backslash too).
  const width = (pattern.codePointAt(i + 1) ?? 0) > 0xffff ? 2 : 1;
  return [pattern.slice(i, i + 1 + width), i + 1 + width];
}

/** Escapes whose character may lie outside ASCII: by code, or a Unicode class or any byte. */
const kEscape = /\\(?:x\{([0-9A-Fa-f]+)\}|x([0-9A-Fa-f]{2})|([0-7]{1,3})|([pPC])|[\s\S])/g;

/**
 * True when `re2` (a pattern in RE2's syntax) treats every non-ASCII character alike: it holds none,
 * neither itself nor by escape, and no Unicode class (`\p`) or single byte (`\C`). Such a pattern
 * matches the prefilter's column bytes searched as Latin-1 (each non-ASCII character one byte no
 * ASCII class holds) where it matches the text's UTF-8, for text without the characters
 * `columnsSpecial` names (its negated classes and `.` take any such character as one, as in UTF-8).
 */
export function readsColumns(re2: string): boolean {
  for (let i = 0; i < re2.length; i++) if (re2.charCodeAt(i) > 0x7f) return false;
  kEscape.lastIndex = 0;
  for (let m = kEscape.exec(re2); m !== null; m = kEscape.exec(re2)) {
    if (m[4] !== undefined) return false;
    const hex = m[1] ?? m[2];
    if (hex !== undefined && parseInt(hex, 16) > 0x7f) return false;
    if (m[3] !== undefined && parseInt(m[3], 8) > 0x7f) return false;
  }
  return true;
}
