import type { RuleDef } from '../types.js';
import { digitsOf, kLabelReach, passportPlaceholder } from './shape.js';

// Passport numbers printed without a check digit (only the MRZ adds one) are short letter-digit
// shapes that order ids and SKUs share: every rule here requires its label.
const kPassportWords = ['passport', 'passport no', 'passport number'];

/** Passport and driving-licence numbers of India, Italy and Korea and US states, next to a label. */
export const morePassportRules: readonly RuleDef[] = [
  {
    id: 'in-passport',
    description: 'Indian passport number (a letter and 7 digits) next to the word "passport".',
    family: 'pii',
    tags: ['in', 'passport'],
    enabledByDefault: true,
    trigger: { token: { min: 8, max: 8, needsLetter: true } },
    // The series letter (never Q, X or Z), then a serial whose first and last digits are not 0.
    pattern: '[A-PR-WY][1-9][0-9]{5}[1-9]',
    maxLength: 8,
    // No check digit: without the label a letter and seven digits is only a shape (`low`).
    context: { words: [...kPassportWords, 'passport_no', 'passportno'], before: kLabelReach, without: 'low' },
    validate: (v) => !passportPlaceholder(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"name":"R. Iyer","passportNo":"K4819263","nationality":"IND"}', match: 'K4819263' },
        { text: 'Passport number: T7305512', match: 'T7305512' },
        { text: '{"orderId":"K4819263"}', match: 'K4819263', confidence: 'low' },
      ],
      negative: [
        { text: 'Passport number: Q4819263' },
        { text: 'Passport number: K4819260 and K0819263' },
        { text: 'Passport A1234567 (example)' },
      ],
    },
  },
  {
    id: 'it-passport',
    description: 'Italian passport number (2 letters and 7 digits) next to a passport label.',
    family: 'pii',
    tags: ['it', 'passport'],
    enabledByDefault: true,
    trigger: { token: { min: 9, max: 9, needsLetter: true } },
    pattern: '[A-Z]{2}[0-9]{7}',
    maxLength: 9,
    context: { words: [...kPassportWords, 'passaporto', 'passport_no', 'passportno'], before: kLabelReach },
    validate: (v) => !passportPlaceholder(digitsOf(v)),
    examples: {
      positive: [
        { text: 'Numero passaporto: YA4172093', match: 'YA4172093' },
        { text: '{"passportNumber":"AB8830417","issuingCountry":"ITA"}', match: 'AB8830417' },
      ],
      negative: [
        { text: '{"sku":"YA4172093"}' },
        { text: 'Passaporto AA1234567 (esempio)' },
        { text: 'Passaporto YA41720931' },
      ],
    },
  },
  {
    id: 'kr-passport',
    description: 'South Korean passport number (M, S, R, O or D and 8 digits, or the 2021 form M123A4567) next to a passport label.',
    family: 'pii',
    tags: ['kr', 'passport'],
    enabledByDefault: true,
    trigger: { token: { min: 9, max: 9, needsLetter: true } },
    // Type letters: M multiple, S single, R travel certificate, O official, D diplomatic. Since 2021
    // the fifth character is a letter too.
    pattern: '[MSROD][0-9]{8}|[MSROD][0-9]{3}[A-Z][0-9]{4}',
    maxLength: 9,
    context: { words: [...kPassportWords, 'passport_no', 'passportno'], before: kLabelReach },
    validate: (v) => !passportPlaceholder(digitsOf(v)),
    note: 'Labels are matched in ASCII only (field names, English): the prefilter screens by them; Korean-script pages (여권번호) are not covered.',
    examples: {
      positive: [
        { text: '{"passportNo":"M40917263","country":"KOR"}', match: 'M40917263' },
        { text: 'Passport No. M583K2049', match: 'M583K2049' },
      ],
      negative: [
        { text: '{"ticket":"M40917263"}' },
        { text: 'Passport No. X40917263' },
        { text: 'Passport No. M12345678 (sample)' },
      ],
    },
  },
  {
    id: 'us-driver-license',
    description: "US driver's license number (6 to 14 characters: up to two letters, then digits, as the states issue them) next to a driver's license label.",
    family: 'pii',
    tags: ['us', 'driver-license'],
    enabledByDefault: false,
    note: "Off by default: each state has its own format and none has a check digit, so the label is the only evidence; with it, account and case numbers in the same sentence are still taken.",
    trigger: { token: { min: 6, max: 14 } },
    pattern: '[A-Z]{0,2}[0-9]{6,13}',
    maxLength: 14,
    context: {
      words: [
        'driver license', "driver's license", 'drivers license', 'driver licence', "driver's licence", 'driving licence', 'driving license',
        'driverlicense', 'driverslicense', 'driver_license', 'drivers_license', 'dl number', 'dl no', 'dl#', 'license no', 'licence no',
      ],
      before: kLabelReach,
    },
    validate: (v) => v.length >= 7 && !passportPlaceholder(digitsOf(v)),
    examples: {
      positive: [
        { text: "Driver's license: D4830217", match: 'D4830217' },
        { text: '{"driversLicense":{"number":"K83920175316","state":"FL"}}', match: 'K83920175316' },
        { text: 'DL# 471920385 (NY)', match: '471920385' },
      ],
      negative: [
        { text: 'Order D4830217' },
        { text: "Driver's license: 123456789" },
        { text: "Driver's license: ABC4830217" },
      ],
    },
  },
];
