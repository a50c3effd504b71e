import type { RuleDef } from '../types.js';
import { ukNhsValid } from '../../validators/uk-nhs.js';
import { ukNinoValid } from '../../validators/uk-nino.js';
import { digitsOf, kLabelReach, kRunExtra, labelledRun, oneRepeatedDigit, passportPlaceholder } from './shape.js';

/**
 * uk-nino's run gate (see `RuleDef.runGate`): the six digits are their whole run (two letters, maybe a
 * space, come before them; maybe a space and the suffix letter after, neither joining a run), so two
 * letters sit before the run and A-D (either case) after it, each maybe across one space.
 */
function ninoRunGate(text: string, start: number, end: number): boolean {
  const b = text.charCodeAt(start - 1) === 32 ? start - 2 : start - 1;
  const a = text.charCodeAt(end) === 32 ? end + 1 : end;
  const first = text.charCodeAt(b - 1);
  const second = text.charCodeAt(b);
  const last = text.charCodeAt(a);
  // The pattern's letters in either case (first not D F I Q U V, second not D F I O Q U V, suffix A-D;
  // `| 32` folds only ASCII letters into the sets), and one case for all three (`ninoCaseValid`): the
  // mixed-case look-alikes of base64 and hex never reach the pattern.
  const lower = first & 32;
  const suffix = last | 32;
  return kNinoFirst.has(first | 32) && kNinoSecond.has(second | 32) && suffix >= 97 && suffix <= 100 && (second & 32) === lower && (last & 32) === lower;
}
const kNinoFirst = new Set([...'abceghjklmnoprstwxyz'].map((c) => c.charCodeAt(0)));
const kNinoSecond = new Set([...'abceghjklmnprstwxyz'].map((c) => c.charCodeAt(0)));

/**
 * A NINO as typed into forms: upper case as HMRC prints it, or all lower case (`tw987654a`); never
 * mixed (`Ab123456c` is more often an identifier than a number), and ASCII only (a case-insensitive
 * pattern also takes `ſ` for `s` and the Kelvin sign for `k`).
 */
function ninoCaseValid(v: string): boolean {
  return /^[A-Za-z0-9 ]+$/.test(v) && (v === v.toUpperCase() || v === v.toLowerCase());
}

export const ukRules: readonly RuleDef[] = [
  {
    id: 'uk-nino',
    description: 'UK National Insurance number (AB 12 34 56 C) following HMRC prefix and suffix rules.',
    family: 'pii',
    tags: ['gb', 'national-id'],
    enabledByDefault: true,
    // The six digits are a digit run (`12 34 56` joined by single spaces counts as one); the pattern
    // allows only spaces between them, so dates (`2024-01-01`) and dotted numbers do not wake the rule.
    // The gate's letters each side (each maybe across a space) are checked in the shared pass.
    trigger: { digits: { min: 6, max: 6, separators: ' ', shape: { before: { chars: 'A-Za-z', skip: ' ', count: 2 }, after: { chars: 'A-Da-d', skip: ' ' } } } },
    // First letter not D F I Q U V; second not D F I O Q U V; unallocated pairs are left to the validator.
    runGate: ninoRunGate,
    pattern: '[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-D]',
    ignoreCase: true,
    maxLength: 13,
    // `AB 12 34 56 C` and repeated digits are what form placeholders and guides print.
    validate: (v) => {
      const d = digitsOf(v);
      return ninoCaseValid(v) && ukNinoValid(v.toUpperCase()) && d !== '123456' && !oneRepeatedDigit(d);
    },
    examples: {
      positive: [
        { text: '{"employee":"R. Patel","ni_number":"JT 44 82 19 B"}', match: 'JT 44 82 19 B' },
        { text: 'National Insurance: WP602715A, tax code 1257L', match: 'WP602715A' },
        { text: '<td>NI</td><td>SK 73 05 41 D</td>', match: 'SK 73 05 41 D' },
        { text: '{"nino":"wp602715a"}', match: 'wp602715a' },
        { text: 'ni no. jt 44 82 19 b', match: 'jt 44 82 19 b' },
      ],
      negative: [
        { text: 'Your NI number looks like QQ 12 34 56 C' },
        { text: '<input name="nino" placeholder="AB 12 34 56 C">' },
        { text: 'prefixes GB440219B, TN602715A and ZZ123987C are never issued' },
        { text: 'suffix E: JT448219E; glued: XJT448219B1' },
        { text: 'part DO448219B (D and O are not used)' },
        { text: 'mixed case Wp602715a and wP602715A, lower-case prefix gb440219b' },
      ],
    },
  },
  {
    id: 'uk-nhs',
    description: 'NHS number (England, Wales, Isle of Man) with a valid mod-11 check digit, next to an NHS label.',
    family: 'pii',
    tags: ['gb', 'health-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 10, max: 10, separators: ' -' } },
    ...labelledRun('[0-9]{3} [0-9]{3} [0-9]{4}|[0-9]{3}-[0-9]{3}-[0-9]{4}|[0-9]{10}'),
    maxLength: 12 + kRunExtra,
    // One random 10-digit number in eleven passes the check, and 3-3-4 is also the shape of North
    // American phone numbers: without a label a number is only `medium`.
    context: { words: ['nhs', 'national health', 'health service', 'health and care number'], before: kLabelReach, without: 'medium' },
    validate: (v) => /^[0-9]{3}([ -])[0-9]{3}\1[0-9]{4}$|^[0-9]{10}$/.test(v) && ukNhsValid(digitsOf(v)) && !oneRepeatedDigit(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"patient":{"nhsNumber":"6871775781","gp":"Dr Osei"}}', match: '6871775781' },
        { text: '<th>NHS No.</th><td>667 115 0664</td>', match: '667 115 0664' },
        { text: 'National Health Service number: 654-226-0897', match: '654-226-0897' },
        { text: 'NHS 687 177 5781\nNHS 667 115 0664', match: '667 115 0664' },
        { text: 'NHS No. 654 226 0897 - GP surgery', match: '654 226 0897' },
        // Without a label the check digit alone makes a number medium: phone-shaped ones included.
        { text: 'Call 667-115-0664 for bookings', match: '667-115-0664', confidence: 'medium' },
        { text: '{"id":"4477127820"}', match: '4477127820', confidence: 'medium' },
        { text: 'ref 261 973 0694', match: '261 973 0694', confidence: 'medium' },
      ],
      negative: [
        { text: 'NHS number 687 177 5782 (wrong check digit)' },
        { text: 'NHS reference 1667 115 0664 9' },
        { text: 'NHS: 6671150664123' },
        { text: 'NHS list item 1. 667 115 0664' },
        { text: 'ref 261 973 0695 and 4477127820 1' },
      ],
    },
  },
  {
    id: 'uk-passport',
    description: 'UK passport number (9 digits) next to a UK-specific passport label.',
    family: 'pii',
    tags: ['gb', 'passport'],
    enabledByDefault: true,
    // A match is a whole 9-character token (default boundaries), rarer than runs of 9+ digits.
    trigger: { token: { min: 9, max: 9 } },
    pattern: '[0-9]{9}',
    maxLength: 9,
    context: {
      words: ['uk passport', 'british passport', 'hm passport', 'hmpo', 'united kingdom passport', 'gbr passport', 'passport (gbr)', 'passport (uk)'],
      before: kLabelReach,
    },
    validate: (v) => !passportPlaceholder(v),
    note: 'The digits have no check digit and the same shape as US passport numbers: a 9-digit number after a UK-specific phrase such as "British passport" also matches us-passport, which needs only the word "passport".',
    examples: {
      positive: [
        { text: '{"document":"British passport","number":"548213907"}', match: '548213907' },
        { text: 'UK passport no. 301849276, expires 2031', match: '301849276' },
      ],
      negative: [
        { text: 'Order 548213907 shipped to London' },
        { text: 'British passport number: 123456789' },
        { text: 'UK passport 5482139071 (ten digits)' },
      ],
    },
  },
];
