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

/**
 * HMRC's National Insurance Manual NIM39110, restated as lists: D, F, I, Q, U and V are never a
 * prefix letter, O never the second, and BG, GB, KN, NK, NT, TN and ZZ are not allocated.
 */
function reference(prefix: string): boolean {
  const never = 'DFIQUV';
  if (never.includes(prefix[0]!) || never.includes(prefix[1]!) || prefix[1] === 'O') return false;
  return !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(prefix);
}

describe('ukNinoValid', () => {
  it.each(valid)('accepts %s', (v) => expect(ukNinoValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(ukNinoValid(v)).toBe(false));

  it('agrees with NIM39110 on all 676 prefixes and every suffix letter', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of letters) {
      for (const b of letters) {
        for (const s of letters) expect(ukNinoValid(`${a}${b}123456${s}`), `${a}${b}123456${s}`).toBe(reference(a + b) && 'ABCD'.includes(s));
      }
    }
  });
});
