import { describe, expect, it } from 'vitest';
import { usSsnValid } from '../../src/validators/us-ssn.js';

// SSNs have no check digit: these are synthetic numbers inside the issued ranges.
const valid = ['536-22-8714', '536 22 8714', '536228714', '001-01-0001', '665-99-9999', '899-45-1234', '078-05-1121'];
const invalid = [
  '000-22-8714', // area 000
  '666-22-8714', // area 666
  '900-22-8714', // 9xx: ITIN / advertising
  '987-65-4321',
  '536-00-8714', // group 00
  '536-22-0000', // serial 0000
  '078-05-1120', // Woolworth wallet card
  '219-09-9999', // SSA pamphlet
  '123-45-6789',
  '111-11-1111',
  '536-22-871', // eight digits
  '536-22-87145',
  '536/22/8714',
];

describe('usSsnValid', () => {
  it.each(valid)('accepts %s', (v) => expect(usSsnValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(usSsnValid(v)).toBe(false));
});
