import { describe, expect, it } from 'vitest';
import { ukNinoValid } from '../../src/validators/uk-nino.js';

// There is no check character: the vectors exercise HMRC's prefix and suffix rules.
const valid = ['JT 44 82 19 B', 'JT448219B', 'WP602715A', 'SK 73 05 41 D', 'AB123456C', 'CE000001A', 'ZY999999D'];
const invalid = [
  'QQ 12 34 56 C', // Q is never a first or second letter (HMRC's own printed example)
  'DA123456A', // D first
  'FA123456A',
  'IA123456A',
  'UA123456A',
  'VA123456A',
  'AO123456A', // O second
  'AD123456A', // D second
  'BG123456A', // unallocated pairs
  'GB123456A',
  'KN123456A',
  'NK123456A',
  'NT123456A',
  'TN123456A',
  'ZZ123456A',
  'JT448219E', // suffix beyond D
  'JT44821B', // five digits
  'jt448219b',
];

describe('ukNinoValid', () => {
  it.each(valid)('accepts %s', (v) => expect(ukNinoValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(ukNinoValid(v)).toBe(false));
});
