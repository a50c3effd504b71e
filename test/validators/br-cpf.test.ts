import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brCpfValid } from '../../src/validators/br-cpf.js';
import { digitChanges, swapAt } from './helpers.js';

/**
 * A second implementation in the ascending form of the Receita Federal's rule: the first check digit
 * is (Σ dᵢ·i for i = 1..9) mod 11, the second (Σ dᵢ·(i − 1) for i = 1..10) mod 11, each 10 → 0. It
 * equals the descending "11 − sum mod 11" form because the two weights of a position add up to 11.
 */
function checkDigits(base9: string): string {
  let s1 = 0;
  for (let i = 0; i < 9; i++) s1 += Number(base9[i]) * (i + 1);
  const d1 = (s1 % 11) % 10;
  const ten = `${base9}${d1}`;
  let s2 = 0;
  for (let i = 0; i < 10; i++) s2 += Number(ten[i]) * i;
  return `${d1}${(s2 % 11) % 10}`;
}
const reference = (v: string): boolean => /^[0-9]{11}$/.test(v) && !/^(.)\1{10}$/.test(v) && checkDigits(v.slice(0, 9)) === v.slice(9);

describe('brCpfValid', () => {
  it('accepts 111.444.777-35, the CPF of most developer documentation', () => {
    // By hand: 1·1 + 1·2 + 1·3 + 4·4 + 4·5 + 4·6 + 7·7 + 7·8 + 7·9 = 234 ≡ 3, then
    // 1·1 + 1·2 + 4·3 + 4·4 + 4·5 + 7·6 + 7·7 + 7·8 + 3·9 = 225 ≡ 5 (mod 11).
    expect(brCpfValid('11144477735')).toBe(true);
    expect(checkDigits('111444777')).toBe('35');
  });

  // Synthetic numbers; each is also checked by the ascending form.
  it.each(['22490807552', '16561405358', '23526915911'])('accepts %s', (v) => {
    expect(brCpfValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the ascending form on random numbers and on every pair of check digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (base) => {
        const good = checkDigits(base);
        for (let k = 0; k < 100; k++) {
          const v = `${base}${String(k).padStart(2, '0')}`;
          expect(brCpfValid(v), v).toBe(reference(v));
        }
        if (!/^(.)\1{10}$/.test(base + good)) expect(brCpfValid(base + good)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects single-digit changes and adjacent transpositions unless a check digit is 0', () => {
    // Both sums weigh every position by a non-zero amount mod 11 (but the first digit weighs 11 ≡ 0 in
    // the second), and neighbours' weights differ; the one weakness is that remainders 0 and 1 both
    // give check digit 0. So an error can only go unseen when it turns a remainder 0 into 1 or back,
    // which needs a check digit 0 on both sides: the check digits themselves are always guarded.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), fc.nat(10), (base, at) => {
        const valid = base + checkDigits(base);
        fc.pre(!/^(.)\1{10}$/.test(valid));
        for (const c of digitChanges(valid, at)) {
          if (brCpfValid(c)) expect(at < 9 && valid[9] === '0', `${valid} → ${c}`).toBe(true);
        }
        const swapped = swapAt(valid, Math.min(at, 9));
        if (swapped !== null && brCpfValid(swapped)) expect(valid[9] === '0' || valid[10] === '0', `${valid} → ${swapped}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // The weakness is real: 889927978-00 → 889925978-00 (two collapses) is valid both ways.
    expect([brCpfValid('88992797800'), brCpfValid('88992597800'), reference('88992597800')]).toEqual([true, true, true]);
  });

  it.each([
    '21144477735', '11144577735', '11144477745', '11144477736',
    '32490807552', '22490907552', '22490807562', '22490807553',
    // Repeated digits satisfy the arithmetic but are never issued.
    '00000000000', '11111111111', '99999999999',
  ])('rejects %s', (v) => expect(brCpfValid(v)).toBe(false));
  it.each(['111.444.777-35', '1114447773', '111444777350'])('rejects malformed %j', (v) => expect(brCpfValid(v)).toBe(false));
});
