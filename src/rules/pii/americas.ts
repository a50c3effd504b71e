import type { RuleDef } from '../types.js';
import { brCpfValid } from '../../validators/br-cpf.js';
import { luhnValid } from '../../validators/luhn.js';
import { mxCurpValid } from '../../validators/mx-curp.js';
import { digitsOf, kLabelReach, kRunExtra, runEnd, wholeRun } from './shape.js';

export const americasRules: readonly RuleDef[] = [
  {
    id: 'ca-sin',
    description: 'Canadian Social Insurance Number with a valid Luhn check digit, next to a SIN label.',
    family: 'pii',
    tags: ['ca', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 9, separators: ' -' } },
    ...runEnd('[0-9]{3} [0-9]{3} [0-9]{3}|[0-9]{3}-[0-9]{3}-[0-9]{3}|[0-9]{9}'),
    maxLength: 11 + kRunExtra,
    // Luhn passes one 9-digit number in ten, and 3-3-3 is how Spanish, Polish and Portuguese mobile
    // numbers are written, so a label is required. The bare word "sin" is a substring of "using",
    // "since", "single"…, hence the punctuated forms and `sin ` with its space (kept outside the match
    // by `runEnd`).
    context: {
      words: ['social insurance', 'assurance sociale', 'sin ', 'sin:', 'sin#', 'sin no', 'sin number', '"sin"', "'sin'", 'sin_', 'sin=', '(sin)', 'nas:'],
      before: kLabelReach,
    },
    // First digit: province of registration; 0 is never issued and 8 is business numbers.
    validate: (v) => {
      if (!/^[0-9]{3}([ -])[0-9]{3}\1[0-9]{3}$|^[0-9]{9}$/.test(v)) return false;
      const d = digitsOf(v);
      return d[0] !== '0' && d[0] !== '8' && luhnValid(d);
    },
    examples: {
      positive: [
        { text: '{"employee":{"sin":"649 106 549","province":"ON"}}', match: '649 106 549' },
        { text: 'Social Insurance Number (SIN): 121-035-034', match: '121-035-034' },
        { text: 'Numéro d’assurance sociale : 316750199', match: '316750199' },
        { text: 'SIN# 649-106-549', match: '649-106-549' },
        { text: 'Employee SIN 121 035 034, start date 2024-02-01', match: '121 035 034' },
      ],
      negative: [
        { text: 'SIN: 649 106 540 (bad check digit)' },
        { text: 'Llámenos al 649 106 549 o escriba' },
        { text: 'Using 649106549 since 2019' },
        { text: 'SIN: 046 454 286 is the widely published sample' },
        { text: 'SIN: 1 649 106 549 2' },
      ],
    },
  },
  {
    id: 'br-cpf',
    description: 'Brazilian CPF number in its printed form (123.456.789-09) with valid check digits.',
    family: 'pii',
    tags: ['br', 'national-id'],
    enabledByDefault: true,
    // Only the punctuated form (ddd.ddd.ddd-dd): dots after the third and sixth digits.
    trigger: { digits: { min: 11, max: 11, separators: '.-', shape: { groups: { within: 9, first: 3, chars: '.', required: true } } } },
    ...wholeRun('[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}-[0-9]{2}'),
    valueIsRun: true,
    maxLength: 14 + kRunExtra,
    validate: (v) => /^[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}$/.test(v) && brCpfValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"cliente":"João Souza","cpf":"224.908.075-52"}', match: '224.908.075-52' },
        { text: '<span>165.614.053-58</span>', match: '165.614.053-58' },
      ],
      negative: [
        { text: 'CPF 224.908.075-53 (dígito errado)' },
        { text: 'CPF 111.111.111-11 e 000.000.000-00' },
        { text: 'versão 1.224.908.075-52' },
        { text: 'CNPJ 11.222.333/0001-81' },
      ],
    },
  },
  {
    id: 'br-cpf-unformatted',
    description: 'Brazilian CPF number written without dots (11 digits) with valid check digits, next to a CPF label.',
    family: 'pii',
    tags: ['br', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 11, separators: '-' } },
    pattern: '[0-9]{9}-?[0-9]{2}',
    maxLength: 12,
    // Two check digits still pass one 11-digit number in a hundred, and 11 digits is the length of a
    // Brazilian or Chinese mobile number, so the bare form needs its label.
    context: { words: ['cpf', 'cadastro de pessoa'], before: kLabelReach },
    validate: (v) => brCpfValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"nome":"Ana Lima","cpf":"23526915911"}', match: '23526915911' },
        { text: 'CPF: 165614053-58', match: '165614053-58' },
      ],
      negative: [
        { text: 'telefone 11987654321, pedido 23526915911' },
        { text: '{"cpf":"23526915912"}' },
        { text: '{"cpf":"11111111111"}' },
      ],
    },
  },
  {
    id: 'mx-curp',
    description: 'Mexican CURP population registry code (18 characters) with a valid birth date, state code and check digit.',
    family: 'pii',
    tags: ['mx', 'national-id'],
    enabledByDefault: true,
    trigger: { token: { min: 18, max: 18, needsLetter: true } },
    pattern: '[A-Z][AEIOUX][A-Z]{2}[0-9]{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]',
    maxLength: 18,
    validate: mxCurpValid,
    examples: {
      positive: [
        { text: '{"nombre":"Ana Gómez","curp":"GOMA850312HDFNRN04"}', match: 'GOMA850312HDFNRN04' },
        { text: 'CURP: PELS020915MJCRPFA3', match: 'PELS020915MJCRPFA3' },
      ],
      negative: [
        { text: 'CURP GOMA850312HDFNRN05' },
        { text: 'CURP GOMA850312HXXNRN03 (no state XX)' },
        { text: 'id xGOMA850312HDFNRN04 and GOMA850312HDFNRN041' },
      ],
    },
  },
];
