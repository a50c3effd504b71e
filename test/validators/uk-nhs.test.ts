import { describe, expect, it } from 'vitest';
import { ukNhsValid } from '../../src/validators/uk-nhs.js';

// 9434765919 is the example most NHS-number documentation uses; the others were computed independently.
const valid = ['9434765919', '6871775781', '6671150664', '6542260897'];
// One digit of a valid number increased by one (first, middle, check digit).
const invalid = [
  '0434765919', '9434865919', '9434765910',
  '7871775781', '6871875781', '6871775782',
  '7671150664', '6671250664', '6671150665',
  '7542260897', '6542360897', '6542260898',
  // The first nine digits give a check value of 10: no check digit can make this number valid.
  '4000000080', '4000000081', '4000000089',
];

describe('ukNhsValid', () => {
  it.each(valid)('accepts %s', (v) => expect(ukNhsValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(ukNhsValid(v)).toBe(false));
  it.each(['943 476 5919', '943476591', '94347659190'])('rejects malformed %j', (v) => expect(ukNhsValid(v)).toBe(false));
});
