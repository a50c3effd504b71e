/**
 * Pattern fragments shared by the keyword-anchored secret rules (gitleaks' "semi-generic" template):
 * an identifier, then an assignment in any of the syntaxes a response body carries, then the value.
 * All fragments are valid in both RE2 and JavaScript `u`-flag syntax and bounded.
 */

/**
 * Every pattern here spells whitespace as an explicit ASCII class: `\s` means `[\t\n\f\r ]` in RE2 but
 * also NBSP, U+3000 and friends in JavaScript, and the engine's RE2 path and the V8 reference must
 * accept exactly the same text.
 */

/**
 * Closing quote or bracket of the identifier, then an assignment: `=`, `:`, `=>`, `:=` (env files,
 * YAML, JSON, PHP/Ruby hashes, Go), then an optional opening quote or backtick.
 */
export const kAssign = String.raw`["'\x60\]]?[ \t]{0,4}(?:=>|:=|=|:)[ \t]{0,4}["'\x60]?`;

/** Characters that may not touch a base64 value (standard alphabet and padding). */
export const kBase64Boundary = 'A-Za-z0-9+/=';

/** Characters that may not touch a base64url / dashed token. */
export const kTokenBoundary = 'A-Za-z0-9_-';

/**
 * A tag a label and its value are commonly split across in HTML and XML: table cells (`<th>Password</th>
 * <td><span>value`), definition lists, inline code, line breaks, plist `<key>…</key><string>value`.
 * Limited to these elements so a label in running text does not reach into arbitrary markup.
 */
const kGapTag = String.raw`<(?:/?(?:[A-Za-z][A-Za-z0-9_-]*:)?(?:th|td|tr|dt|dd|span|div|code|pre|b|strong|em|i|label|p|li|kbd|samp|tt|font|small|mark|br|key|string|value|entry|textarea)(?:[ \t\r\n][^<>]*)?/?)>`;

/**
 * How a keyword-anchored rule gets from its label to the value, in every syntax response bodies carry:
 * - an assignment (`kAssign`: env, YAML, JSON, PHP, Go, query strings);
 * - an XML element named by the label, optionally in CDATA (`<SecretAccessKey>v`, `<DbPassword><![CDATA[v`);
 * - an attribute pair (`<add key="DbPassword" value="v">`, `<input name="…" type="text" value="v">`,
 *   `<meta name="api-key" content="v">`), other attributes between;
 * - a name/value pair (Kubernetes and ECS env lists: `{"name":"DB_PASSWORD","value":"v"}`,
 *   `- name: DB_PASSWORD⏎  value: v`);
 * - a label in element text and the value in a following element (`<th>…</th><td><span>v`,
 *   `<dt>…</dt><dd><code>v`, `…</label> <input type="text" value="v"`), at most four tags on.
 * The value starts right after the match of this fragment. Long runs use open repeats (`*`), bounded by
 * the rule's `maxLength`: counted ones multiply RE2's states, and its lazily built DFA grows with them
 * (re2-wasm's whole heap is 16 MB).
 */
export const kLabelToValue =
  String.raw`(?:${kAssign}` +
  String.raw`|>(?:<!\[CDATA\[)?` +
  String.raw`|["'](?:[ \t\r\n]+[A-Za-z_:][A-Za-z0-9_:.-]*=(?:"[^"<>]*"|'[^'<>]*'))*[ \t\r\n]+(?:value|content)=["']` +
  String.raw`|["'][ \t]*,[ \t\r\n]*["']value["'][ \t]*:[ \t]*["']` +
  String.raw`|["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?` +
  String.raw`|[ \t]*:?(?:[ \t\r\n]*${kGapTag}){1,4}[ \t\r\n]*(?:<!\[CDATA\[|<input[ \t\r\n](?:[^<>]*?[ \t\r\n])?value=["'])?)`;

/**
 * `kLabelToValue` and two placements more, for the lower-confidence generic rules: a value passed as
 * the argument after its name (`getenv("api_token", "v")`, `setProperty("X_TOKEN", "v")`), and an
 * element whose value sits on its own line (`<fooToken>⏎  v⏎</fooToken>`).
 */
export const kLabelToValueWide =
  String.raw`(?:${kLabelToValue}` + String.raw`|["'][ \t]*,[ \t]*["']` + String.raw`|>[ \t]*\r?\n[ \t]*)`;

/** Characters of an identifier in the keyword-anchored rules (`my.app_SECRET-2`). */
const kIdentChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-';
const kAlnumChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A character class of `chars` without any letter (either case) in `drop`. */
function classWithout(chars: string, drop: ReadonlySet<string>): string {
  const kept = [...chars].filter((c) => !drop.has(c.toLowerCase()));
  return `[${kept.map((c) => (c === '-' || c === '.' ? `\\${c}` : c)).join('')}]`;
}

/**
 * A non-empty identifier (`kIdentChars`) ending in a letter or digit and not ending in any of `words`
 * (lower-case letters; matched case-insensitively): the body of a name before `[_.-]?token` that is not
 * `public`, `csrf`, `nextPage`… RE2 has no lookbehind, so the complement is spelled out over the
 * reversed words' trie: for each proper suffix `q` of a word that the identifier may end with, the
 * character before `q` is absent or leads to no word. Put it where a match starts at the identifier's
 * first character (a left boundary of identifier characters).
 */
export function identifierNotEndingIn(words: readonly string[]): string {
  interface Node { children: Map<string, Node>; terminal: boolean }
  const root: Node = { children: new Map(), terminal: false };
  for (const w of words) {
    let n = root;
    for (const c of [...w].reverse()) {
      let next = n.children.get(c);
      if (next === undefined) {
        next = { children: new Map(), terminal: false };
        n.children.set(c, next);
      }
      n = next;
    }
    n.terminal = true;
  }
  const any = classWithout(kIdentChars, new Set());
  const alts: string[] = [`${any}*${classWithout(kAlnumChars, new Set(root.children.keys()))}`];
  const walk = (n: Node, suffix: string): void => {
    for (const [c, child] of n.children) {
      const q = c + suffix;
      if (child.terminal) continue;
      alts.push(`(?:${any}*${classWithout(kIdentChars, new Set(child.children.keys()))})?${q}`);
      walk(child, q);
    }
  };
  walk(root, '');
  return `(?:${alts.join('|')})`;
}
