import type { RuleDef } from '../types.js';
import { ukNhsValid } from '../../validators/uk-nhs.js';
import { ukNinoValid } from '../../validators/uk-nino.js';
import { digitsOf, isCapitalCode, kLabelReach, kRunExtra, labelledRun, oneRepeatedDigit, passportPlaceholder } from './shape.js';

/**
 * uk-nino's run gate (see `RuleDef.runGate`): the six digits are their whole run (two letters, maybe a
 * space, come before them; maybe a space and the suffix letter after, neither joining a run), so two
 * capitals sit before the run and A-D after it, each maybe across one space.
 */
function ninoRunGate(text: string, start: number, end: number): boolean {
  const b = text.charCodeAt(start - 1) === 32 ? start - 2 : start - 1;
  const a = text.charCodeAt(end) === 32 ? end + 1 : end;
  const suffix = text.charCodeAt(a);
  return isCapitalCode(text.charCodeAt(b)) && isCapitalCode(text.charCodeAt(b - 1)) && suffix >= 65 && suffix <= 68;
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
    trigger: { digits: { min: 6, max: 6, separators: ' ', shape: { before: { chars: 'A-Z', skip: ' ', count: 2 }, after: { chars: 'A-D', skip: ' ' } } } },
    // First letter not D F I Q U V; second not D F I O Q U V; unallocated pairs are left to the validator.
    runGate: ninoRunGate,
    pattern: '[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-D]',
    maxLength: 13,
    // `AB 12 34 56 C` and repeated digits are what form placeholders and guides print.
    validate: (v) => {
      const d = digitsOf(v);
      return ukNinoValid(v) && d !== '123456' && !oneRepeatedDigit(d);
    },
    examples: {
      positive: [
        { text: '{"employee":"R. Patel","ni_number":"JT 44 82 19 B"}', match: 'JT 44 82 19 B' },
        { text: 'National Insurance: WP602715A, tax code 1257L', match: 'WP602715A' },
        { text: '<td>NI</td><td>SK 73 05 41 D</td>', match: 'SK 73 05 41 D' },
      ],
      negative: [
        { text: 'Your NI number looks like QQ 12 34 56 C' },
        { text: '<input name="nino" placeholder="AB 12 34 56 C">' },
        { text: 'prefixes GB440219B, TN602715A and ZZ123987C are never issued' },
        { text: 'suffix E: JT448219E; glued: XJT448219B1' },
        { text: 'part DO448219B (D and O are not used)' },
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
    // American phone numbers, so a label is required.
    context: { words: ['nhs', 'national health', 'health service', 'health and care number'], before: kLabelReach },
    validate: (v) => /^[0-9]{3}([ -])[0-9]{3}\1[0-9]{4}$|^[0-9]{10}$/.test(v) && ukNhsValid(digitsOf(v)) && !oneRepeatedDigit(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"patient":{"nhsNumber":"6871775781","gp":"Dr Osei"}}', match: '6871775781' },
        { text: '<th>NHS No.</th><td>667 115 0664</td>', match: '667 115 0664' },
        { text: 'National Health Service number: 654-226-0897', match: '654-226-0897' },
        { text: 'NHS 687 177 5781\nNHS 667 115 0664', match: '667 115 0664' },
        { text: 'NHS No. 654 226 0897 - GP surgery', match: '654 226 0897' },
      ],
      negative: [
        { text: 'NHS number 687 177 5782 (wrong check digit)' },
        { text: 'Call 667-115-0664 for bookings' },
        { text: 'NHS reference 1667 115 0664 9' },
        { text: 'NHS: 6671150664123' },
        { text: 'NHS list item 1. 667 115 0664' },
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
