import type { RuleDef } from '../types.js';
import { usSsnValid } from '../../validators/us-ssn.js';
import { digitsOf, kLabelReach, kRunExtra, oneRepeatedDigit, passportPlaceholder, wholeRun } from './shape.js';

const kSsnShape = /^[0-9]{3}([- ])[0-9]{2}\1[0-9]{4}$/;
// ITIN group (4th-5th digits) ranges assigned by the IRS: 50-65, 70-88, 90-92, 94-99.
const kItinGroup = '(?:5[0-9]|6[0-5]|7[0-9]|8[0-8]|9[0-24-9])';

export const usRules: readonly RuleDef[] = [
  {
    id: 'us-ssn',
    description: 'US Social Security Number written with separators (123-45-6789), never-issued and published sample numbers excluded.',
    family: 'pii',
    tags: ['us', 'national-id'],
    enabledByDefault: true,
    // 3-2-4 joined by `-` or a space: dots do not join the run, so dotted versions and IPs stay quiet.
    // No area starts with 9 (the validator's rule; those are ITINs): checked in the shared pass.
    trigger: { digits: { min: 9, max: 9, separators: ' -', shape: { first: '012345678' } } },
    // Separators are required, as in Cloudflare's DLP profile: nine bare digits are any number at all.
    ...wholeRun('[0-9]{3}-[0-9]{2}-[0-9]{4}|[0-9]{3} [0-9]{2} [0-9]{4}'),
    valueIsRun: true,
    maxLength: 11 + kRunExtra,
    validate: (v) => kSsnShape.test(v) && usSsnValid(v),
    examples: {
      positive: [
        { text: '{"name":"Dana Whitfield","ssn":"536-22-8714","dob":"1984-03-09"}', match: '536-22-8714' },
        { text: '<td class="ssn">401 68 2297</td>', match: '401 68 2297' },
        { text: 'Applicant SSN: 212-09-7781; employer EIN 12-3456789', match: '212-09-7781' },
        { text: '{"ssn":"536\\u002d22\\u002d8714"}', contentType: 'application/json', match: '536-22-8714' },
      ],
      negative: [
        { text: 'Example SSN 078-05-1120 (the Woolworth card) and 123-45-6789 are not real.' },
        { text: '{"ssn":"666-12-3456","alt":"900-12-3456","g":"536-00-8714","s":"536-22-0000"}' },
        { text: 'Call 1-536-22-8714-2 or visit; tracking 4536-22-8714' },
        { text: 'order 536228714 shipped; mixed 536-22 8714' },
        { text: 'card 4111 536 22 8714 1111' },
      ],
    },
  },
  {
    id: 'us-itin',
    description: 'US Individual Taxpayer Identification Number (9XX-7X-XXXX with the IRS group ranges), written with separators.',
    family: 'pii',
    tags: ['us', 'tax-id'],
    enabledByDefault: true,
    // Every ITIN starts with 9 (the pattern's and the validator's first test), checked in the shared pass.
    trigger: { digits: { min: 9, max: 9, separators: ' -', shape: { first: '9' } } },
    ...wholeRun(`9[0-9]{2}-${kItinGroup}-[0-9]{4}|9[0-9]{2} ${kItinGroup} [0-9]{4}`),
    valueIsRun: true,
    maxLength: 11 + kRunExtra,
    validate: (v) => v.charCodeAt(0) === 57 && kSsnShape.test(v) && !oneRepeatedDigit(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"taxpayer":{"itin":"912-78-3456","country":"MX"}}', match: '912-78-3456' },
        { text: 'ITIN 977 88 1020 issued 2021', match: '977 88 1020' },
      ],
      negative: [
        { text: 'ITIN 912-93-3456 has group 93, which the IRS never assigns' },
        { text: 'ref 912-45-3456 (group below 50) and 812-78-3456 (not a 9XX area)' },
        { text: 'serial 1-912-78-3456-7 and 912783456 unformatted' },
        { text: 'placeholder 999-99-9999' },
      ],
    },
  },
  {
    id: 'us-passport',
    description: 'US passport book or card number (9 digits, or a letter and 8 digits) next to the word "passport".',
    family: 'pii',
    tags: ['us', 'passport'],
    enabledByDefault: true,
    // The default boundaries make every match a whole 9-character alphanumeric token; that fires far
    // less than runs of 8+ digits (millisecond timestamps, long ids).
    trigger: { token: { min: 9, max: 9 } },
    pattern: '[A-Z][0-9]{8}|[0-9]{9}',
    maxLength: 9,
    // No check digit exists outside the MRZ: the shape is any 9-digit number, so the label is required.
    context: { words: ['passport'], before: kLabelReach },
    validate: (v) => !passportPlaceholder(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"traveler":"M. Ortiz","passportNumber":"A47281936","nationality":"USA"}', match: 'A47281936' },
        { text: '<dt>U.S. Passport No.</dt><dd>563920147</dd>', match: '563920147' },
      ],
      negative: [
        { text: '{"orderId":"563920147","sku":"A47281936"}' },
        { text: 'Passport number: 123456789 (example)' },
        { text: 'passport 5639201470 has ten digits; passport AB4728193 has two letters' },
      ],
    },
  },
];
