import type { RuleDef, RunMatch } from '../types.js';
import { abaValid } from '../../validators/aba.js';
import { ibanLength, ibanValid, kIbanBbanFormats } from '../../validators/iban.js';
import { luhnValid } from '../../validators/luhn.js';
import { kIsoCountryCodes } from './countries.js';
import { isDigitAt } from '../run-match.js';

/**
 * IBAN pattern: for each IBAN length in the registry, the countries of that length, two check digits
 * and exactly the right number of characters, with an optional single space or dash before each
 * group of four (`ibanRuleValid` wants the same one before every group, or none). Encoding each country's length in the pattern (instead of "2 to 7 groups") means a word that
 * follows an IBAN (`NL91 ABNA 0417 1643 EURO`) is never swallowed into it, which would make the
 * length check reject a real IBAN. Upper-case only: see the rule's note.
 */
function ibanPattern(): string {
  const byLength = new Map<number, string[]>();
  for (const cc of Object.keys(kIbanBbanFormats)) {
    const len = ibanLength(cc)!;
    byLength.set(len, [...(byLength.get(len) ?? []), cc]);
  }
  const branches = [...byLength.entries()]
    .sort(([a], [b]) => a - b)
    .map(([len, ccs]) => {
      const groups = ibanFours(len);
      const rest = ibanRest(len);
      return `(?:${ccs.join('|')})[0-9]{2}(?:[ -]?[A-Z0-9]{4}){${groups}}${rest > 0 ? `(?:[ -]?[A-Z0-9]{${rest}})` : ''}`;
    });
  return `(?:${branches.join('|')})`;
}

/** After the country code and check digits, an IBAN of `len` characters has this many groups of four… */
function ibanFours(len: number): number {
  return (len - 4) >> 2;
}

/** …and a last group of this many characters (0: none). */
function ibanRest(len: number): number {
  return (len - 4) & 3;
}

/**
 * The IBAN pattern's match on a group (`RunMatch`). Every match is made of capitals, digits, spaces
 * and dashes, and starts with a registry country code and two digits, where only its country's branch
 * can match (`ibanBranchEnd`). So when, in the stretch of such characters that reaches the group (back
 * to the first character outside them) and on to the group's end, exactly one such place starts a
 * match, no other match starts there or reaches into it. True when that match ends at `end`.
 */
const ibanRunMatch: RunMatch = (text, start, end, out) => {
  let from = start;
  while (from > 0 && ibanStretchCode(text.charCodeAt(from - 1))) {
    if (start - --from > kIbanMaxLength) return false;
  }
  let ms = -1;
  let me = -1;
  for (let q = from; q < end; q++) {
    const c = text.charCodeAt(q);
    if (c < 65 || c > 90) continue;
    const e = ibanBranchEnd(text, q);
    if (e < 0) continue;
    if (ms >= 0) return false;
    ms = q;
    me = e;
  }
  if (me !== end) return false;
  out[0] = ms;
  out[1] = ms;
  out[2] = end;
  return true;
};

/**
 * Where the IBAN pattern's match starting at `q` ends, or -1 for none: a registry country code, two
 * digits and its branch's groups, a space or dash before a group taken whenever present (leaving it
 * would fail the group), as `ibanPattern` writes them.
 */
function ibanBranchEnd(text: string, q: number): number {
  const c0 = text.charCodeAt(q);
  const c1 = text.charCodeAt(q + 1);
  if (c0 < 65 || c0 > 90 || c1 < 65 || c1 > 90 || !isDigitAt(text, q + 2) || !isDigitAt(text, q + 3)) return -1;
  const len = kIbanCountries[26 * (c0 - 65) + (c1 - 65)]!;
  if (len === 0) return -1;
  const groups = ibanFours(len);
  const rest = ibanRest(len);
  let i = q + 4;
  for (let k = 0; k < groups + (rest > 0 ? 1 : 0); k++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 45) i++;
    for (const to = i + (k < groups ? 4 : rest); i < to; i++) {
      const x = text.charCodeAt(i);
      if (!((x >= 65 && x <= 90) || (x >= 48 && x <= 57))) return -1;
    }
  }
  return i;
}

/**
 * Separators in an IBAN are all-or-nothing: none, or the same one before every group of four, a space
 * (ISO 13616's print form) or a dash (`DE89-3704-0044-0532-0130-00`, as forms and spreadsheets
 * write it). The pattern places them only between groups; mixed ones are dropped here.
 */
function ibanRuleValid(value: string): boolean {
  const dash = value.indexOf('-');
  // The electronic form (no separator, as most values come) goes to the check as it is.
  if (dash < 0 && value.indexOf(' ') < 0) return ibanValid(value);
  const sep = dash >= 0 ? '-' : ' ';
  const compact = value.replaceAll(sep, '');
  if (compact.length !== value.length) {
    if (/[^A-Z0-9]/.test(compact)) return false;
    const seps = value.length - compact.length;
    if (seps !== Math.ceil(compact.length / 4) - 1) return false;
  }
  return ibanValid(compact);
}

/** card-track-data's run gate: the PAN ends its run at a field separator (`^` track 1, `=` track 2). */
function trackRunGate(text: string, _start: number, end: number): boolean {
  const c = text.charCodeAt(end);
  return c === 94 || c === 61;
}

/**
 * Registry country codes by their two letters' index (26 × first + second), each with its IBAN length
 * (0: not in the registry): the gate and `ibanBranchEnd` look them up per run.
 */
const kIbanCountries = new Uint8Array(26 * 26);
for (const cc of Object.keys(kIbanBbanFormats)) kIbanCountries[26 * (cc.charCodeAt(0) - 65) + (cc.charCodeAt(1) - 65)] = ibanLength(cc)!;
const kIbanMaxLength = 34 + 8;

/**
 * The IBAN rule's run gate (see `RuleDef.runGate`). A match starts with a registry country code and
 * two check digits, and is upper-case letters, digits and single spaces or dashes from there on: so a run holds
 * part of one only if, within the rule's length before it, an unbroken stretch of such characters
 * reaching the run holds a registry country code followed by two digits. The numbers of a log line
 * (`ts=1790143393280`, `INV3664362753 404`) have none and no longer wake the rule.
 */
export function ibanRunGate(text: string, start: number, _end: number): boolean {
  // One pass backwards over the stretch, testing each place a code could start on the way: p is the
  // candidate's first letter, c1..c3 the three characters after it. (Pieces of a long digit run come
  // here once per rule's gate and piece: a single pass with nothing allocated keeps them cheap.)
  const limit = Math.max(0, start - kIbanMaxLength);
  let c1 = text.charCodeAt(start - 1);
  if (start - 1 < limit || !ibanStretchCode(c1)) return false;
  let c2 = text.charCodeAt(start);
  let c3 = text.charCodeAt(start + 1);
  for (let p = start - 2; p >= limit; p--) {
    const c0 = text.charCodeAt(p);
    if (!ibanStretchCode(c0)) return false;
    if (c0 >= 65 && c0 <= 90 && c1 >= 65 && c1 <= 90 && c2 >= 48 && c2 <= 57 && c3 >= 48 && c3 <= 57 && kIbanCountries[26 * (c0 - 65) + (c1 - 65)] !== 0) return true;
    c3 = c2;
    c2 = c1;
    c1 = c0;
  }
  return false;
}

/** A character an IBAN's stretch is made of: a capital, a digit, a space or a dash. */
function ibanStretchCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 32 || c === 45;
}

const kIban: RuleDef = {
  id: 'iban',
  description: 'International Bank Account Number (registry country, length, BBAN format and MOD 97-10 checked).',
  family: 'financial-information',
  tags: ['iban', 'bank-account'],
  enabledByDefault: true,
  // The check digits and the BBAN's digits form a run of 8+ digits in every registry example (the
  // alphanumeric BBANs still carry a long numeric account part); the window reaches back to the
  // country code. Spaces and dashes join the run (the print and dashed forms), dots do not: dotted
  // numbers do not wake the rule. The gate's stretch of capitals, digits, spaces and dashes reaches
  // back at least two characters from the run (the country code and check digits come before it):
  // the shared pass checks those two, so a date in text or JSON (`on 2024-01-15`, `"2024-01-15"`)
  // is dropped there.
  trigger: { digits: { min: 8, separators: ' -', shape: { before: { chars: 'A-Z0-9 -', count: 2 } } } },
  pattern: ibanPattern(),
  maxLength: kIbanMaxLength,
  runGate: ibanRunGate,
  runMatch: ibanRunMatch,
  validate: ibanRuleValid,
  note: 'Matches the electronic (no spaces) and print (a space every 4 characters) forms in upper case, as ISO 13616 writes them, and the same groups joined by dashes; lower-case or mixed-case IBANs are not reported: they are rare in generated responses, and accepting them would let lower-case identifiers through on length and checksum alone. IBANs whose BBAN has no run of 8 digits (possible in a few alphanumeric formats) are not triggered.',
  examples: {
    positive: [
      { text: '{"iban":"DE89370400440532013000","bic":"COBADEFFXXX"}', match: 'DE89370400440532013000' },
      { text: 'IBAN: GB29 NWBK 6016 1331 9268 19\nBIC: NWBKGB2L', match: 'GB29 NWBK 6016 1331 9268 19' },
      { text: '<td>FR14 2004 1010 0505 0001 3M02 606</td>', match: 'FR14 2004 1010 0505 0001 3M02 606' },
      { text: 'Überweisung an NL91 ABNA 0417 1643 00 EURO', match: 'NL91 ABNA 0417 1643 00' },
      { text: 'iban=MT84MALT011000012345MTLCAST001S&amount=10', match: 'MT84MALT011000012345MTLCAST001S' },
      { text: '收款账号：SA0380000000608010167519。', match: 'SA0380000000608010167519' },
      { text: 'Kontonummer: DE65-5001-0517-0648-2917-35, bitte angeben', match: 'DE65-5001-0517-0648-2917-35' },
      { text: '"account": "GB90-MIDL-4005-1522-3344-55"', match: 'GB90-MIDL-4005-1522-3344-55' },
      { text: 'AT61-1904-3002-3457-3201.', match: 'AT61-1904-3002-3457-3201' },
    ],
    negative: [
      { text: '{"iban":"DE89370400440532013001"}' },
      { text: 'lower case de89370400440532013000 is not matched' },
      { text: 'mixed spacing DE89 37040044 0532 0130 00' },
      { text: 'too long DE893704004405320130001 and glued XDE89370400440532013000' },
      { text: 'no IBAN in US: US64SVBKUS6S3300958879' },
      { text: 'order GB29NWBK6016133192681 ships 2024-01-15' },
      { text: 'mixed DE65-5001 0517-0648 2917-35 and DE65-50010517-0648-2917-35' },
      { text: 'dots DE65.5001.0517.0648.2917.35 and double DE65--5001-0517-0648-2917-35' },
      { text: 'bad check DE65-5001-0517-0648-2917-36' },
    ],
  },
};

const kAbaRouting: RuleDef = {
  id: 'us-aba-routing',
  description: 'US ABA routing transit number next to a routing/ABA/RTN keyword (3-7-1 checksum and Federal Reserve prefix checked).',
  family: 'financial-information',
  tags: ['us', 'bank-routing'],
  enabledByDefault: true,
  trigger: { digits: { min: 9, max: 9, separators: '-' } },
  // Nine digits, or 4-4-1 with dashes as some forms print it. An overrun (`-5`, `.5`) is captured so
  // that validate drops a slice of a longer number; on the left, a digit, letter, dash or dot touching
  // the number rejects it. (No lead-in as for cards: it would swallow the `: ` after `ABA`, and the
  // context words are looked for before the match.)
  pattern: '[0-3678][0-9]{3}-?[0-9]{4}-?[0-9](?:[.-][0-9])?',
  maxLength: 13,
  boundary: { left: 'A-Za-z0-9.-' },
  validate: (v) => (/^[0-9]{9}$/.test(v) || /^[0-9]{4}-[0-9]{4}-[0-9]$/.test(v)) && abaValid(v.replaceAll('-', '')),
  // About 1 random 9-digit number in 10 passes the checksum, so without a keyword a number is only
  // `medium`. `aba` and `rtn` only count with a delimiter after them, so "database" or "sortNumber"
  // do not qualify.
  context: {
    words: ['routing', 'aba ', 'aba:', 'aba#', 'aba"', 'aba=', 'aba_', 'aba/', 'abanumber', 'rtn ', 'rtn:', 'rtn#', 'rtn"', 'rtn=', 'rtn_', 'transit number', 'transit no'],
    before: 50,
    without: 'medium',
  },
  examples: {
    positive: [
      { text: '{"routing_number":"021000021","account_number":"000123456789"}', match: '021000021' },
      { text: 'ABA: 0110-0001-5', match: '0110-0001-5' },
      { text: '<dt>Routing (RTN)</dt><dd>322271627</dd>', match: '322271627' },
      { text: 'Bankleitzahl/ABA# 071000013 für USD', match: '071000013' },
      // Without a keyword, checksum and prefix make a number medium ("database" is no `aba` keyword).
      { text: 'order 021000021 shipped', match: '021000021', confidence: 'medium' },
      { text: 'database row 021000021', match: '021000021', confidence: 'medium' },
      { text: '{"id":"2217-1979-8"}', match: '2217-1979-8', confidence: 'medium' },
    ],
    negative: [
      { text: '{"routing_number":"021000022"}' },
      { text: 'routing number 500000005 (prefix 50 is unassigned)' },
      { text: 'routing 1-021000021 and 021000021-5 and 0210000210' },
      { text: 'order 021000022 shipped' },
    ],
  },
};

/** Words that fill the BIC's shape after a SWIFT keyword but are not codes. */
const kBicStopWords = new Set(['REQUIRED', 'OPTIONAL', 'REQUESTED', 'PROVIDED']);

function bicValid(value: string): boolean {
  // The pattern is case-insensitive for its keyword; a BIC itself is always upper-case.
  if (!/^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(value)) return false;
  if (!kIsoCountryCodes.has(value.slice(4, 6))) return false;
  // Branch `XXX` is the head office; no other branch code starts with X.
  if (value.length === 11 && value[8] === 'X' && value.slice(8) !== 'XXX') return false;
  return !kBicStopWords.has(value);
}

const kSwiftBic: RuleDef = {
  id: 'swift-bic',
  description: 'SWIFT/BIC bank identifier code after a SWIFT or BIC keyword (ISO 9362 shape and country checked).',
  family: 'financial-information',
  tags: ['swift', 'bic'],
  enabledByDefault: false,
  note: 'A BIC identifies a bank, not a person or an account, and any 8 or 11 capitals after "swift" or "bic" fit its shape (there is no checksum); useful to find payment instructions, so off by default.',
  trigger: { keywords: ['swift', 'bic'] },
  // Keyword, an optional second word (`SWIFT code`, `BIC/SWIFT`, `swift_code`), 1-4 punctuation or
  // space characters, then the code in group 1 (the suffix of the match, as the engine expects).
  pattern: '(?:swift|bic)(?:[ _/-]?(?:code|bic|swift|address|number|no|id))?[^A-Za-z0-9\\n]{1,4}([A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)',
  ignoreCase: true,
  group: 1,
  maxLength: 5 + 8 + 4 + 11,
  validate: bicValid,
  examples: {
    positive: [
      { text: 'IBAN: DE89 3704 0044 0532 0130 00, BIC: COBADEFFXXX', match: 'COBADEFFXXX' },
      { text: '{"swift_code":"NWBKGB2L"}', match: 'NWBKGB2L' },
      { text: 'SWIFT/BIC: BNPAFRPP', match: 'BNPAFRPP' },
    ],
    negative: [
      { text: 'SWIFT code: REQUIRED' },
      { text: 'public static final String BIC = "unknown";' },
      { text: 'swift code: NWBKZZ2L (no such country)' },
      { text: 'bic: cobadeffxxx' },
      { text: 'BIC: DEUTDEFFX12 (branch starting with X)' },
      { text: 'Swift Package Manager: SWIFTPKG' },
    ],
  },
};

const kUsBankAccount: RuleDef = {
  id: 'us-bank-account',
  description: 'US bank account number (8-17 digits) right after an account-number keyword.',
  family: 'financial-information',
  tags: ['us', 'bank-account'],
  enabledByDefault: false,
  note: 'Off by default: US account numbers have no common format or checksum, so only the account keyword before them separates them from any other 8-17 digit number (order, customer and phone numbers, ids) and precision cannot be held at the 99% goal of checksum-validated rules (63% on the labelled corpus before its context words were tightened; a customer number labelled `Account #` is still reported).',
  trigger: { digits: { min: 8, max: 17, separators: '' } },
  pattern: '[0-9]{8,17}(?:[.-][0-9])?',
  maxLength: 19,
  boundary: { left: 'A-Za-z0-9.-' },
  validate: (v) => /^[0-9]{8,17}$/.test(v) && !/^(.)\1*$/.test(v),
  context: {
    // `account no` only with the punctuation or space after it: bare, it is also the start of `account note`.
    words: ['account number', 'account no.', 'account no:', 'account no ', 'account #', 'account_number', 'accountnumber', 'acct', 'bank account', 'checking account', 'savings account'],
    before: 40,
  },
  examples: {
    positive: [
      { text: '{"routing_number":"021000021","account_number":"000123456789"}', match: '000123456789' },
      { text: 'Checking account: 4401 2233 ... Acct # 9876543210', match: '9876543210' },
      { text: 'Account No. 12345678901 (checking)', match: '12345678901' },
    ],
    negative: [
      { text: '{"order_number":"000123456789"}' },
      { text: 'account number 00000000' },
      { text: 'account number 1234567' },
      { text: 'account number 123456789012345678' },
      { text: 'order INV3025988243: pending account note. Tracking 4257958792110997, build 8.24.183.' },
    ],
  },
};

/**
 * Magnetic-stripe track data (ISO/IEC 7813): track 1 `%B<PAN>^<NAME>^<YYMM><service code>…?` and track 2
 * `;<PAN>=<YYMM><service code>…?`. Storing it after authorisation is forbidden by PCI DSS, so any
 * occurrence in a response is serious; the PAN inside must pass Luhn and the expiry month be 01-12.
 */
function trackValid(value: string): boolean {
  const m = /^(?:%?B)?;?([0-9]{12,19})[=^](?:[^^]{2,26}\^)?[0-9]{2}([0-9]{2})/.exec(value);
  if (m === null) return false;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 && luhnValid(m[1]!);
}

const kTrackData: RuleDef = {
  id: 'card-track-data',
  description: 'Payment card magnetic-stripe track 1 or track 2 data (PAN with Luhn, expiry and service code).',
  family: 'financial-information',
  tags: ['card', 'track-data'],
  enabledByDefault: false,
  note: 'Precise (it needs the track separators and a Luhn-valid PAN) but expected only on card-present payment systems; off by default like the other card-detail rules and meant to be enabled there.',
  // The PAN: 12-19 contiguous digits in both tracks, right before the field separator (`^` or `=`),
  // which no digit rule takes as a separator: it ends the run, and the shared pass checks it.
  trigger: { digits: { min: 12, max: 19, separators: '', shape: { after: { chars: '=^' } } } },
  runGate: trackRunGate,
  pattern: "(?:%?B[0-9]{12,19}\\^[A-Za-z0-9 /.'-]{2,26}\\^[0-9]{7}[0-9A-Za-z ]{0,40}\\??|;?[0-9]{12,19}=[0-9]{7}[0-9]{0,30}\\??)",
  maxLength: 2 + 19 + 1 + 26 + 1 + 7 + 40 + 1,
  validate: trackValid,
  examples: {
    positive: [
      { text: 'track1=%B4111111111111111^DOE/JANE^2912101000000000000000000?', match: '%B4111111111111111^DOE/JANE^2912101000000000000000000?' },
      { text: '{"track2":";4111111111111111=29121010000012300000?"}', match: ';4111111111111111=29121010000012300000?' },
    ],
    negative: [
      { text: 'track2=;4111111111111112=29121010000012300000?' },
      { text: ';4111111111111111=29131010000012300000? (month 13)' },
      { text: 'a=4111111111111111&b=2912101' },
    ],
  },
};

export const bankRules: readonly RuleDef[] = [kIban, kAbaRouting, kSwiftBic, kUsBankAccount, kTrackData];
