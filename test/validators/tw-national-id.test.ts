import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { twNationalIdValid } from '../../src/validators/tw-national-id.js';
import { digitChanges } from './helpers.js';

/**
 * A second implementation from the Ministry of the Interior's letter table, written as letter → code
 * (A 10 … H 17, J 18 … N 22, P 23 … V 29, X 30, Y 31, W 32, Z 33, I 34, O 35): the two digits of the
 * code and the nine digits are weighted 1 9 8 7 6 5 4 3 2 1 1 and the sum is a multiple of 10.
 */
const kCodes: Record<string, number> = {
  A: 10, B: 11, C: 12, D: 13, E: 14, F: 15, G: 16, H: 17, J: 18, K: 19, L: 20, M: 21, N: 22,
  P: 23, Q: 24, R: 25, S: 26, T: 27, U: 28, V: 29, X: 30, Y: 31, W: 32, Z: 33, I: 34, O: 35,
};
const kWeights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1];
function reference(v: string): boolean {
  if (!/^[A-Z][1289][0-9]{8}$/.test(v)) return false;
  const digits = String(kCodes[v[0]!]) + v.slice(1);
  return kWeights.reduce((s, w, i) => s + w * Number(digits[i]), 0) % 10 === 0;
}
const complete = (nine: string): string => {
  for (let d = 0; d < 10; d++) if (reference(`${nine}${d}`)) return `${nine}${d}`;
  throw new Error('unreachable');
};

describe('twNationalIdValid', () => {
  it('accepts A123456789, the number of most explanations, checked by hand', () => {
    // A = 10: 1·1 + 0·9 + 1·8 + 2·7 + 3·6 + 4·5 + 5·4 + 6·3 + 7·2 + 8·1 + 9·1 = 130.
    expect(twNationalIdValid('A123456789')).toBe(true);
    expect(reference('A123456789')).toBe(true);
  });

  // Synthetic numbers; each is also checked by the second implementation.
  it.each(['F228374654', 'Q192837462', 'Z246801356'])('accepts %s', (v) => {
    expect(twNationalIdValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the letter table on every letter and check digit', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1289][0-9]{7}$/), (body) => {
        for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
          for (let d = 0; d < 10; d++) expect(twNationalIdValid(`${l}${body}${d}`), `${l}${body}${d}`).toBe(reference(`${l}${body}${d}`));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rejects a digit change of δ at weight w whenever δ·w is not a multiple of 10', () => {
    // Weights 8, 6, 4, 2 miss a change by 5, weight 5 an even change; 7, 3, 1 see every change.
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(kCodes)), fc.stringMatching(/^[12][0-9]{7}$/), fc.integer({ min: 2, max: 9 }), (l, body, at) => {
        const valid = complete(`${l}${body}`);
        for (const c of digitChanges(valid, at)) {
          const delta = Number(c[at]) - Number(valid[at]);
          if ((delta * (at === 9 ? 1 : 9 - at)) % 10 !== 0) expect(twNationalIdValid(c), c).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    'A123456780', // check + 1
    'F228374754', // one digit + 1 (its check would be 2)
    'G228374654', // letter + 1 (its check would be 5)
    'F328374654', // gender digit 3 does not exist
    'f228374654',
    'F22837465',
  ])('rejects %s', (v) => expect(twNationalIdValid(v)).toBe(false));
});
