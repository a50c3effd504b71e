import type { RuleDef } from '../types.js';
import { auMedicareValid } from '../../validators/au-medicare.js';
import { auTfnValid } from '../../validators/au-tfn.js';
import { digitsOf, kLabelReach, kRunExtra, labelledRun } from './shape.js';

export const auRules: readonly RuleDef[] = [
  {
    id: 'au-tfn',
    description: 'Australian Tax File Number (8 or 9 digits) passing the weighted mod-11 check, next to a TFN label.',
    family: 'pii',
    tags: ['au', 'tax-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 8, max: 9, separators: ' -' } },
    ...labelledRun('[0-9]{3} [0-9]{3} [0-9]{2,3}|[0-9]{3}-[0-9]{3}-[0-9]{2,3}|[0-9]{8,9}'),
    maxLength: 11 + kRunExtra,
    // One number in eleven passes the check and 3-3-3 is a common phone grouping: the label is required.
    context: { words: ['tfn', 'tax file number', 'tax file no'], before: kLabelReach },
    // 123 456 782 is the number tutorials print as an example.
    validate: (v) =>
      /^[0-9]{3}([ -])[0-9]{3}\1[0-9]{2,3}$|^[0-9]{8,9}$/.test(v) && digitsOf(v) !== '123456782' && auTfnValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"employee":"J. Nguyen","tfn":"552 068 552"}', match: '552 068 552' },
        { text: 'Tax File Number: 441785967', match: '441785967' },
        { text: 'TFN (old format) 91257059', match: '91257059' },
        { text: 'TFN 512 283 632', match: '512 283 632' },
      ],
      negative: [
        { text: 'TFN 552 068 553' },
        { text: 'Phone 552 068 552 after hours' },
        { text: 'TFN: 123 456 782 (example)' },
        { text: 'TFN 1 552 068 552' },
      ],
    },
  },
  {
    id: 'au-medicare',
    description: 'Australian Medicare card number (10 or 11 digits starting 2-6) with a valid check digit, next to a Medicare label.',
    family: 'pii',
    tags: ['au', 'health-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 10, max: 11, separators: ' ' } },
    ...labelledRun('[2-6][0-9]{3} [0-9]{5} [0-9](?: [1-9])?|[2-6][0-9]{9,10}'),
    maxLength: 14 + kRunExtra,
    // A one-in-ten check digit on a 10-digit number: without the label a number is only `medium`.
    context: { words: ['medicare'], before: kLabelReach, without: 'medium' },
    validate: (v) => /^[0-9]{4} [0-9]{5} [0-9](?: [0-9])?$|^[0-9]{10,11}$/.test(v) && auMedicareValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"medicareNumber":"2951461751","irn":1}', match: '2951461751' },
        { text: 'Medicare card: 3517 02837 5 2', match: '3517 02837 5 2' },
        { text: 'Medicare No. 61234509031', match: '61234509031' },
        // Without the label the check digit alone makes a number medium.
        { text: 'invoice 2951461751', match: '2951461751', confidence: 'medium' },
      ],
      negative: [
        { text: 'Medicare 2951 46176 1' },
        { text: 'invoice 2951461761' },
        { text: 'Medicare 7951461751 (no card starts with 7)' },
        { text: 'Medicare ref 1 2951 46175 1' },
      ],
    },
  },
];
