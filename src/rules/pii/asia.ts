import type { RuleDef } from '../types.js';
import { cnResidentIdValid } from '../../validators/cn-resident-id.js';
import { hkHkidValid } from '../../validators/hk-hkid.js';
import { krRrnValid } from '../../validators/kr-rrn.js';
import { sgNricValid } from '../../validators/sg-nric.js';
import { twNationalIdValid } from '../../validators/tw-national-id.js';
import { verhoeffValid } from '../../validators/verhoeff.js';
import { isCapitalCode } from '../run-match.js';
import { digitsOf, kLabelReach, kRunExtra, oneRepeatedDigit, wholeRun } from './shape.js';

/** Aadhaar numbers never start with 0 or 1; palindromes and one repeated digit are test junk (Presidio drops them too). */
function aadhaarValid(digits: string): boolean {
  return (
    /^[2-9][0-9]{11}$/.test(digits) &&
    digits !== [...digits].reverse().join('') &&
    !oneRepeatedDigit(digits) &&
    verhoeffValid(digits)
  );
}

/**
 * hk-hkid's run gate: the six digits between the letters and the parenthesis of the check character.
 * Letters and `(` never join a run, so they are the whole run (a piece of a long run never is one).
 */
function hkidRunGate(text: string, start: number, end: number): boolean {
  return end - start === 6 && isCapitalCode(text.charCodeAt(start - 1)) && text.charCodeAt(end) === 40;
}

export const asiaRules: readonly RuleDef[] = [
  {
    id: 'in-aadhaar',
    description: 'Indian Aadhaar number in its printed 4-4-4 grouping with a valid Verhoeff check digit.',
    family: 'pii',
    tags: ['in', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 12, max: 12, separators: ' -' } },
    // A whole run only: 4-4-4 inside a spaced card number or IBAN is not an Aadhaar number.
    ...wholeRun('[2-9][0-9]{3} [0-9]{4} [0-9]{4}|[2-9][0-9]{3}-[0-9]{4}-[0-9]{4}'),
    valueIsRun: true,
    // Not followed by a dash either: three all-digit groups inside a UUID (`…-3004-4286-8977-ab…`)
    // are not an Aadhaar number (found by npm run eval on the clean corpus).
    boundary: { left: '', right: 'A-Za-z0-9\\-' },
    maxLength: 14 + kRunExtra,
    validate: (v) => /^[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}$/.test(v) && aadhaarValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"name":"Priya Nair","aadhaar":"4045 3805 8038"}', match: '4045 3805 8038' },
        { text: 'आधार संख्या: 5558-6082-1440', match: '5558-6082-1440' },
        { text: '<td>2974 9921 3553</td>', match: '2974 9921 3553' },
        { text: '<p data-uid="4045&#32;3805&#32;8038">', contentType: 'text/html', match: '4045 3805 8038' },
      ],
      negative: [
        { text: 'Aadhaar 4045 3805 8039 (check digit off by one)' },
        { text: 'card 4111 4045 3805 8038 and IBAN GB29 NWBK 6016 1331 9268 19' },
        { text: 'id 1045 3805 8038 starts with 1' },
        { text: 'ref 4045 3805 80381' },
        { text: '{"id":"9f1c2e7a-4045-3805-8038-b2d4e6f8a0c1"}' },
      ],
    },
  },
  {
    id: 'in-aadhaar-unformatted',
    description: 'Indian Aadhaar number written as 12 bare digits with a valid Verhoeff check digit, next to an Aadhaar label.',
    family: 'pii',
    tags: ['in', 'national-id'],
    enabledByDefault: true,
    // Twelve contiguous digits. (A 12-character token trigger would be lossless too, but fires more:
    // the last group of every UUID is one.)
    trigger: { digits: { min: 12, max: 12, separators: '' } },
    pattern: '[2-9][0-9]{11}',
    maxLength: 12,
    // Twelve bare digits are also AWS account ids and Indian phone numbers with their 91 prefix, of
    // which one in ten passes Verhoeff: without a label a number is only `medium`.
    context: { words: ['aadhaar', 'aadhar', 'adhaar', 'uidai', 'आधार'], before: kLabelReach, without: 'medium' },
    validate: aadhaarValid,
    examples: {
      positive: [
        { text: '{"kyc":{"aadhaar_number":"976014327969","pan":"AFZPK7190K"}}', match: '976014327969' },
        { text: 'Aadhaar No: 297499213553', match: '297499213553' },
        // Without a label Verhoeff alone makes a number medium (so do AWS account ids that pass it).
        { text: '<td>297499213553</td>', match: '297499213553', confidence: 'medium' },
      ],
      negative: [
        { text: 'arn:aws:iam::976014327960:root' },
        { text: '{"aadhaar":"976014327960"}' },
        { text: 'Aadhaar: 9760143279691' },
      ],
    },
  },
  {
    id: 'in-pan',
    description: 'Indian Permanent Account Number (AAAPA9999A) with a valid holder-type letter.',
    family: 'pii',
    tags: ['in', 'tax-id'],
    enabledByDefault: true,
    trigger: { token: { min: 10, max: 10, needsLetter: true } },
    // 4th letter: holder type (P person, C company, H HUF, F firm, A AOP, T trust, B BOI, L local
    // authority, J artificial juridical person, G government). The last letter is a check character
    // whose algorithm is not published.
    pattern: '[A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z]',
    maxLength: 10,
    // The serial runs 0001-9999; ABCPE1234F-style sequences are what forms print as samples.
    validate: (v) => v.slice(5, 9) !== '0000' && !/^ABC.E1234F$/.test(v) && !v.startsWith('AAAPZ1234'),
    note: 'No published check digit: a 10-character token of this exact upper-case shape with a holder-type letter is the only evidence.',
    examples: {
      positive: [
        { text: '{"pan":"AFZPK7190K","name":"R Kumar"}', match: 'AFZPK7190K' },
        { text: 'PAN: BNZCS4821Q (company)', match: 'BNZCS4821Q' },
      ],
      negative: [
        { text: 'PAN format ABCPE1234F, e.g. AAAPZ1234C' },
        { text: 'code AFZDK7190K has holder type D, which does not exist' },
        { text: 'token xAFZPK7190K and AFZPK7190K9 and afzpk7190k' },
      ],
    },
  },
  {
    id: 'cn-resident-id',
    description: 'Chinese resident identity card number (18 characters) with a valid birth date and ISO 7064 MOD 11-2 check character.',
    family: 'pii',
    tags: ['cn', 'national-id'],
    enabledByDefault: true,
    // Seventeen contiguous digits before the check character.
    trigger: { digits: { min: 17, max: 18, separators: '' } },
    pattern: '[1-8][0-9]{5}(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9]{3}[0-9Xx]',
    maxLength: 18,
    validate: cnResidentIdValid,
    examples: {
      positive: [
        { text: '{"姓名":"张伟","身份证号":"440305198802173613"}', match: '440305198802173613' },
        { text: '公民身份号码510104197506052389，住址：成都市', match: '510104197506052389' },
        { text: 'id_card=320102200109309503&mobile=13812345678', match: '320102200109309503' },
        { text: '{"\\u8eab\\u4efd\\u8bc1":"440305198802173613"}', contentType: 'application/json', match: '440305198802173613' },
      ],
      negative: [
        { text: '身份证号 440305198802173614（校验位错误）' },
        { text: 'order 440305198802303617 has 30 February as its date' },
        { text: 'trace 1440305198802173613 and 4403051988021736130' },
      ],
    },
  },
  {
    id: 'kr-rrn',
    description: 'South Korean resident registration number (YYMMDD-GNNNNNC) with a valid date and check digit.',
    family: 'pii',
    tags: ['kr', 'national-id'],
    enabledByDefault: true,
    // The dash after the birth date is part of the number: a bare 13-digit run (a millisecond timestamp) is not.
    trigger: { digits: { min: 13, max: 13, separators: '-', shape: { groups: { within: 13, first: 6, chars: '-', required: true } } } },
    ...wholeRun('[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])-[1-8][0-9]{6}'),
    valueIsRun: true,
    maxLength: 14 + kRunExtra,
    validate: (v) => /^[0-9]{6}-[0-9]{7}$/.test(v) && krRrnValid(v),
    note: 'Numbers issued since October 2020 have random trailing digits and may not carry the check digit; those are missed.',
    examples: {
      positive: [
        { text: '주민등록번호: 850315-2345615 (홍길동)', match: '850315-2345615' },
        { text: '{"rrn":"021107-4123456","name":"김민준"}', match: '021107-4123456' },
        { text: '번호780901-1987650입니다', match: '780901-1987650' },
      ],
      negative: [
        { text: '주민등록번호: 850315-2345616' },
        { text: '전화 010-850315-2345615' },
        { text: 'date 850230-2345611 (30 February)' },
        { text: 'bare 8503152345615' },
      ],
    },
  },
  {
    id: 'kr-rrn-unformatted',
    description: 'South Korean resident registration number written as 13 bare digits with a valid date and check digit, next to an RRN label.',
    family: 'pii',
    tags: ['kr', 'national-id'],
    enabledByDefault: true,
    // Thirteen contiguous digits: millisecond timestamps too, which the label screens out in the
    // shared pass (ASCII words only: a Hangul word would turn that screen off for every timestamp).
    trigger: { digits: { min: 13, max: 13, separators: '' } },
    pattern: '[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[1-8][0-9]{6}',
    maxLength: 13,
    // A label may be glued to the number (`RRN9601211021413`); a digit may not.
    boundary: { left: '0-9', right: 'A-Za-z0-9' },
    context: { words: ['rrn', 'resident registration', 'jumin'], before: kLabelReach },
    validate: krRrnValid,
    note: 'The dashed form is kr-rrn, found without a label; 13 bare digits are also millisecond timestamps, so this form needs an ASCII label (RRN, resident registration number). Hangul labels alone (주민등록번호) are not screened for: the bare form after them is missed.',
    examples: {
      positive: [
        { text: '{"name":"김민준","rrn":"8804171234561"}', match: '8804171234561' },
        { text: 'Resident registration number 9308222876509', match: '9308222876509' },
        { text: 'RRN0203154102342', match: '0203154102342' },
      ],
      negative: [
        { text: 'RRN 8804171234562' },
        { text: '{"ts":1712345678901,"rrn_checked":false}' },
        { text: 'RRN 18804171234561 and 8804171234561x' },
        { text: 'order 9308222876509 shipped' },
      ],
    },
  },
  {
    id: 'hk-hkid',
    description: 'Hong Kong identity card number (A123456(7)) with a valid check character in parentheses.',
    family: 'pii',
    tags: ['hk', 'national-id'],
    enabledByDefault: true,
    // The six digits between the letters and the parenthesis: a block of exactly six digits with a
    // capital before it and `(` after it. (A token trigger, letters and digits of length 7-8, fired on
    // every UUID's first group: 4,087 candidates per MB of the bench's text log, none of them a number.)
    trigger: { digits: { min: 6, max: 6, separators: '', shape: { block: { before: { chars: 'A-Z' }, after: { chars: '(' } } } } },
    // Only the printed form with parentheses: letter(s) + 7 bare characters with a one-in-eleven check
    // is too common a shape for product and order codes.
    runGate: hkidRunGate,
    pattern: '[A-Z]{1,2}[0-9]{6}\\([0-9A]\\)',
    maxLength: 11,
    // A123456(3) is the number every guide prints.
    validate: (v) => v !== 'A123456(3)' && hkHkidValid(v),
    examples: {
      positive: [
        { text: '{"name":"Chan Tai Man","hkid":"K481632(3)"}', match: 'K481632(3)' },
        { text: '香港身份證號碼：XA904215(3)', match: 'XA904215(3)' },
      ],
      negative: [
        { text: 'HKID K481632(4)' },
        { text: 'HKID format A123456(3)' },
        { text: 'part K481632(3X) and sku XK481632(3)' },
      ],
    },
  },
  {
    id: 'tw-national-id',
    description: 'Taiwan national identification number (letter + 9 digits) with a valid check digit.',
    family: 'pii',
    tags: ['tw', 'national-id'],
    enabledByDefault: true,
    trigger: { token: { min: 10, max: 10, needsLetter: true } },
    pattern: '[A-Z][1289][0-9]{8}',
    maxLength: 10,
    // A123456789 is the canonical sample.
    validate: (v) => v !== 'A123456789' && twNationalIdValid(v),
    examples: {
      positive: [
        { text: '{"姓名":"陳美玲","身分證字號":"F228374654"}', match: 'F228374654' },
        { text: '身分證 Q192837462，地址台北市', match: 'Q192837462' },
      ],
      negative: [
        { text: '身分證字號 F228374655' },
        { text: '範例 A123456789' },
        { text: 'sku F328374654 and F2283746541 and xF228374654' },
      ],
    },
  },
  {
    id: 'sg-nric',
    description: 'Singapore NRIC or FIN (S/T/F/G/M + 7 digits + check letter) with a valid check letter.',
    family: 'pii',
    tags: ['sg', 'national-id'],
    enabledByDefault: true,
    trigger: { token: { min: 9, max: 9, needsLetter: true } },
    pattern: '[STFGM][0-9]{7}[A-Z]',
    // The value is the whole 9-character token: its validator is its gate, before any pattern call.
    valueIsRun: true,
    // Typed into forms in lower case too (`s8812345z`); never mixed, ASCII only (`ſ` is an `s` to a
    // case-insensitive pattern).
    ignoreCase: true,
    maxLength: 9,
    validate: (v) => /^[A-Za-z0-9]+$/.test(v) && (v === v.toUpperCase() || v === v.toLowerCase()) && sgNricValid(v.toUpperCase()),
    examples: {
      positive: [
        { text: '{"nric":"S8812345Z","name":"Tan Wei Ming"}', match: 'S8812345Z' },
        { text: 'FIN: G5512390Q; NRIC T0254321J', match: 'G5512390Q' },
        { text: 'M-series FIN M4567890X issued 2023', match: 'M4567890X' },
        { text: '{"nric":"t0254321j"}', match: 't0254321j' },
      ],
      negative: [
        { text: 'NRIC S8812345A (wrong check letter)' },
        { text: 'code X8812345Z, s8812345a and mixed case s8812345Z' },
        { text: 'id AS8812345Z or S8812345Z0' },
      ],
    },
  },
];
