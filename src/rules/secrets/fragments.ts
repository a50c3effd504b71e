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

/**
 * Like `kAssign`, but also accepts the XML element form `<SecretAccessKey>value` (the closing `>` of
 * the element name is the "operator").
 */
export const kAssignOrElement = String.raw`(?:["'\x60\]]?[ \t]{0,4}(?:=>|:=|=|:)[ \t]{0,4}["'\x60]?|>)`;

/** Characters that may not touch a base64 value (standard alphabet and padding). */
export const kBase64Boundary = 'A-Za-z0-9+/=';

/** Characters that may not touch a base64url / dashed token. */
export const kTokenBoundary = 'A-Za-z0-9_-';
