import type { RuleDef } from '../types.js';
import { auAbnValid } from '../../validators/au-abn.js';
import { auAcnValid } from '../../validators/au-acn.js';
import { brCnpjValid } from '../../validators/br-cnpj.js';
import { thNationalIdValid } from '../../validators/th-national-id.js';
import { digitsOf, kLabelReach, kRunExtra, labelledRun, oneRepeatedDigit, wholeRun } from './shape.js';

const kAbnGrouped = /^[0-9]{2} [0-9]{3} [0-9]{3} [0-9]{3}$/;
const kAcnShape = /^[0-9]{3} [0-9]{3} [0-9]{3}$|^[0-9]{9}$/;
const kThGrouped = /^[1-8]([ -])[0-9]{4}\1[0-9]{5}\1[0-9]{2}\1[0-9]$/;
/** br-cnpj's run gate (see `RuleDef.runGate`): the run is a printed root, `11.222.333`, and a slash follows. */
function cnpjRunGate(text: string, start: number, end: number): boolean {
  return end - start === 10 && text.charCodeAt(end) === 47 && /^[0-9]{2}\.[0-9]{3}\.[0-9]{3}$/.test(text.slice(start, end));
}

/**
 * A run gate for the labelled bare forms (see `RuleDef.runGate`): some piece of the run between
 * separators other than `keep` holds exactly `count` digits that pass `valid`. The shared tracker
 * joins runs with every digit rule's separators, so the rule's own value may be one piece of the run.
 */
function checkedPiece(count: number, keep: string, valid: (digits: string) => boolean): (text: string, start: number, end: number) => boolean {
  return (text, start, end) => {
    let digits = '';
    for (let i = start; i <= end; i++) {
      const c = i < end ? text.charCodeAt(i) : -1;
      if (c >= 48 && c <= 57) digits += text[i];
      else if (c === -1 || !keep.includes(text[i]!)) {
        if (digits.length === count && valid(digits)) return true;
        digits = '';
      }
    }
    return false;
  };
}

const kAcnLabels = ['acn', 'australian company number', 'company number', 'company no', 'arbn'];

/** Business and national numbers of Australia, Brazil and Thailand (company registers and citizen ids). */
export const moreIdRules: readonly RuleDef[] = [
  {
    id: 'au-abn',
    description: 'Australian Business Number in its printed 2-3-3-3 grouping passing the mod-89 check.',
    family: 'pii',
    tags: ['au', 'business-id'],
    enabledByDefault: true,
    // Only the printed grouping (`51 824 753 556`): the first separator after two digits.
    trigger: { digits: { min: 11, max: 11, separators: ' ', shape: { groups: { within: 11, first: 2, chars: ' ', required: true } } } },
    ...wholeRun('[0-9]{2} [0-9]{3} [0-9]{3} [0-9]{3}'),
    valueIsRun: true,
    maxLength: 14 + kRunExtra,
    // One number in 89 passes: with the grouping, that is rare enough to go without a label.
    validate: (v) => kAbnGrouped.test(v) && auAbnValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '<td>ABN</td><td>91 526 018 159</td>', match: '91 526 018 159' },
        { text: 'Acme Widgets Pty Ltd 60 186 091 390', match: '60 186 091 390' },
      ],
      negative: [
        { text: 'ABN 91 526 018 158' },
        { text: 'call 12 345 678 901' },
        { text: 'ref 4 91 526 018 159' },
        { text: 'ABN 52083016613 (see au-abn-unformatted)' },
      ],
    },
  },
  {
    id: 'au-abn-unformatted',
    description: 'Australian Business Number written as 11 bare digits passing the mod-89 check, next to an ABN label.',
    family: 'pii',
    tags: ['au', 'business-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 11, max: 11, separators: '' } },
    runGate: checkedPiece(11, '', auAbnValid),
    ...labelledRun('[0-9]{11}'),
    maxLength: 11 + kRunExtra,
    // Eleven bare digits are also phone numbers and order ids: the label is required.
    context: { words: ['abn', 'australian business number', 'business number'], before: kLabelReach },
    validate: (v) => /^[0-9]{11}$/.test(v) && auAbnValid(v),
    examples: {
      positive: [
        { text: '{"supplier":"Acme Widgets","abn":"52083016613"}', match: '52083016613' },
        { text: 'Australian Business Number: 60186091390', match: '60186091390' },
      ],
      negative: [
        { text: '{"abn":"52083016614"}' },
        { text: '{"orderId":"52083016613"}' },
      ],
    },
  },
  {
    id: 'au-acn',
    description: 'Australian Company Number (9 digits, grouped 3-3-3 or bare) with a valid check digit, next to an ACN label.',
    family: 'pii',
    tags: ['au', 'business-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 9, max: 9, separators: ' ' } },
    runGate: checkedPiece(9, ' ', auAcnValid),
    ...labelledRun('[0-9]{3} [0-9]{3} [0-9]{3}|[0-9]{9}'),
    maxLength: 11 + kRunExtra,
    // A one-in-ten check digit and the 3-3-3 grouping of phone numbers: the label is required.
    context: { words: kAcnLabels, before: kLabelReach },
    validate: (v) => kAcnShape.test(v) && !oneRepeatedDigit(digitsOf(v)) && auAcnValid(digitsOf(v)),
    examples: {
      positive: [
        { text: 'Acme Widgets Pty Ltd ACN 462 819 487', match: '462 819 487' },
        { text: '{"company":"Acme Widgets","acn":"219935181"}', match: '219935181' },
      ],
      negative: [
        { text: 'ACN 462 819 486' },
        { text: 'Phone 462 819 487 after hours' },
        { text: 'ACN 000 000 000' },
      ],
    },
  },
  {
    id: 'au-acn-unlabelled',
    description: 'Australian Company Number (9 digits, grouped 3-3-3 or bare) with a valid check digit, without a label.',
    family: 'pii',
    tags: ['au', 'business-id'],
    enabledByDefault: false,
    note: 'Off by default: one 9-digit number in ten passes the check digit, so without a label most matches are phone numbers and ids.',
    trigger: { digits: { min: 9, max: 9, separators: ' ' } },
    ...wholeRun('[0-9]{3} [0-9]{3} [0-9]{3}|[0-9]{9}'),
    valueIsRun: true,
    maxLength: 11 + kRunExtra,
    validate: (v) => kAcnShape.test(v) && !oneRepeatedDigit(digitsOf(v)) && auAcnValid(digitsOf(v)),
    examples: {
      positive: [
        { text: 'Acme Widgets Pty Ltd 462 819 487', match: '462 819 487' },
        { text: '<td>219935181</td>', match: '219935181' },
      ],
      negative: [{ text: 'id 462 819 486' }, { text: 'id 1 462 819 487' }],
    },
  },
  {
    id: 'br-cnpj',
    description: 'Brazilian CNPJ company number in its printed form (11.222.333/0001-81) with valid check digits.',
    family: 'pii',
    tags: ['br', 'business-id'],
    enabledByDefault: true,
    // The run is the root `11.222.333`, dots after its second and fifth digits; a slash follows it.
    trigger: {
      digits: { min: 8, max: 8, separators: '.', shape: { groups: { within: 8, first: 2, chars: '.', required: true }, after: { chars: '/' } } },
    },
    runGate: cnpjRunGate,
    pattern: '[0-9]{2}\\.[0-9]{3}\\.[0-9]{3}/[0-9]{4}-[0-9]{2}',
    maxLength: 18,
    lead: 0,
    boundary: { left: 'A-Za-z0-9.', right: 'A-Za-z0-9' },
    validate: (v) => brCnpjValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"razaoSocial":"Exemplo Ltda","cnpj":"19.093.786/0001-67"}', match: '19.093.786/0001-67' },
        { text: '<td>CNPJ</td><td>57.975.432/0001-35</td>', match: '57.975.432/0001-35' },
      ],
      negative: [
        { text: 'CNPJ 19.093.786/0001-68' },
        { text: 'CNPJ 00.000.000/0000-00' },
        { text: 'CNPJ 19.093.786/0001-6' },
      ],
    },
  },
  {
    id: 'br-cnpj-unformatted',
    description: 'Brazilian CNPJ company number written as 14 bare digits with valid check digits, next to a CNPJ label.',
    family: 'pii',
    tags: ['br', 'business-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 14, max: 14, separators: '' } },
    runGate: checkedPiece(14, '', brCnpjValid),
    ...labelledRun('[0-9]{14}'),
    maxLength: 14 + kRunExtra,
    context: { words: ['cnpj', 'cadastro nacional da pessoa'], before: kLabelReach },
    validate: (v) => /^[0-9]{14}$/.test(v) && brCnpjValid(v),
    examples: {
      positive: [{ text: '{"cnpj":"19093786000167"}', match: '19093786000167' }],
      negative: [{ text: '{"cnpj":"19093786000168"}' }, { text: '{"pedido":"19093786000167"}' }],
    },
  },
  {
    id: 'th-national-id',
    description: 'Thai national identification number in its printed 1-4-5-2-1 grouping with a valid mod-11 check digit.',
    family: 'pii',
    tags: ['th', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 13, max: 13, separators: ' -', shape: { first: '12345678', groups: { within: 13, first: 1, chars: ' -', required: true } } } },
    ...wholeRun('[1-8]-[0-9]{4}-[0-9]{5}-[0-9]{2}-[0-9]|[1-8] [0-9]{4} [0-9]{5} [0-9]{2} [0-9]'),
    valueIsRun: true,
    maxLength: 17 + kRunExtra,
    validate: (v) => kThGrouped.test(v) && thNationalIdValid(digitsOf(v)),
    examples: {
      positive: [
        { text: 'เลขประจำตัวประชาชน 1-1017-00207-34-0', match: '1-1017-00207-34-0' },
        { text: '{"citizenId":"3 6201 00145 73 5"}', match: '3 6201 00145 73 5' },
      ],
      negative: [
        { text: 'เลขประจำตัวประชาชน 1-1017-00207-34-1' },
        { text: 'id 9-1017-00207-34-0' },
        { text: 'part 1-1017-00207-34-0-7' },
      ],
    },
  },
  {
    id: 'th-national-id-unformatted',
    description: 'Thai national identification number written as 13 bare digits with a valid check digit, next to a label.',
    family: 'pii',
    tags: ['th', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 13, max: 13, separators: '' } },
    runGate: checkedPiece(13, '', thNationalIdValid),
    ...labelledRun('[1-8][0-9]{12}'),
    maxLength: 13 + kRunExtra,
    // Thirteen digits are also millisecond timestamps: the label is required. ASCII labels only (field
    // names, English): the prefilter screens those before any candidate leaves it, and every
    // timestamp would otherwise reach the matcher. Thai-script pages print the grouped form.
    context: {
      words: ['thai id', 'national id', 'nationalid', 'national_id', 'citizen id', 'citizenid', 'citizen_id', 'id card', 'idcard', 'id_card'],
      before: kLabelReach,
    },
    validate: (v) => /^[0-9]{13}$/.test(v) && thNationalIdValid(v),
    examples: {
      positive: [
        { text: '{"citizenId":"1101700207340"}', match: '1101700207340' },
        { text: 'Thai ID card no. 3620100145735', match: '3620100145735' },
      ],
      negative: [{ text: '{"citizenId":"1101700207341"}' }, { text: '{"createdAt":"1101700207340"}' }],
    },
  },
];
